import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { SkeinError } from '../../shared/errors';
import { fn } from '../../shared/ipc';
import { createContractDispatcher, guarded, isTrustedFrame, type FrameLike } from './dispatch';

const shape = {
  posts: {
    find: fn(
      z.object({
        id: z.string().regex(/^\d+$/, 'must be a numeric id'),
        page: z.object({ size: z.number().int().max(50) }),
      }),
      z.object({ id: z.string() }),
    ),
    count: fn(z.undefined(), z.number().int()),
  },
};

const ctx = { senderId: 1 };

function dispatcher(
  find: (input: { id: string }) => unknown,
  count: () => unknown = () => 3,
  onInternalError = vi.fn(),
) {
  return {
    onInternalError,
    d: createContractDispatcher(shape, { posts: { find: find as never, count: count as never } }, { onInternalError }),
  };
}

describe('createDispatcher', () => {
  it('lists one channel per contract function', () => {
    expect(dispatcher(() => ({ id: '1' })).d.channels).toEqual(['skein:posts.find', 'skein:posts.count']);
  });

  it('returns the handler result in an ok envelope', async () => {
    const { d } = dispatcher((input) => ({ id: input.id }));
    expect(await d.dispatch('skein:posts.find', { id: '42', page: { size: 20 } }, ctx)).toEqual({
      ok: true,
      data: { id: '42' },
    });
    expect(await d.dispatch('skein:posts.count', undefined, ctx)).toEqual({ ok: true, data: 3 });
  });

  it('rejects malformed input with readable field paths, without calling the handler', async () => {
    const find = vi.fn();
    const { d } = dispatcher(find);
    const res = await d.dispatch('skein:posts.find', { id: 'abc', page: { size: 500 } }, ctx);
    expect(find).not.toHaveBeenCalled();
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.error.code).toBe('bad-input');
    expect(res.error.details?.fields).toEqual([
      { field: 'id', message: 'must be a numeric id' },
      { field: 'page.size', message: expect.stringContaining('50') },
    ]);
    expect(res.error.message).toContain('page.size');
  });

  it('refuses input that is not an object at all', async () => {
    const { d } = dispatcher(() => ({ id: '1' }));
    const res = await d.dispatch('skein:posts.find', 'DROP TABLE', ctx);
    expect(res).toMatchObject({ ok: false, error: { code: 'bad-input' } });
  });

  it('keeps a thrown SkeinError as it is', async () => {
    const { d } = dispatcher(() => {
      throw new SkeinError('rate-limited', 'Rate limited until 14:02:10', { retryAt: 1000 });
    });
    expect(await d.dispatch('skein:posts.find', { id: '1', page: { size: 1 } }, ctx)).toEqual({
      ok: false,
      error: { code: 'rate-limited', message: 'Rate limited until 14:02:10', details: { retryAt: 1000 } },
    });
  });

  it('turns an unexpected failure into a generic internal error that leaks nothing', async () => {
    const { d, onInternalError } = dispatcher(() => {
      throw new Error('ENOENT /home/me/.config/skein/key=sk-live-SECRET');
    });
    const res = await d.dispatch('skein:posts.find', { id: '1', page: { size: 1 } }, ctx);
    expect(res).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(res)).not.toMatch(/SECRET|ENOENT|at /);
    expect(onInternalError).toHaveBeenCalledOnce();
  });

  it('refuses a result outside the output schema as an internal error', async () => {
    const { d } = dispatcher(() => ({ id: 7 }));
    expect(await d.dispatch('skein:posts.find', { id: '1', page: { size: 1 } }, ctx)).toMatchObject({
      ok: false,
      error: { code: 'internal' },
    });
  });

  it('checks the output without copying it when it is valid as it is, and lets zod strip what it cannot prove', async () => {
    const result = { id: '7' };
    const { d } = dispatcher(() => result);
    const ok = await d.dispatch('skein:posts.find', { id: '7', page: { size: 1 } }, ctx);
    expect(ok).toEqual({ ok: true, data: { id: '7' } });
    // a key outside the (stripping) output schema: zod's output, without it, as before
    const { d: extra } = dispatcher(() => ({ id: '7', secret: 'not in the contract' }));
    expect(await extra.dispatch('skein:posts.find', { id: '7', page: { size: 1 } }, ctx)).toEqual({
      ok: true,
      data: { id: '7' },
    });
  });

  it('keeps validating the real api.call output: an envelope outside the contract is an internal error', async () => {
    const { createDispatcher } = await import('./dispatch');
    const { ApiCallOutput } = await import('../../shared/ipc/api');
    const good = {
      operation: 'postReplies',
      items: [{ any: 'item' }],
      data: null,
      paging: { hasNextPage: false, nextCursor: null, stop: null },
      report: {
        duplicatesRemoved: 0,
        dropped: [{ index: 1, path: 'tweets[1].id', message: 'a numeric id' }],
        notFound: [],
      },
      meta: { callId: 'c', fromCache: false, fetchedAt: 1, httpStatus: 200, credits: 1, durationMs: 2, attempts: 1 },
    };
    expect(ApiCallOutput.safeParse(good).success).toBe(true);
    const onInternalError = vi.fn();
    let answer: unknown = good;
    const handlers = new Proxy({}, { get: () => new Proxy({}, { get: () => () => answer }) });
    const d = createDispatcher(handlers as never, { onInternalError });
    const call = (input: unknown) => d.dispatch('skein:api.call', input, ctx);
    const input = { operation: 'postReplies', params: { tweetId: '1' } };
    expect(await call(input)).toEqual({ ok: true, data: good });
    for (const bad of [
      { ...good, paging: { ...good.paging, nextCursor: 3 } },
      { ...good, report: { ...good.report, duplicatesRemoved: 0.5 } },
      { ...good, operation: 'nope' },
      { ...good, meta: { ...good.meta, callId: undefined } },
      { ...good, items: 'not a list' },
    ]) {
      answer = bad;
      expect(await call(input)).toMatchObject({ ok: false, error: { code: 'internal' } });
    }
    expect(onInternalError).toHaveBeenCalledTimes(5);
    // and the untrusted input is still parsed strictly by zod
    answer = good;
    expect(await call({ ...input, params: { tweetId: { $gt: '' } } })).toMatchObject({
      ok: false,
      error: { code: 'bad-input' },
    });
    expect(await call({ ...input, callId: 'x'.repeat(101) })).toMatchObject({
      ok: false,
      error: { code: 'bad-input' },
    });
  });

  it('answers an unknown channel with bad-input', async () => {
    const { d } = dispatcher(() => ({ id: '1' }));
    expect(await d.dispatch('skein:posts.delete', {}, ctx)).toMatchObject({ ok: false, error: { code: 'bad-input' } });
  });

  it('refuses to build when a handler is missing', () => {
    expect(() => createContractDispatcher(shape, { posts: { count: () => 1 } } as never)).toThrow(/skein:posts.find/);
  });
});

