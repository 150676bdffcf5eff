/**
 * The harness of the shell smoke test: a project folder like a fresh clone, `npm start` run in it (and with
 * the browser-shell fallback), and the shape of the report the fake Electron writes.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
export const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
).version;
export const PROGRAM = join(import.meta.dirname, 'fake-electron.mjs');
export const PLATFORMS = ['linux', 'darwin', 'win32'] as const;

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A project folder like a fresh clone: its own node_modules/electron (copied, without a binary), the rest linked. */
export function makeProject(dir: string): void {
  for (const file of [
    'package.json',
    'electron.vite.config.ts',
    ...readdirSync(ROOT).filter((f) => /^tsconfig.*\.json$/.test(f)),
  ])
    cpSync(join(ROOT, file), join(dir, file));
  cpSync(join(ROOT, 'scripts'), join(dir, 'scripts'), { recursive: true });
  symlinkSync(join(ROOT, 'src'), join(dir, 'src'));
  mkdirSync(join(dir, 'node_modules'));
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (name !== 'electron') symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name));
  }
  const electron = join(dir, 'node_modules', 'electron');
  mkdirSync(electron);
  for (const name of readdirSync(join(ROOT, 'node_modules/electron'))) {
    if (name === 'dist' || name === 'path.txt') continue;
    if (name === 'node_modules') symlinkSync(join(ROOT, 'node_modules/electron/node_modules'), join(electron, name));
    else cpSync(join(ROOT, 'node_modules/electron', name), join(electron, name), { recursive: true });
  }
}

/** `npm start` in the project, with no npm or Electron settings leaking in from the outer run. */
export function npmStart(cwd: string, env: Record<string, string>, extra: string[] = []): Promise<Run> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(npm_|ELECTRON_|electron_|SKEIN_|NODE_OPTIONS$|VITEST)/i.test(k)),
  ) as Record<string, string>;
  const npm = process.env.npm_execpath;
  const [cmd, args] =
    npm && npm.endsWith('.js') ? [process.execPath, [npm, 'start', '--silent']] : ['npm', ['start', '--silent']];
  return new Promise((done, reject) => {
    const child = spawn(cmd, [...args, ...(extra.length ? ['--', ...extra] : [])], {
      cwd,
      env: { ...clean, PATH: `${resolve(process.execPath, '..')}:${process.env.PATH ?? ''}`, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

export interface Fallback {
  stderr: string;
  url: string | null;
  index: { status: number; body: string } | null;
  info: unknown;
  error?: string;
}

/**
 * `npm start` where it falls back to the browser shell: waits for the printed URL, opens it as a browser
 * would (the secret for the cookie), asks the bridge which mode Skein runs in, then stops the shell.
 */
export async function npmStartFallback(cwd: string, env: Record<string, string>): Promise<Fallback> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^(npm_|ELECTRON_|electron_|SKEIN_|NODE_OPTIONS$|VITEST|DISPLAY$|WAYLAND_DISPLAY$)/i.test(k),
    ),
  ) as Record<string, string>;
  const npm = process.env.npm_execpath;
  const [cmd, args] =
    npm && npm.endsWith('.js') ? [process.execPath, [npm, 'start', '--silent']] : ['npm', ['start', '--silent']];
  const child = spawn(cmd, [...args, '--', '--skipBuild', '--no-open'], {
    cwd,
    env: {
      ...clean,
      PATH: `${resolve(process.execPath, '..')}:${process.env.PATH ?? ''}`,
      SKEIN_USER_DATA_DIR: join(cwd, 'user-data-web'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const result: Fallback = { stderr: '', url: null, index: null, info: null };
  try {
    result.url = await new Promise<string>((found, fail) => {
      const timer = setTimeout(() => fail(new Error(`no URL within 60 s:\n${stdout}\n${stderr}`)), 60_000);
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        const url = /http:\/\/127\.0\.0\.1:\d+\/__skein\/auth\?secret=[\w-]+/.exec(stdout)?.[0];
        if (url) {
          clearTimeout(timer);
          found(url);
        }
      });
      child.on('close', () => fail(new Error(`npm start ended:\n${stdout}\n${stderr}`)));
    });
    const origin = new URL(result.url).origin;
    const auth = await fetch(result.url, { redirect: 'manual' });
    const cookie = (auth.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const index = await fetch(`${origin}/index.html`, { headers: { cookie } });
    result.index = { status: index.status, body: await index.text() };
    const info = await fetch(`${origin}/__skein/bridge`, {
      method: 'POST',
      headers: { cookie, origin, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'skein:app.info', sender: 'smoke' }),
    });
    result.info = await info.json();
  } catch (error) {
    result.error = (error as Error).message;
  } finally {
    // the shell's own shutdown still writes (its project is closed and checkpointed): wait for it to end, so
    // nothing writes into the test's folder after this returns (SIGKILL if it has not ended in 10 s)
    const pid = child.pid;
    if (pid && child.exitCode === null) {
      const ended = new Promise<void>((done) => child.once('close', () => done()));
      process.kill(-pid, 'SIGTERM');
      const timer = setTimeout(() => process.kill(-pid, 'SIGKILL'), 10_000);
      await ended;
      clearTimeout(timer);
    }
  }
  result.stderr = stderr;
  return result;
}

export interface LogEntry {
  what: string;
  ready: boolean;
  [key: string]: unknown;
}
interface ProtocolAnswer {
  url: string;
  method: string;
  status: number;
  contentType: string | null;
  csp: string | null;
  body: string;
}
export interface Report {
  platform: string;
  packaged: boolean;
  errors: string[];
  log: LogEntry[];
  appName: string;
  userData: string;
  window: { options: { webPreferences: Record<string, unknown> }; url: string };
  preload: { path: string; exists: boolean; commonjs: boolean; requires: string[]; exposed: string[]; error?: string };
  bridge: string[];
  handled: string[];
  info: { ok: boolean; data?: { name: string; platform: string } };
  calls: {
    subFrame: { ok: boolean; error?: { code: string } };
    otherOrigin: { ok: boolean; error?: { code: string } };
  };
  menu: { clicked: string[]; received: string[] };
  demoCall: { ok: boolean };
  fetched: string[];
  protocol: ProtocolAnswer[];
  permission: unknown;
  clipboardWrite: { own: unknown; other: unknown; read: unknown };
  failedLoad: { shown: boolean; loads: string[] };
  secondInstance: { windowsBefore: number; windowsAfter: number };
  quitOnAllClosed: boolean;
  activate?: { windowsAfter: number };
  quit: { willQuit: Array<{ prevented: boolean }> };
  sandboxAfterQuit?: string;
}
