#!/usr/bin/env node
/**
 * `npm start` (node scripts/start.mjs preview) and `npm run dev` (… dev):
 * make sure Electron's binary is installed, then hand over to electron-vite.
 *
 * Since Electron 42 the `electron` package downloads its binary lazily, and
 * electron-vite 6 only reads `node_modules/electron/path.txt` (electron-vite
 * issue #904), so a fresh `npm install && npm start` stopped with "Electron
 * uninstall". The download runs here, not in `postinstall`, so an offline
 * `npm ci` keeps working. Every way Electron can turn out unavailable ends in
 * `electronUnavailable(reason)`: one plain sentence, no stack trace, then the
 * browser shell.
 *
 * Where Electron cannot be had, Skein starts its browser shell instead (SSH, no display, no binary:
 * `node out/main/web.js`, the same core served to the user's browser), after
 * saying why; `npm start -- --web` starts the browser shell on purpose, and
 * `--no-web-fallback` makes an unavailable Electron an error (exit 1) instead.
 *
 * Electron's installer honours its usual settings (ELECTRON_MIRROR,
 * electron_config_cache, ELECTRON_GET_USE_PROXY, .npmrc `electron_mirror`, …).
 * Extra arguments go to electron-vite (e.g. `npm start -- --skipBuild`), or to
 * the browser shell (`--port N`, `--host ADDR`, `--no-open`, `--exports-dir DIR`).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const [command = 'preview', ...given] = process.argv.slice(2);

/** the browser shell's own options (with the value each takes), split from electron-vite's */
const WEB_OPTIONS = new Map([
  ['--port', true],
  ['--host', true],
  ['--exports-dir', true],
  ['--no-open', false],
]);
const wantWeb = given.includes('--web');
const noFallback = given.includes('--no-web-fallback');
const skipBuild = given.includes('--skipBuild');
const webArgs = [];
const passThrough = [];
for (let i = 0; i < given.length; i++) {
  const arg = given[i];
  const [name] = arg.split('=');
  if (arg === '--web' || arg === '--no-web-fallback') continue;
  if (WEB_OPTIONS.has(name)) {
    webArgs.push(arg);
    if (WEB_OPTIONS.get(name) && !arg.includes('=') && i + 1 < given.length) webArgs.push(given[++i]);
  } else passThrough.push(arg);
}

/** "Electron cannot be installed or started here", raised where it is found, handled once below. */
class ElectronUnavailable extends Error {}

/**
 * Every way Electron can turn out unavailable ends here.
 * @param {string} reason what failed, as a clause ("downloading Electron's binary … failed (…); …")
 * @returns {never}
 */
function electronUnavailable(reason) {
  throw new ElectronUnavailable(reason);
}

/** One sentence on why there is no window, then the browser shell (or exit 1 with --no-web-fallback). */
function fallBack(reason) {
  console.error(`Skein cannot open its window: ${reason}.`);
  if (noFallback) process.exit(1);
  console.error(
    'Starting Skein in your browser instead (the browser shell; `npm start -- --web` does this on purpose).',
  );
  startBrowserShell();
}

/** Node running a script of this project to its end, inheriting the terminal; its exit code. */
function runNode(args) {
  const result = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: ROOT, env: process.env });
  return result.error ? 1 : (result.status ?? 1);
}

