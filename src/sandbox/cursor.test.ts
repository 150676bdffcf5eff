import { describe, expect, it } from 'vitest';
import { CursorCodec, cursorScope } from './cursor';
import { qs, useSandbox } from './test-utils';

describe('cursor codec', () => {
  const codec = new CursorCodec(1);
  const scope = cursorScope('postQuotes', { tweetId: '1', cursor: 'ignored' });

  it('round-trips and is opaque base64url', () => {
    const c = codec.encode(scope, { offset: 40, hop: 0 });
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(c).not.toContain('40');
    expect(codec.decode(scope, c)).toEqual({ offset: 40, hop: 0 });
  });

  it('refuses any edited byte, another query, another seed, garbage', () => {
    const c = codec.encode(scope, { offset: 40, hop: 0 });
    const bytes = Buffer.from(c, 'base64url');
    for (let i = 0; i < bytes.length; i++) {
      const edited = Buffer.from(bytes);
      edited[i] = (edited[i] as number) ^ 1;
      expect(codec.decode(scope, edited.toString('base64url'))).toBeUndefined();
    }
    expect(codec.decode(cursorScope('postQuotes', { tweetId: '2' }), c)).toBeUndefined();
    expect(codec.decode(cursorScope('postReplies', { tweetId: '1' }), c)).toBeUndefined();
    expect(new CursorCodec(2).decode(scope, c)).toBeUndefined();
    for (const bad of ['', 'x', '!!!!', `${c}A`]) expect(codec.decode(scope, bad)).toBeUndefined();
  });

  it('the scope ignores the cursor and parameter order', () => {
    expect(cursorScope('trends', { count: 3, woeid: 1 })).toBe(
      cursorScope('trends', { woeid: 1, cursor: 'x', count: 3 }),
    );
  });
});

describe('cursors over HTTP', () => {
  const sandbox = useSandbox();

  it('a tampered cursor, or one from another query, is a 422 on cursor', async () => {
    const c = sandbox();
    const ex = c.sandbox.examples;
    const first = await c.get(`/social/tweet/replies${qs({ tweetId: ex.bigThreadPostId })}`);
    const cursor = String(first.json.next_cursor);
    const tampered = cursor.slice(0, -2) + (cursor.endsWith('AA') ? 'AB' : 'AA');
    for (const q of [
      { tweetId: ex.bigThreadPostId, cursor: tampered },
      { tweetId: ex.muchQuotedPostId, cursor },
    ]) {
      const a = await c.get(`/social/tweet/replies${qs(q)}`);
      expect(a.status).toBe(422);
      expect((a.json as { detail: { loc: string[] }[] }).detail[0]?.loc).toEqual(['query', 'cursor']);
    }
    // defaults are part of the query: an explicit default keeps the cursor valid
    const v2 = await c.get(`/social/tweet/replies/v2${qs({ tweetId: ex.bigThreadPostId })}`);
    const next = String(v2.json.next_cursor);
    expect(
      (
        await c.get(
          `/social/tweet/replies/v2${qs({ tweetId: ex.bigThreadPostId, queryType: 'Relevance', cursor: next })}`,
        )
      ).status,
    ).toBe(200);
    expect(
      (await c.get(`/social/tweet/replies/v2${qs({ tweetId: ex.bigThreadPostId, queryType: 'Likes', cursor: next })}`))
        .status,
    ).toBe(422);
  });
});
