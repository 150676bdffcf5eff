import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONTENT_SECURITY_POLICY,
  contentSecurityPolicy,
  resolveAssetPath,
  serveAsset,
  type MediaPolicy,
} from './assets';

let dir: string;
let root: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-assets-'));
  root = join(dir, 'renderer');
  await mkdir(join(root, 'assets'), { recursive: true });
  await writeFile(join(root, 'index.html'), '<!doctype html><h1>Skein</h1>');
  await writeFile(join(root, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(dir, 'secret.txt'), 'sk-live-SECRET');
  await symlink(join(dir, 'secret.txt'), join(root, 'assets', 'link.txt'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('resolveAssetPath', () => {
  it('maps paths inside the renderer folder', () => {
    expect(resolveAssetPath(root, '/')).toBe(join(root, 'index.html'));
    expect(resolveAssetPath(root, '/assets/app.js')).toBe(join(root, 'assets', 'app.js'));
    expect(resolveAssetPath(root, '/assets/./app.js')).toBe(join(root, 'assets', 'app.js'));
    expect(resolveAssetPath(root, '/post/123')).toBe(join(root, 'index.html'));
  });

  it.each([
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E%2Fsecret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/..\\secret.txt',
    '/%5c..%5csecret.txt',
    '/index.html%00.png',
    '/C:/Windows/win.ini',
    '/%E0%A4%A',
  ])('refuses %s', (path) => {
    expect(resolveAssetPath(root, path)).toBeNull();
  });
});

describe('serveAsset', () => {
  it('serves a file with its type and the CSP header', async () => {
    const res = await serveAsset(root, '/assets/app.js');
    expect(res.status).toBe(200);
    expect(res.headers['Content-Type']).toMatch(/^text\/javascript/);
    expect(res.headers['Content-Security-Policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers['X-Content-Type-Options']).toBe('nosniff');
  });

  it('answers 404 for a traversal, a missing file and a symlink leading out', async () => {
    for (const path of ['/../secret.txt', '/assets/missing.js', '/assets/link.txt']) {
      const res = await serveAsset(root, path);
      expect(res.status).toBe(404);
      expect(String(res.body)).not.toContain('SECRET');
    }
  });
});

describe('CONTENT_SECURITY_POLICY', () => {
  const directives: Record<string, string[]> = Object.fromEntries(
    CONTENT_SECURITY_POLICY.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name, values];
    }),
  );

  it('allows no inline script and no eval', () => {
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|wasm-unsafe-eval/);
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
  });

  it('loads post media over https, never from any local port, and talks only to itself', () => {
    expect(directives['img-src']).toEqual(expect.arrayContaining(['https:']));
    expect(directives['img-src']).not.toContain('http:');
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/127\.0\.0\.1|localhost|:\*/);
    expect(directives['connect-src']).toEqual(["'self'"]);
  });

  it('allows the running sandbox’s exact origin only, and no remote media when the user turned it off', () => {
    const csp = (m: MediaPolicy) =>
      Object.fromEntries(
        contentSecurityPolicy(m)
          .split(';')
          .map((d) => {
            const [k = '', ...v] = d.trim().split(/\s+/);
            return [k, v];
          }),
      );
    const demo = csp({
      remote: true,
      localOrigins: ['http://127.0.0.1:41234', 'http://127.0.0.1:*', 'http://evil.example:80'],
    });
    expect(demo['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https:', 'http://127.0.0.1:41234']);
    expect(demo['media-src']).toEqual(["'self'", 'blob:', 'https:', 'http://127.0.0.1:41234']);
    const off = csp({ remote: false, localOrigins: [] });
    expect(off['img-src']).toEqual(["'self'", 'data:', 'blob:']);
    expect(off['media-src']).toEqual(["'self'", 'blob:']);
  });
});
