/**
 * Composition root of the browser shell (`npm run web`, `node out/main/web.js`):
 * the same `createCore` as the Electron root (src/shells/electron/index.ts), served to the
 * user's browser by server.ts. Never imports `electron`.
 *
 * Options: --port N (default any free port), --host ADDR (default 127.0.0.1; any
 * other address only when named, with a warning), --no-open, --exports-dir DIR.
 * `--web` is accepted and ignored (`npm start -- --web` forwards it).
 * Environment: SKEIN_API_BASE_URL, SKEIN_API_KEY, SKEIN_USER_DATA_DIR, as for the app.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createCore, holdYoungGeneration, type Core } from '../../core';
import { bindHost, startWebShell, type WebShell } from './server';
import { isLoopback } from './security';
import {
  defaultExportsDir,
  defaultUserDataDir,
  exportsFolderSaver,
  openInBrowser,
  shellSecretStorage,
  terminalConfirm,
} from './platform';

export interface WebShellCliOptions {
  port: number;
  host: string;
  open: boolean;
  exportsDir: string;
  /** the user named a host (a non-loopback one is then allowed, with a warning) */
  hostGiven: boolean;
}

export function parseWebShellArgs(argv: readonly string[]): WebShellCliOptions | { help: true } | { error: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'no-open': { type: 'boolean' },
        'exports-dir': { type: 'string' },
        web: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    return { error: (error as Error).message };
  }
  if (values.help) return { help: true };
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return { error: `--port must be a port number, not ${values.port}` };
  return {
    port,
    host: values.host ?? '127.0.0.1',
    open: !values['no-open'],
    exportsDir: values['exports-dir'] ?? process.env.SKEIN_EXPORTS_DIR ?? defaultExportsDir(),
    hostGiven: values.host !== undefined,
  };
}

export const USAGE = `Usage: npm run web -- [--port N] [--host ADDR] [--no-open] [--exports-dir DIR]
  Skein in your browser: a local server (default http://127.0.0.1) over the same core as the desktop app.
  --host ADDR       listen on ADDR (default 127.0.0.1); a non-loopback address exposes Skein to the network
  --port N          listen on port N (default: any free port)
  --no-open         print the URL only; do not open the system browser
  --exports-dir DIR where exports are written (default: ~/Skein exports)`;

export interface RunningWebShell {
  shell: WebShell;
  core: Core;
  stop: () => Promise<void>;
}

function appVersion(): string {
  for (const candidate of ['../../package.json', '../../../package.json']) {
    try {
      return (
        JSON.parse(readFileSync(join(import.meta.dirname, candidate), 'utf8')) as { name?: string; version: string }
      ).version;
    } catch {
      /* next */
    }
  }
  return '0.0.0';
}

/**
 * Starts the shell as a user runs it; what the start script calls when Electron
 * cannot run. Prints the URL (the only place the secret is ever written) and
 * opens the system browser where there is one. Throws with a one-sentence reason.
 */
export async function runWebShell(
  argv: readonly string[],
  out: (line: string) => void = (l) => console.log(l),
): Promise<RunningWebShell | null> {
  const parsed = parseWebShellArgs(argv);
  if ('help' in parsed) {
    out(USAGE);
    return null;
  }
  if ('error' in parsed) throw new Error(`${parsed.error}\n${USAGE}`);
  const host = bindHost(parsed.host, parsed.hostGiven);
  const rendererDir = join(import.meta.dirname, '../renderer');
  if (!existsSync(join(rendererDir, 'index.html')))
    throw new Error(`there is no built renderer in ${rendererDir}: run \`npm run build\` first.`);
  let shell: WebShell | undefined;
  const core = createCore({
    userDataDir: process.env.SKEIN_USER_DATA_DIR || defaultUserDataDir(),
    secretStorage: shellSecretStorage(),
    // The page opens allowed links itself, as a new tab (the server answers with X-Skein-Open).
    openExternal: async () => {},
    app: { name: 'Skein', version: appVersion(), platform: process.platform },
    apiBaseUrl: process.env.SKEIN_API_BASE_URL || undefined,
    apiKey: process.env.SKEIN_API_KEY || undefined,
    startSandbox: async (options) => (await import('../../sandbox')).startSandbox(options),
    chooseSavePath: exportsFolderSaver(parsed.exportsDir),
    // the research archive's SQLite in its own worker thread (built next to this file)
    workers: {
      archive: new URL('./archive-worker.js', import.meta.url),
      reexport: new URL('./reexport-worker.js', import.meta.url),
      live: new URL('./live-worker.js', import.meta.url),
      files: new URL('./files-worker.js', import.meta.url),
    },
    // moving the key, raising spending, keeping the key without a keyring: asked in this terminal
    confirm: terminalConfirm(),
    emit: (name, payload) => shell?.emit(name, payload),
    exportPlatform: {
      setProgress: (value) => shell?.platform.setProgress(value),
      notify: (title, body) => shell?.platform.notify(title, body),
    },
    log: {
      error: (message, error) => console.error(`[skein] ${message}`, error),
      warn: (message) => console.warn(`[skein] ${message}`),
    },
  });
  try {
    shell = await startWebShell({
      core,
      rendererDir,
      host,
      port: parsed.port,
      allowRemote: parsed.hostGiven,
      pageOpensLinks: true,
      onInternalError: (error, channel) => console.error(`[skein] ${channel} failed`, error),
    });
  } catch (error) {
    await core.dispose();
    throw error;
  }
  if (!isLoopback(host)) {
    out(
      `Warning: Skein listens on ${host}, reachable from other machines, over plain HTTP: the URL's secret and your data cross the network unencrypted. Prefer the default 127.0.0.1 with an SSH tunnel (ssh -L ${shell.port}:127.0.0.1:${shell.port} host).`,
    );
  }
  out(
    `Skein is running in your browser at:\n\n    ${shell.url}\n\nExports are written to ${parsed.exportsDir}. Press Ctrl+C to stop.`,
  );
  const cleanup = parsed.open ? await openInBrowser(shell.url).catch(() => false as const) : false;
  if (parsed.open && !cleanup) out('(No system browser to open here: open the URL above in yours.)');
  const running = shell;
  return {
    shell: running,
    core,
    stop: async () => {
      await running.close();
      await core.dispose();
      if (cleanup) await cleanup();
    },
  };
}

/** `node out/main/web.js [options]`: run until Ctrl+C. */
async function main(): Promise<void> {
  // before the core starts its workers: a long export on this thread stays within its young generation
  holdYoungGeneration();
  let running: RunningWebShell | null;
  try {
    running = await runWebShell(process.argv.slice(2));
  } catch (error) {
    console.error(`Skein could not start its browser shell: ${(error as Error).message}`);
    process.exitCode = 1;
    return;
  }
  if (!running) return;
  const stop = () => {
    void running.stop().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return pathToFileURL(realpathSync(entry)).href === import.meta.url;
  } catch {
    return false;
  }
}

if (isEntryPoint()) void main();
