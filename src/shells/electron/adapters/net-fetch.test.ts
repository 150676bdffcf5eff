import { describe, expect, it } from 'vitest';
import { attempt, AttemptFailure } from '../../../core/api/transport';
import { FakeClock } from '../../../core/testing/fake-clock';
import { fetchThroughNet, type FetchLike } from './net-fetch';

const through = (netFetch: FetchLike, signal = new AbortController().signal) =>
  attempt({
    url: 'https://api.example/social/x',
    headers: {},
    fetch: fetchThroughNet(netFetch),
    clock: new FakeClock(),
    timeoutMs: 5_000,
    maxBytes: 1_000_000,
    signal,
  });

async function failure(promise: Promise<unknown>): Promise<AttemptFailure> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof AttemptFailure) return e;
    throw e;
  }
  throw new Error('expected a failure');
}

describe('main’s requests through Electron’s net.fetch', () => {
  it('hands every request to net.fetch, unchanged', async () => {
    const seen: Array<[unknown, RequestInit | undefined]> = [];
    const answer = await through(async (url, init) => {
      seen.push([url, init]);
      return new Response('{"ok":true}', { headers: { 'content-type': 'application/json' } });
    });
    expect(answer.status).toBe(200);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.[0]).toBe('https://api.example/social/x');
    expect(seen[0]?.[1]).toMatchObject({ method: 'GET', redirect: 'manual' });
  });

  it.each([
    ['net::ERR_CERT_AUTHORITY_INVALID', /ERR_CERT_AUTHORITY_INVALID: the server certificate was not accepted/],
    ['net::ERR_PROXY_CONNECTION_FAILED', /ERR_PROXY_CONNECTION_FAILED: the proxy refused or failed/],
    ['net::ERR_NAME_NOT_RESOLVED', /ERR_NAME_NOT_RESOLVED: the host name could not be resolved/],
    ['net::ERR_CONNECTION_RESET', /Cannot reach api\.example \(ERR_CONNECTION_RESET\)/],
  ])('maps %s into the error model as an offline error a user can act on', async (message, expected) => {
    const f = await failure(through(async () => Promise.reject(new Error(message))));
    expect(f.error.code).toBe('offline');
    expect(f.error.message).toMatch(expected);
    expect(f.retryable).toBe(true);
  });

  it('leaves a cancellation a cancellation', async () => {
    const ac = new AbortController();
    const f = await failure(
      through(async () => {
        ac.abort();
        throw new Error('net::ERR_ABORTED');
      }, ac.signal),
    );
    expect(f.error.code).toBe('cancelled');
  });
});
