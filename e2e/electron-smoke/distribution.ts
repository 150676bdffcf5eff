/**
 * The fake Electron distribution and the local mirror it is served from, the
 * way Electron's installer (`@electron/get`) expects them: one zip per
 * platform (`v<version>/electron-v<version>-<platform>-<arch>.zip`) holding
 * the executable at the path `install.js` writes into path.txt, a `version`
 * file and a marker; and `SHASUMS256.txt` beside them (the installer checks
 * it when `electron_use_remote_checksums` is set).
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FAKE_ELECTRON_MARKER } from './marker';
import { zip } from './zip';

const EXECUTABLE_PATH: Readonly<Record<string, string>> = {
  linux: 'electron',
  darwin: 'Electron.app/Contents/MacOS/Electron',
  win32: 'electron.exe',
};

/** A zip whose executable is a shell script running fake-electron.mjs with this Node, as `platform`. */
export function fakeDistribution(platform: string, version: string, nodePath: string, program: string): Buffer {
  const script = `#!/bin/sh\nSKEIN_FAKE_ELECTRON_PLATFORM='${platform}' exec '${nodePath}' '${program}' "$@"\n`;
  return distribution(platform, version, script);
}

/** A zip whose executable cannot run here, as a binary missing a system library fails. */
export function brokenDistribution(platform: string): Buffer {
  const script = `#!/bin/sh\necho "electron: error while loading shared libraries: libnss3.so: cannot open shared object file: No such file or directory" >&2\nexit 127\n`;
  // another version, so that Electron's installer replaces it on the next run
  return distribution(platform, '0.0.0-broken', script);
}

function distribution(platform: string, version: string, script: string): Buffer {
  return zip([
    { name: EXECUTABLE_PATH[platform] ?? 'electron', data: script, mode: 0o755 },
    { name: 'version', data: version },
    {
      name: FAKE_ELECTRON_MARKER,
      data: 'The Skein shell smoke test’s fake Electron (e2e/electron-smoke); not a browser.\n',
    },
  ]);
}

export interface Mirror {
  url: string;
  requests: string[];
  close: () => Promise<void>;
}

/** Serves `files` (name → bytes) under `/v<version>/` on 127.0.0.1, with their SHASUMS256.txt; 404 for anything else. */
export async function startMirror(version: string, files: Record<string, Buffer>): Promise<Mirror> {
  const sums = Object.entries(files)
    .map(([name, data]) => `${createHash('sha256').update(data).digest('hex')} *${name}`)
    .join('\n');
  const served = new Map<string, Buffer>(
    Object.entries({ ...files, 'SHASUMS256.txt': Buffer.from(`${sums}\n`) }).map(([name, data]) => [
      `/v${version}/${name}`,
      data,
    ]),
  );
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const body = served.get(req.url ?? '');
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
