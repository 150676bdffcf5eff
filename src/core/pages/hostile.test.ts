/**
 * Hostile hosts, met by a page capture: a local server (the test's one trusted origin) whose links redirect to
 * loopback and to the cloud's metadata address (as a literal and behind a name the injected resolver points
 * there), claim five gigabytes, send more than the limit with no length said, send a gzip bomb, or never finish
 * their body. Each URL ends with its row and its reason, within the limits; the one honest page is captured;
 * nothing is written outside the project's pages folder, and nothing half-written is left in it.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateParts } from '../db';
import { DIALECTS } from '../db/testing/dialects';
import type { FetchPolicy } from '../net';
import { capturePages } from './capture';
import { PAGES_PART } from './tables/part';
import { readWithPython } from './testing/readers';

// honest, but its images point at this machine and at the cloud's metadata: the page is kept, they are not
const PAGE =
  '<!doctype html><title>An honest page</title><p>Hello.</p>' +
  '<img src="https://inner.example/secret.png"><img src="http://169.254.169.254/latest/meta-data/">\n';
// 64 MB of spaces in about 64 kB
const BOMB = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
let server: Server;
let origin: string;
let root: string;
const open = new Set<ServerResponse>();
const resolved: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    switch (req.url) {
      case '/page':
        return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
      case '/to-loopback':
        return res.writeHead(302, { location: 'http://127.0.0.1/' }).end();
      case '/to-loopback-name':
        return res.writeHead(302, { location: 'https://inner.example/admin' }).end();
      case '/to-metadata':
        return res.writeHead(301, { location: 'https://169.254.169.254/latest/meta-data/' }).end();
      case '/to-metadata-name':
        return res.writeHead(307, { location: 'https://metadata.example/latest/meta-data/' }).end();
      case '/huge':
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(5 * 1024 ** 3) });
        return res.write('<!doctype html>');
      case '/endless': {
        // a page that keeps coming, a little at a time, forever
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<!doctype html><p>');
        const t = setInterval(() => res.write('more '), 20);
        return res.on('close', () => clearInterval(t));
      }
      case '/flood': {
        // no declared length, more than the limit
        res.writeHead(200, { 'content-type': 'text/html' });
        for (let i = 0; i < 40; i++) res.write(Buffer.alloc(64 * 1024, 0x20));
        return res.end();
      }
      case '/gzipped':
        return res
          .writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip', 'content-length': BOMB.length })
          .end(BOMB);
      case '/silent':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.write('<!doctype html>'); // ...and never another byte
      default:
        return res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  root = await mkdtemp(join(tmpdir(), 'skein-hostile-pages-'));
});

afterAll(async () => {
  for (const res of open) res.destroy();
  await new Promise((r) => server.close(r));
  await rm(root, { recursive: true, force: true });
});

const policy = (): FetchPolicy => ({
  maxBytes: 1024 * 1024,
  totalMs: 1_500,
  idleMs: 400,
  maxRedirects: 5,
  trustedOrigins: [origin],
  resolve: async (host) => {
    resolved.push(host);
    if (host === 'inner.example') return [{ address: '127.0.0.1', family: 4 }];
    if (host === 'metadata.example') return [{ address: '169.254.169.254', family: 4 }];
    return [{ address: '93.184.215.14', family: 4 }];
  },
});

const d = DIALECTS[0] as (typeof DIALECTS)[number];

describe('capturing pages from hostile hosts', () => {
  beforeAll(d.setup);
  afterAll(d.teardown);

  it('each URL ends with its reason, the honest page is captured, nothing lands outside the pages folder', async () => {
    const db = await d.fresh();
    await migrateParts(db, [PAGES_PART], 0);
    const store = PAGES_PART.open(db, { now: Date.now });
    const project = join(root, 'project');
    const folder = `${project}-pages`;
    const paths = [
      '/page',
      '/to-loopback',
      '/to-loopback-name',
      '/to-metadata',
      '/to-metadata-name',
      '/huge',
      '/endless',
      '/silent',
      '/flood',
      '/gzipped',
    ];
    const links = paths.map((p) => ({ url: `${origin}${p}`, postId: '1' }));
    const start = performance.now();
    const out = await capturePages(links, { store, folder, policy: policy(), now: Date.now, software: 'Skein test' });
    expect(performance.now() - start).toBeLessThan(8_000);
    expect(out).toMatchObject({ total: paths.length, done: paths.length, captured: 1, failed: paths.length - 1 });

    const rows = new Map((await store.outcomes(links.map((l) => l.url))).map((r) => [new URL(r.url).pathname, r]));
    expect(rows.size).toBe(paths.length);
    expect(rows.get('/page')).toMatchObject({ state: 'captured', status: 200, size: Buffer.byteLength(PAGE) });
    const inWacz = readWithPython(join(folder, (await readdir(folder))[0] as string)).records.map((r) => r.target);
    expect(inWacz.filter((t) => t !== null)).toEqual([`${origin}/page`, `${origin}/page`]);
    expect(rows.get('/to-loopback')).toMatchObject({ state: 'failed', reason: 'refused' });
    expect(rows.get('/to-loopback-name')).toMatchObject({ state: 'failed', reason: 'refused' });
    expect(rows.get('/to-loopback-name')?.message).toMatch(/private or local address \(127\.0\.0\.1\)/);
    expect(rows.get('/to-metadata')).toMatchObject({ state: 'failed', reason: 'refused' });
    expect(rows.get('/to-metadata')?.message).toMatch(/169\.254\.169\.254/);
    expect(rows.get('/to-metadata-name')).toMatchObject({ state: 'failed', reason: 'refused' });
    expect(rows.get('/to-metadata-name')?.message).toMatch(/169\.254\.169\.254/);
    expect(resolved).toEqual(expect.arrayContaining(['inner.example', 'metadata.example']));
    expect(rows.get('/huge')).toMatchObject({ state: 'failed', reason: 'too-large' });
    expect(rows.get('/huge')?.message).toMatch(/5120 MB, over the 1 MB limit/);
    expect(rows.get('/endless')).toMatchObject({ state: 'failed', reason: 'timed-out' });
    expect(rows.get('/silent')).toMatchObject({ state: 'failed', reason: 'timed-out' });
    expect(rows.get('/silent')?.message).toMatch(/sent nothing/);
    expect(rows.get('/flood')).toMatchObject({ state: 'failed', reason: 'too-large' });
    expect(rows.get('/flood')?.message).toMatch(/grew past the 1 MB limit/);
    expect(rows.get('/gzipped')).toMatchObject({ state: 'failed', reason: 'wrong-type' });
    expect(rows.get('/gzipped')?.message).toMatch(/never unpacked/);

    // the project's folder holds the one package; its parent nothing else; no .partial file anywhere
    expect(await readdir(root)).toEqual(['project-pages']);
    const files = await readdir(folder);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^pages-\d{8}T\d{6}Z-[0-9a-f]{8}\.wacz$/);
  }, 20_000);
});