describe('sender check', () => {
  const app = ['skein://app/'];
  const top = (url: string): FrameLike => ({ url, parent: null });

  it('trusts only the top frame of the app origin', () => {
    expect(isTrustedFrame(top('skein://app/index.html#/post/1'), app)).toBe(true);
    expect(isTrustedFrame(top('skein://evil/index.html'), app)).toBe(false);
    expect(isTrustedFrame(top('https://example.com/'), app)).toBe(false);
    expect(isTrustedFrame(top('file:///tmp/index.html'), app)).toBe(false);
    expect(isTrustedFrame({ url: 'skein://app/frame.html', parent: top('skein://app/index.html') }, app)).toBe(false);
    expect(isTrustedFrame(null, app)).toBe(false);
    expect(isTrustedFrame(top('not a url'), app)).toBe(false);
  });

  it('compares ports of http origins', () => {
    expect(isTrustedFrame(top('http://127.0.0.1:5173/'), ['http://127.0.0.1:5173'])).toBe(true);
    expect(isTrustedFrame(top('http://127.0.0.1:5174/'), ['http://127.0.0.1:5173'])).toBe(false);
  });

  it('handle() answers an untrusted sender with forbidden and never runs the handler', async () => {
    const find = vi.fn(() => ({ id: '1' }));
    const { d } = dispatcher(find);
    const handle = guarded(d, (f) => isTrustedFrame(f, app));
    const res = await handle('skein:posts.find', top('https://evil.example/'), { id: '1', page: { size: 1 } }, ctx);
    expect(res).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(find).not.toHaveBeenCalled();
    const ok = await handle('skein:posts.find', top('skein://app/index.html'), { id: '1', page: { size: 1 } }, ctx);
    expect(ok).toEqual({ ok: true, data: { id: '1' } });
  });

  it('handle() rejects a malformed input from a trusted sender', async () => {
    const { d } = dispatcher(() => ({ id: '1' }));
    const handle = guarded(d, (f) => isTrustedFrame(f, app));
    const res = await handle('skein:posts.find', top('skein://app/'), { id: 1 }, ctx);
    expect(res).toMatchObject({ ok: false, error: { code: 'bad-input' } });
  });
});