/** The browser shell (src/shells/web): build as `npm start` does (unless --skipBuild), then serve until stopped. */
function startBrowserShell() {
  if (!skipBuild || !existsSync(join(ROOT, 'out', 'main', 'web.js'))) {
    const pkg = require('electron-vite/package.json');
    const bin = join(
      dirname(require.resolve('electron-vite/package.json')),
      typeof pkg.bin === 'string' ? pkg.bin : pkg.bin['electron-vite'],
    );
    const built = runNode([bin, 'build']);
    if (built !== 0) {
      console.error('Skein could not be built (see above); run npm install, then npm start again.');
      process.exit(built);
    }
  }
  const child = spawn(process.execPath, [join(ROOT, 'out', 'main', 'web.js'), ...webArgs], {
    stdio: 'inherit',
    cwd: ROOT,
    env: process.env,
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('close', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

/** The first line of an installer's error output that says something (its stack trace left out). */
function firstCause(stderr) {
  const lines = String(stderr ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('at ') && !/^\^+$/.test(line));
  const error =
    lines.find((line) => /(Error|error|ENOTFOUND|ECONN|ETIMEDOUT|EAI_AGAIN|HTTP|status)/.test(line)) ?? lines[0];
  return (error ?? 'no error output')
    .replace(/^(\w*Error|Error):\s*/, '')
    .replace(/[.\s]+$/, '')
    .slice(0, 200);
}

/** Where Electron's installer downloads from (the settings @electron/get reads for its mirror). */
function downloadHost() {
  const env = process.env;
  const mirror =
    env.npm_config_electron_mirror || env.NPM_CONFIG_ELECTRON_MIRROR || env.ELECTRON_MIRROR || 'https://github.com/';
  try {
    return new URL(mirror).host;
  } catch {
    return mirror;
  }
}

/** Runs `electron`'s own installer (a no-op when the binary is already there); returns its executable. */
function installElectron() {
  let pkgDir;
  try {
    pkgDir = dirname(require.resolve('electron/package.json'));
  } catch {
    electronUnavailable('the electron package is not installed; run npm install first');
  }
  const result = spawnSync(process.execPath, [join(pkgDir, 'install.js')], {
    stdio: ['ignore', 'inherit', 'pipe'],
    encoding: 'utf8',
    env: process.env,
  });
  if (result.error || result.status !== 0) {
    const cause = result.error ? result.error.message : firstCause(result.stderr);
    electronUnavailable(
      `downloading Electron's binary from ${downloadHost()} failed (${cause}); check your network connection or proxy (set HTTPS_PROXY and ELECTRON_GET_USE_PROXY=1, or ELECTRON_MIRROR for a mirror) and run the command again`,
    );
  }
  const pathFile = join(pkgDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const executable = relative ? join(override || join(pkgDir, 'dist'), relative) : '';
  if (!executable || !existsSync(executable)) {
    electronUnavailable(
      `Electron's installer finished but left no binary (${executable || pathFile} is missing); delete node_modules/electron, run npm install, then run the command again`,
    );
  }
  return executable;
}

/** Electron answers `--version` without opening a window: a binary that cannot even do that cannot run here. */
function checkRuns(executable) {
  // a Linux box without a display (an SSH session, a server, CI) has nowhere to put a window
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    electronUnavailable('there is no display to open it on (neither DISPLAY nor WAYLAND_DISPLAY is set)');
  }
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  // as root (containers) Chromium refuses to start with its sandbox, even to print its version
  const args = process.getuid?.() === 0 ? ['--version', '--no-sandbox'] : ['--version'];
  const result = spawnSync(executable, args, { encoding: 'utf8', timeout: 60_000, env });
  if (result.error || result.status !== 0) {
    const cause = result.error ? result.error.message : firstCause(result.stderr || result.stdout);
    electronUnavailable(
      `Electron's binary cannot run on this system (${cause}); install the libraries it names, or use the packaged app`,
    );
  }
}

function runElectronVite(executable) {
  const pkg = require('electron-vite/package.json');
  const bin = join(
    dirname(require.resolve('electron-vite/package.json')),
    typeof pkg.bin === 'string' ? pkg.bin : pkg.bin['electron-vite'],
  );
  // electron-vite reads ELECTRON_EXEC_PATH before path.txt: the installer's answer, overrides included.
  const child = spawn(process.execPath, [bin, command, ...passThrough], {
    stdio: 'inherit',
    env: { ...process.env, ELECTRON_EXEC_PATH: executable },
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => fallBack(`electron-vite could not be started (${error.message}); run npm install`));
  child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (command !== 'preview' && command !== 'dev') {
  console.error('usage: node scripts/start.mjs preview|dev [electron-vite options]');
  process.exit(2);
}
if (wantWeb) {
  startBrowserShell();
} else {
  try {
    const executable = installElectron();
    checkRuns(executable);
    runElectronVite(executable);
  } catch (error) {
    if (!(error instanceof ElectronUnavailable)) throw error;
    fallBack(error.message);
  }
}
