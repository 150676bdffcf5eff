/** The scale showcases over HTTP, at default size: every page, no duplicate, a clean end. */
import { describe, expect, it } from 'vitest';
import { useSandbox, walk } from './test-utils';

const sandbox = useSandbox({ size: 'default' });

describe('default size over HTTP', () => {
  it('the >= 10,000-reply conversation walks to its end (replies v2)', async () => {
    const c = sandbox();
    const root = c.sandbox.examples.bigThreadPostId;
    const seen = new Set<string>();
    const { pages } = await walk(
      c,
      '/social/tweet/replies/v2',
      { tweetId: root, queryType: 'Latest' },
      {
        onPage: (body) => {
          for (const p of body.tweets as { id: string }[]) {
            expect(seen.has(p.id)).toBe(false);
            seen.add(p.id);
          }
        },
      },
    );
    expect(seen.size).toBeGreaterThanOrEqual(10_001);
    expect(pages.length).toBe(Math.ceil(seen.size / 20));
  }, 60_000);

  it('the >= 2,000-quote post walks to its end', async () => {
    const c = sandbox();
    const { pages } = await walk(c, '/social/tweet/quotes', { tweetId: c.sandbox.examples.muchQuotedPostId });
    const ids = pages.flatMap((p) => (p.tweets as { id: string }[]).map((q) => q.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(2_000);
  }, 60_000);
});
