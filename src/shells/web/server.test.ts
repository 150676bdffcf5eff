/**
 * Attack tests of the browser shell: what a page on another origin, a DNS-rebound
 * name or a caller without the secret can get from it (nothing but 401/403), and
 * what it refuses to bind. Raw node:http requests, so every header can be forged.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelName } from '../../shared/ipc';
import { createCore, type Core } from '../../core';
import { CONTENT_SECURITY_POLICY, contentSecurityPolicy } from '../../core/protocol/assets';
import { BRIDGE_PATH, SCRIPT_PATH } from './client';
import { cookieName } from './security';
import { AUTH_PATH, bindHost, startWebShell, type WebShell } from './server';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  return new Promise((done, fail) => {
    const req = request(
      { host: '127.0.0.1', port, path, agent: false, method: options.method ?? 'GET', headers: options.headers ?? {} },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', fail);
    req.end(options.body);
  });
}

const dirs: string[] = [];
let core: Core;
let shell: WebShell;
let host: string;
let cookie: string;
let secret: string;
const emitted: string[] = [];

beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), 'skein-shell-test-'));
  dirs.push(root);
  const renderer = join(root, 'renderer');
  mkdirSync(renderer);
  writeFileSync(
    join(renderer, 'index.html'),
    '<!doctype html><html><head><title>Skein</title><script type="module" src="./app.js"></script></head><body></body></html>',
  );
  writeFileSync(join(renderer, 'app.js'), 'export {};');
  writeFileSync(join(root, 'secret.txt'), 'outside the renderer');
  core = createCore({
    userDataDir: join(root, 'data'),
    secretStorage: {
      isEncryptionAvailable: async () => false,
      backend: () => 'basic_text',
      encryptString: async () => new Uint8Array(),
      decryptString: async () => '',
    },
    openExternal: async () => {},
    app: { name: 'Skein', version: '1.2.3', platform: 'linux' },
    startSandbox: async () => {
      throw new Error('no sandbox in this test');
    },
    chooseSavePath: async () => null,
    emit: (name) => emitted.push(name),
  });
  shell = await startWebShell({ core, rendererDir: renderer });
  host = `127.0.0.1:${shell.port}`;
  secret = new URL(shell.url).searchParams.get('secret') ?? '';
  cookie = `${cookieName(shell.port)}=${secret}`;
});

afterAll(async () => {
  await shell.close();
  await core.dispose();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const info = JSON.stringify({ channel: channelName('app', 'info'), sender: 'test' });
const bridgeHeaders = (extra: Record<string, string> = {}) => ({
  host,
  cookie,
  origin: `http://${host}`,
  'content-type': 'application/json',
  ...extra,
});

function expectRefusal(reply: Reply, status: 401 | 403): void {
  expect(reply.status).toBe(status);
  expect(reply.body.length).toBeLessThan(80);
  expect(reply.body).not.toContain('Skein</title>');
  expect(reply.body).not.toContain('"ok"');
  expect(reply.headers['set-cookie']).toBeUndefined();
  expect(Object.keys(reply.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
}

describe('the printed URL', () => {
  it('carries at least 128 random bits, different every run', async () => {
    expect(Buffer.from(secret, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(new URL(shell.url).origin).toBe(`http://${host}`);
  });

  it('exchanges the right secret for an HttpOnly, SameSite=Strict cookie, and opens the app without a script', async () => {
    const reply = await send(shell.port, `${AUTH_PATH}?secret=${secret}`, { headers: { host } });
    expect(reply.status).toBe(200);
    expect(reply.headers['set-cookie']).toEqual([
      `${cookieName(shell.port)}=${secret}; HttpOnly; SameSite=Strict; Path=/`,
    ]);
    expect(reply.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(reply.body).toContain('http-equiv="refresh"');
    expect(reply.body).not.toContain('<script');
  });

  it('a wrong or missing secret gets 401 and nothing else', async () => {
    const wrong = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    expectRefusal(await send(shell.port, `${AUTH_PATH}?secret=${wrong}`, { headers: { host } }), 401);
    expectRefusal(await send(shell.port, AUTH_PATH, { headers: { host } }), 401);
    expectRefusal(await send(shell.port, `${AUTH_PATH}?secret=`, { headers: { host } }), 401);
  });
});

describe('without the session cookie', () => {
  for (const path of ['/', '/index.html', '/app.js', SCRIPT_PATH, '/does-not-exist']) {
    it(`GET ${path} is 401 and nothing else`, async () => {
      expectRefusal(await send(shell.port, path, { headers: { host } }), 401);
      expectRefusal(
        await send(shell.port, path, { headers: { host, cookie: `${cookieName(shell.port)}=guess` } }),
        401,
      );
    });
  }

  it('a bridge call is 401 even from the right Origin', async () => {
    expectRefusal(
      await send(shell.port, BRIDGE_PATH, { method: 'POST', headers: bridgeHeaders({ cookie: '' }), body: info }),
      401,
    );
    expectRefusal(
      await send(shell.port, BRIDGE_PATH, {
        method: 'POST',
        headers: bridgeHeaders({ cookie: `${cookieName(shell.port + 1)}=${secret}` }),
        body: info,
      }),
      401,
    );
  });

  it('a CORS preflight gets no CORS headers', async () => {
    const reply = await send(shell.port, BRIDGE_PATH, {
      method: 'OPTIONS',
      headers: { host, origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expectRefusal(reply, 401);
  });
});

describe('a DNS-rebound name (Host is not the bound host:port)', () => {
  for (const rebound of ['evil.example', 'evil.example:PORT', 'localhost:PORT', '127.0.0.1:1', '127.0.0.1']) {
    it(`Host: ${rebound} is 403, even with the cookie`, async () => {
      const name = rebound.replace('PORT', String(shell.port));
      expectRefusal(await send(shell.port, '/index.html', { headers: { host: name, cookie } }), 403);
      expectRefusal(
        await send(shell.port, BRIDGE_PATH, {
          method: 'POST',
          headers: bridgeHeaders({ host: name, origin: `http://${name}` }),
          body: info,
        }),
        403,
      );
      expectRefusal(await send(shell.port, `${AUTH_PATH}?secret=${secret}`, { headers: { host: name } }), 403);
    });
  }
});

describe('a bridge call from another origin', () => {
  for (const origin of [
    'http://127.0.0.1:1',
    'https://evil.example',
    'null',
    'http://localhost:PORT',
    'https://127.0.0.1:PORT',
  ]) {
    it(`Origin: ${origin} is 403, even with the cookie`, async () => {
      const o = origin.replace('PORT', String(shell.port));
      expectRefusal(
        await send(shell.port, BRIDGE_PATH, { method: 'POST', headers: bridgeHeaders({ origin: o }), body: info }),
        403,
      );
    });
  }

  it('no Origin at all is 403', async () => {
    const headers: Record<string, string> = bridgeHeaders();
    delete headers.origin;
    expectRefusal(await send(shell.port, BRIDGE_PATH, { method: 'POST', headers, body: info }), 403);
  });

  it('a simple-request content type (no preflight) is refused too', async () => {
    const reply = await send(shell.port, BRIDGE_PATH, {
      method: 'POST',
      headers: bridgeHeaders({ 'content-type': 'text/plain' }),
      body: info,
    });
    expect(reply.status).toBe(405);
    expect(reply.body).not.toContain('"ok"');
  });
});

describe('with the cookie, from its own origin', () => {
  it('serves the renderer under the app CSP, with the bridge as a script file before the app', async () => {
    const reply = await send(shell.port, '/index.html', { headers: { host, cookie } });
    expect(reply.status).toBe(200);
    // the app's policy, with the running demo sandbox's exact origin (and no other local port) for images
    expect(reply.headers['content-security-policy']).toBe(contentSecurityPolicy(await core.mediaPolicy()));
    expect(String(reply.headers['content-security-policy']).replace(/ http:\/\/127\.0\.0\.1:\d+/g, '')).toBe(
      CONTENT_SECURITY_POLICY,
    );
    expect(reply.body.indexOf(`<script src="${SCRIPT_PATH}"></script>`)).toBeGreaterThan(0);
    expect(reply.body.indexOf(SCRIPT_PATH)).toBeLessThan(reply.body.indexOf('./app.js'));
    const script = await send(shell.port, SCRIPT_PATH, { headers: { host, cookie } });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.body).not.toContain(secret);
  });

  it('serves nothing outside the renderer folder', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/%2e%2e%5csecret.txt']) {
      const reply = await send(shell.port, path, { headers: { host, cookie } });
      expect(reply.status).toBe(404);
      expect(reply.body).not.toContain('outside the renderer');
    }
  });

  it('answers a bridge call with the dispatcher envelope', async () => {
    const reply = await send(shell.port, BRIDGE_PATH, { method: 'POST', headers: bridgeHeaders(), body: info });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual({
      ok: true,
      data: { name: 'Skein', version: '1.2.3', platform: 'linux', mode: 'demo' },
    });
    const bad = await send(shell.port, BRIDGE_PATH, {
      method: 'POST',
      headers: bridgeHeaders(),
      body: JSON.stringify({
        channel: channelName('app', 'openExternal'),
        input: { url: 'file:///etc/passwd' },
        sender: 'test',
      }),
    });
    expect(JSON.parse(bad.body)).toMatchObject({ ok: false, error: { code: 'bad-input' } });
  });

  it('refuses bodies that are not JSON or too big', async () => {
    expect((await send(shell.port, BRIDGE_PATH, { method: 'POST', headers: bridgeHeaders(), body: '{' })).status).toBe(
      400,
    );
    expect(
      (await send(shell.port, BRIDGE_PATH, { method: 'POST', headers: bridgeHeaders(), body: 'x'.repeat(2 << 20) }))
        .status,
    ).toBe(400);
  });

  it('streams events to a subscribed page, checked against the contract', async () => {
    const lines = await new Promise<string>((done, fail) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: shell.port,
          agent: false,
          path: BRIDGE_PATH,
          method: 'POST',
          headers: bridgeHeaders(),
        },
        (res) => {
          res.setEncoding('utf8');
          res.once('data', (chunk: string) => {
            done(chunk);
            req.destroy();
          });
          shell.emit('menu', 'export');
        },
      );
      req.on('error', fail);
      req.end(JSON.stringify({ subscribe: 'page-1' }));
    });
    expect(JSON.parse(lines.trim())).toEqual({ c: 'skein:event.menu', p: 'export' });
    expect(() => shell.emit('menu', 'rm -rf' as never)).toThrow();
  });
});

describe('where it listens', () => {
  it('binds loopback by default and refuses any other address unless asked', async () => {
    expect(bindHost(undefined, false)).toBe('127.0.0.1');
    expect(bindHost('::1', false)).toBe('::1');
    expect(() => bindHost('192.168.1.10', false)).toThrow(/not a loopback address/);
    expect(() => bindHost('example.org', false)).toThrow(/not a loopback address/);
    expect(bindHost('192.168.1.10', true)).toBe('192.168.1.10');
    expect(() => bindHost('0.0.0.0', true)).toThrow(/every interface/);
    expect(() => bindHost('::', true)).toThrow(/every interface/);
    await expect(startWebShell({ core, rendererDir: tmpdir(), host: '10.1.2.3' })).rejects.toThrow(
      /not a loopback address/,
    );
  });
});
