/**
 * The browser shell's honest equivalents of Electron's native pieces, as the
 * core's injected dependencies:
 * - the key: in memory for the session, unless the user turns on "keep the key
 *   without a keyring" in Settings; then a file only they can read (0600);
 * - the save dialog: the export's suggested file name, written only inside the
 *   exports folder the user chose on the command line (never a path from the page);
 * - where settings live, and opening the system browser on the printed URL.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import type { ChooseSavePath, SecretStorage, ConfirmRequest } from '../../core';
import { createInterface } from 'node:readline/promises';

const MARK = 'skein-web-shell:v1:';

/**
 * No OS keyring here: the key store sees "basic_text" storage, so a key is kept in
 * memory unless the user opts in, and then written by the key store with mode 0600.
 * A file written by the Electron app's keyring does not decrypt here (and is left alone).
 */
export function shellSecretStorage(): SecretStorage {
  return {
    isEncryptionAvailable: async () => true,
    backend: () => 'basic_text',
    encryptString: async (plain) => new TextEncoder().encode(MARK + plain),
    decryptString: async (bytes) => {
      const text = new TextDecoder().decode(bytes);
      if (!text.startsWith(MARK)) throw new Error('not a key file of the browser shell');
      return text.slice(MARK.length);
    },
  };
}

/** A file name without any path, control character or leading dot; never empty. */
export function safeFileName(suggested: string): string {
  const name = basename(suggested.replace(/\\/g, '/'))
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"|?*/]/g, '_')
    .replace(/^[.\s]+/, '')
    .trim()
    .slice(0, 180);
  return name || 'skein-export';
}

/** `name.csv`, else `name (2).csv`, … in `dir`. */
export function freePath(dir: string, name: string, exists: (path: string) => boolean = existsSync): string {
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 1; ; n++) {
    const candidate = join(dir, n === 1 ? name : `${stem} (${n})${ext}`);
    if (!exists(candidate)) return candidate;
  }
}

/** The save "dialog" of the shell: the suggested name, inside `exportsDir` only. */
export function exportsFolderSaver(exportsDir: string): ChooseSavePath {
  return async (request) => {
    await mkdir(exportsDir, { recursive: true });
    return freePath(exportsDir, safeFileName(request.defaultPath));
  };
}

export function defaultExportsDir(home = homedir()): string {
  return join(home, 'Skein exports');
}

/** The Electron app's user data folder, plus `web-shell`: settings of their own, beside the app's. */
export function defaultUserDataDir(platform = process.platform, env = process.env, home = homedir()): string {
  const base =
    platform === 'win32'
      ? (env.APPDATA ?? join(home, 'AppData', 'Roaming'))
      : platform === 'darwin'
        ? join(home, 'Library', 'Application Support')
        : (env.XDG_CONFIG_HOME ?? join(home, '.config'));
  return join(base, 'Skein', 'web-shell');
}

/** Whether a system browser can be opened here at all (no display on a server reached over SSH). */
export function canOpenBrowser(platform = process.platform, env = process.env): boolean {
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/**
 * Opens `url` in the system browser without putting the secret on a command line
 * (other users can read those): a page of our own, readable only by this user,
 * redirects to it. Resolves to a cleanup function; false when nothing could be opened.
 */
export async function openInBrowser(url: string): Promise<(() => Promise<void>) | false> {
  if (!canOpenBrowser()) return false;
  const dir = await mkdtemp(join(tmpdir(), 'skein-shell-'));
  const file = join(dir, 'open-skein.html');
  const escaped = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  await writeFile(
    file,
    `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${escaped}"><title>Skein</title>\n`,
    { mode: 0o600 },
  );
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [file]]
      : process.platform === 'win32'
        ? ['explorer.exe', [file]]
        : ['xdg-open', [file]];
  const opened = await new Promise<boolean>((done) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.once('error', () => done(false));
    child.once('spawn', () => {
      child.unref();
      done(true);
    });
  });
  const cleanup = () => rm(dir, { recursive: true, force: true });
  if (!opened) {
    await cleanup();
    return false;
  }
  return cleanup;
}

/**
 * The browser shell's confirmation the page cannot forge: the question is asked in the terminal the shell
 * runs in (a page can call the bridge, but cannot type there). Questions wait their turn; without a
 * terminal (stdin not a TTY: a service, CI) every one is refused, as where no one can be asked.
 */
export function terminalConfirm(
  input: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
): (request: ConfirmRequest) => Promise<boolean> {
  let queue: Promise<unknown> = Promise.resolve();
  return (request) => {
    if (!input.isTTY) return Promise.resolve(false);
    const asked = queue.then(async () => {
      const rl = createInterface({ input, output });
      try {
        output.write(`\n[skein] ${request.title}\n        ${request.detail}\n`);
        const answer = await rl.question(
          `        ${request.confirmLabel}? Type yes to confirm, anything else to cancel: `,
        );
        return /^\s*y(es)?\s*$/i.test(answer);
      } finally {
        rl.close();
      }
    });
    queue = asked.catch(() => undefined);
    return asked.catch(() => false);
  };
}
