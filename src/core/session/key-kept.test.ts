/**
 * The live 403 "API key required" comes back to a key that was sent while the service throttles it
 * (api-field-notes.md, "Round 2", bodies the live service really sent): through the whole session
 * (settings, key custody, client, bridge), Skein waits and asks once more, says which it was, and never
 * clears or distrusts the stored key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RECORDED_403_BODY } from '../../shared/api/fixtures/recorded-round2';
import { contract, type ApiCallOutput, type CredentialsStatus, type Envelope } from '../../shared/ipc';
import { createApiHandlers } from '../api/handlers';
import { createContractDispatcher } from '../bridge/dispatch';
import { FakeClock } from '../testing/fake-clock';
import { fakeSecretStorage } from '../testing/fake-secret-storage';
import { createClientServices } from './client-services';
import { createSettingsHandlers } from './handlers';

const KEY = 'CANARY-key-0123456789';
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** answers the live 403 `refusals` times, then a page; records the key each request carried */
async function throttlingServer(refusals: number) {
  const keys: Array<string | null> = [];
  let left = refusals;
  const server: Server = createServer((req, res) => {
    const key = req.headers['x-api-key'];
    keys.push(typeof key === 'string' ? key : null);
    res.writeHead(left-- > 0 ? 403 : 200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        left >= 0 ? RECORDED_403_BODY : { status: 'success', msg: 'success', tweets: [], has_next_page: false },
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, keys };
}

async function session(baseUrl: string) {
  const dir = mkdtempSync(join(tmpdir(), 'skein-key-kept-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const services = createClientServices({
    userDataDir: dir,
    secretStorage: fakeSecretStorage('gnome_libsecret'),
    demoBaseUrl: () => Promise.reject(new Error('no demo here')),
    fetch: (url, init) => fetch(url, init),
    clock: new FakeClock(undefined, { autoAdvance: true }),
    random: () => 0.5,
    confirm: async () => true,
  });
  const { api, credentials, settings, usage, cache } = contract;
  const dispatcher = createContractDispatcher(
    { api, credentials, settings, usage, cache },
    { ...createApiHandlers(services), ...createSettingsHandlers(services) },
  );
  const call = async <T>(channel: string, input?: unknown) =>
    (await dispatcher.dispatch(`skein:${channel}`, input, { senderId: 1 })) as Envelope<T>;
  const ok = async <T>(channel: string, input?: unknown): Promise<T> => {
    const e = await call<T>(channel, input);
    if (!e.ok) throw new Error(`${e.error.code}: ${e.error.message}`);
    return e.data;
  };
  await ok('settings.update', { mode: 'live', baseUrl });
  await ok('credentials.set', { key: KEY });
  return { call, ok };
}

const quotes = { operation: 'postQuotes', params: { tweetId: '1' }, fresh: true };

describe('a 403 "API key required" to a key that was sent', () => {
  it('once: Skein waits, asks again with the key, and says it was throttling', async () => {
    const server = await throttlingServer(1);
    const s = await session(server.baseUrl);
    const out = await s.ok<ApiCallOutput>('api.call', quotes);
    expect(server.keys).toEqual([KEY, KEY]);
    expect(out.meta.attempts).toBe(2);
    expect(out.meta.notice).toContain('It was the service throttling, not your key.');
    expect((await s.ok<CredentialsStatus>('credentials.status')).configured).toBe(true);
  });

  it('twice: the key is most likely wrong, said so; it stays stored and is sent on the next call', async () => {
    const server = await throttlingServer(2);
    const s = await session(server.baseUrl);
    const failed = await s.call<ApiCallOutput>('api.call', quotes);
    expect(failed.ok).toBe(false);
    if (failed.ok) return;
    expect(failed.error.code).toBe('unauthorized');
    expect(failed.error.message).toContain('Your stored key was kept.');
    expect(failed.error.message).not.toContain(KEY);
    expect((await s.ok<CredentialsStatus>('credentials.status')).configured).toBe(true);
    await s.ok<ApiCallOutput>('api.call', quotes);
    expect(server.keys).toEqual([KEY, KEY, KEY]);
  });
});
