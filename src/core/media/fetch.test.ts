/**
 * Hostile hosts: a local server (allowed by the test's policy as the one trusted origin) whose redirects lead
 * to loopback and cloud-metadata addresses, which the fetcher checks (the names through an injected resolver),
 * and whose answers lie about size, type and encoding or never end. Each ends with its reason, within the
 * limits, and nothing is left outside the media folder or half-written inside it.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, rm, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress } from '../net';
import { fetchMedia, type FetchPolicy } from './fetch';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(40, 7)]);
const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]);

// 64 MB of zeros in about 64 kB
const bomb = gzipSync(Buffer.concat([JPEG_HEAD, Buffer.alloc(64 * 1024 * 1024)]));

let server: Server;
let origin: string;
let root: string;
let media: string;
const open = new Set<ServerResponse>();

beforeAll(async () => {
  server = createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    switch (req.url) {
      case '/photo.png':
        return res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length }).end(PNG);
      case '/gone':
        return res.writeHead(410).end();
      case '/to-loopback':
        return res.writeHead(302, { location: 'https://inner.example/secret.jpg' }).end();
      case '/to-metadata':
        return res.writeHead(301, { location: 'https://169.254.169.254/latest/meta-data/' }).end();
      case '/to-metadata-name':
        return res.writeHead(307, { location: 'https://metadata.example/latest/meta-data/' }).end();
      case '/to-plain-http':
        return res.writeHead(302, { location: 'http://cdn.example/a.jpg' }).end();
      case '/loop':
        return res.writeHead(302, { location: '/loop' }).end();
      case '/huge':
        // claims 5 GB and sends a little, then hangs
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(5 * 1024 ** 3) });
        return res.write(JPEG_HEAD);
      case '/endless':
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        return res.write(JPEG_HEAD); // ...and never another byte
      case '/trickle': {
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        res.write(JPEG_HEAD);
        const t = setInterval(() => res.write(Buffer.alloc(1)), 10);
        return res.on('close', () => clearInterval(t));
      }
      case '/flood': {
        // no declared length, more bytes than the limit
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        res.write(JPEG_HEAD);
        for (let i = 0; i < 64; i++) res.write(Buffer.alloc(64 * 1024));
        return res.end();
      }
      case '/html-as-jpeg':
        return res.writeHead(200, { 'content-type': 'image/jpeg' }).end('<!doctype html><html><body>hi</body></html>');
      case '/png-as-mp4':
        return res.writeHead(200, { 'content-type': 'video/mp4' }).end(PNG);
      case '/gzip-bomb':
        return res
          .writeHead(200, { 'content-type': 'image/jpeg', 'content-encoding': 'gzip', 'content-length': bomb.length })
          .end(bomb);
      default:
        return res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  root = await mkdtemp(join(tmpdir(), 'skein-media-'));
  media = join(root, 'project-media');
  await mkdir(media);
});

afterAll(async () => {
  for (const res of open) res.destroy();
  await new Promise((r) => server.close(r));
  await rm(root, { recursive: true, force: true });
});

const resolved: string[] = [];
const policy = (over: Partial<FetchPolicy> = {}): FetchPolicy => ({
  maxBytes: 1024 * 1024,
  totalMs: 2_000,
  idleMs: 300,
  maxRedirects: 5,
  trustedOrigins: [origin],
  resolve: async (host) => {
    resolved.push(host);
    if (host === 'inner.example') return [{ address: '127.0.0.1', family: 4 }];
    if (host === 'metadata.example') return [{ address: '169.254.169.254', family: 4 }];
    return [{ address: '93.184.215.14', family: 4 }];
  },
  ...over,
});

async function timed<T>(p: Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await p;
  return [value, performance.now() - start];
}

describe('fetching a media file', () => {
  it('keeps the bytes under their SHA-256 name, and a second fetch stores nothing new', async () => {
    const first = await fetchMedia(`${origin}/photo.png`, media, policy());
    const sha = createHash('sha256').update(PNG).digest('hex');
    expect(first).toMatchObject({ ok: true, sha256: sha, size: PNG.length, mime: 'image/png', stored: true });
    expect(await readFile(join(media, `${sha}.png`))).toEqual(PNG);
    const again = await fetchMedia(`${origin}/photo.png`, media, policy());
    expect(again).toMatchObject({ ok: true, sha256: sha, stored: false });
  });

  it('a missing file is gone', async () => {
    expect(await fetchMedia(`${origin}/gone`, media, policy())).toMatchObject({
      ok: false,
      reason: 'gone',
      status: 410,
    });
  });

  it('refuses a redirect to a name that resolves to loopback, checking the redirect target', async () => {
    const out = await fetchMedia(`${origin}/to-loopback`, media, policy());
    expect(out).toMatchObject({ ok: false, reason: 'refused' });
    expect(!out.ok && out.message).toMatch(/private or local address \(127\.0\.0\.1\)/);
    expect(resolved).toContain('inner.example');
  });

  it('refuses a redirect to the cloud metadata address, as a literal and behind a name', async () => {
    for (const path of ['/to-metadata', '/to-metadata-name']) {
      const out = await fetchMedia(`${origin}${path}`, media, policy());
      expect(out).toMatchObject({ ok: false, reason: 'refused' });
      expect(!out.ok && out.message).toMatch(/169\.254\.169\.254/);
    }
  });

  it('refuses plain http (only the trusted origin may use it) and endless redirects', async () => {
    expect(await fetchMedia(`${origin}/to-plain-http`, media, policy())).toMatchObject({
      ok: false,
      reason: 'refused',
      message: 'only https addresses are fetched, not http://',
    });
    expect(await fetchMedia(`http://127.0.0.1:1/x.jpg`, media, policy())).toMatchObject({ reason: 'refused' });
    expect(await fetchMedia(`https://[::ffff:127.0.0.1]/x.jpg`, media, policy())).toMatchObject({
      reason: 'refused',
    });
    expect(await fetchMedia(`${origin}/loop`, media, policy())).toMatchObject({
      reason: 'refused',
      message: 'it redirected more than 5 times',
    });
  });

  it('refuses a declared 5 GB at once, without reading the body', async () => {
    const [out, ms] = await timed(fetchMedia(`${origin}/huge`, media, policy()));
    expect(out).toMatchObject({ ok: false, reason: 'too-large' });
    expect(!out.ok && out.message).toMatch(/5120 MB, over the 1 MB limit/);
    expect(ms).toBeLessThan(300);
  });

  it('stops a body with no declared length as soon as it passes the limit', async () => {
    expect(await fetchMedia(`${origin}/flood`, media, policy())).toMatchObject({ ok: false, reason: 'too-large' });
  });

  it('gives up on a body that never ends: idle, and trickling past the total limit', async () => {
    const [idle, idleMs] = await timed(fetchMedia(`${origin}/endless`, media, policy()));
    expect(idle).toMatchObject({ ok: false, reason: 'timed-out', message: 'the server sent nothing for 0 s' });
    expect(idleMs).toBeLessThan(1_500);
    const [trickle, trickleMs] = await timed(fetchMedia(`${origin}/trickle`, media, policy({ totalMs: 500 })));
    expect(trickle).toMatchObject({ ok: false, reason: 'timed-out' });
    expect(trickleMs).toBeGreaterThanOrEqual(450);
    expect(trickleMs).toBeLessThan(1_500);
  });

  it('refuses HTML served as image/jpeg, and bytes of another kind than declared', async () => {
    const html = await fetchMedia(`${origin}/html-as-jpeg`, media, policy());
    expect(html).toMatchObject({ ok: false, reason: 'wrong-type' });
    expect(!html.ok && html.message).toMatch(/not a photo or video/);
    expect(await fetchMedia(`${origin}/png-as-mp4`, media, policy())).toMatchObject({ reason: 'wrong-type' });
  });

  it('never unpacks a gzip bomb', async () => {
    const before = process.memoryUsage().rss;
    const out = await fetchMedia(`${origin}/gzip-bomb`, media, policy({ maxBytes: 512 * 1024 * 1024 }));
    expect(out).toMatchObject({ ok: false, reason: 'wrong-type' });
    expect(!out.ok && out.message).toMatch(/compressed body \(gzip\)/);
    expect(process.memoryUsage().rss - before).toBeLessThan(48 * 1024 * 1024);
  });

  it('a cancel ends a fetch at once', async () => {
    const ac = new AbortController();
    const p = fetchMedia(`${origin}/endless`, media, policy({ idleMs: 5_000 }), ac.signal);
    setTimeout(() => ac.abort(), 50);
    expect(await p).toMatchObject({ ok: false, reason: 'cancelled' });
  });

  it('left nothing outside the media folder, and nothing half-written in it', async () => {
    expect(await readdir(root)).toEqual(['project-media']);
    const names = await readdir(media);
    expect(names).toEqual([`${createHash('sha256').update(PNG).digest('hex')}.png`]);
  });
});

describe('which addresses are public', () => {
  it.each([
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.20.0.1', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['::1', false],
    ['fe80::1', false],
    ['fd00::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['::ffff:a9fe:a9fe', false],
    ['not-an-address', false],
    ['93.184.215.14', true],
    ['2606:2800:21f:cb07:6820:80da:af6b:8b2c', true],
    ['::ffff:93.184.215.14', true],
  ])('%s → %s', (address, pub) => expect(isPublicAddress(address)).toBe(pub));
});
