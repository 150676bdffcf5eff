import { describe, expect, it, vi } from 'vitest';
import { SkeinError } from '../../shared/errors';
import type { ApiCallInput, SkeinBridge } from '../../shared/ipc';
import { createCallApi, createClient } from './bridge';

const output = (callId: string) => ({
  operation: 'postQuotes',
  items: [],
  data: null,
  paging: { hasNextPage: false, nextCursor: null, stop: null },
  report: { duplicatesRemoved: 0, dropped: [], notFound: [] },
  meta: { callId, fromCache: false, fetchedAt: 0, httpStatus: 200, credits: 15, durationMs: 1, attempts: 1 },
});

function fakeBridge(
  over: { call?: (i: ApiCallInput) => Promise<unknown>; cancel?: (i: { callId: string }) => Promise<unknown> } = {},
) {
  const calls: ApiCallInput[] = [];
  const cancels: string[] = [];
  const bridge = {
    app: { info: async () => ({ ok: true, data: { name: 'Skein', version: '0', mode: 'demo', platform: 'linux' } }) },
    api: {
      call: async (i: ApiCallInput) => {
        calls.push(i);
        return over.call ? over.call(i) : { ok: true, data: output(i.callId ?? '') };
      },
      cancel: async (i: { callId: string }) => {
        cancels.push(i.callId);
        return over.cancel ? over.cancel(i) : { ok: true, data: { cancelled: true } };
      },
    },
    usage: {
      get: async () => ({ ok: false, error: { code: 'rate-limited', message: 'slow down', details: { retryAt: 5 } } }),
    },
  } as unknown as SkeinBridge;
  return { bridge, calls, cancels };
}

describe('createClient', () => {
  it('unwraps successful envelopes', async () => {
    const { bridge } = fakeBridge();
    await expect(createClient(bridge).app.info()).resolves.toMatchObject({ mode: 'demo' });
  });
  it('throws the error model, code and details intact', async () => {
    const { bridge } = fakeBridge();
    const err = await createClient(bridge)
      .usage.get()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SkeinError);
    expect(err).toMatchObject({ code: 'rate-limited', message: 'slow down', details: { retryAt: 5 } });
  });
  it('reports a function the bridge lacks as an internal error', async () => {
    const { bridge } = fakeBridge();
    await expect(createClient(bridge).cache.clear()).rejects.toMatchObject({ code: 'internal' });
  });
});

describe('callApi', () => {
  it('sends typed params with a call id and drops undefined values', async () => {
    const { bridge, calls } = fakeBridge();
    const callApi = createCallApi(createClient(bridge), () => 'id-1');
    const res = await callApi('postRepliesV2', { tweetId: '9', queryType: 'Latest', cursor: undefined });
    expect(calls).toEqual([
      { operation: 'postRepliesV2', params: { tweetId: '9', queryType: 'Latest' }, callId: 'id-1' },
    ]);
    expect(res.meta.callId).toBe('id-1');
  });
  it('asks main to cancel the call when the signal aborts', async () => {
    let release!: () => void;
    const { bridge, cancels } = fakeBridge({
      call: (i) =>
        new Promise((resolve) => {
          release = () => resolve({ ok: false, error: { code: 'cancelled', message: `cancelled ${i.callId}` } });
        }),
    });
    const callApi = createCallApi(createClient(bridge), () => 'id-2');
    const ctrl = new AbortController();
    const pending = callApi('postQuotes', { tweetId: '1' }, { signal: ctrl.signal });
    ctrl.abort();
    await vi.waitFor(() => expect(cancels).toEqual(['id-2']));
    release();
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
  });
  it('does not call at all when already aborted, and passes fresh through', async () => {
    const { bridge, calls } = fakeBridge();
    const callApi = createCallApi(createClient(bridge), () => 'id-3');
    await expect(callApi('trends', {}, { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'cancelled' });
    expect(calls).toHaveLength(0);
    await callApi('trends', { woeid: 1 }, { fresh: true });
    expect(calls[0]).toMatchObject({ params: { woeid: 1 }, fresh: true });
  });
});
