/** The second round of recorded live shapes and error bodies, as the sandbox answers them on request (raw). */
import { describe, expect, it } from 'vitest';
import { RECORDED_403_BODY, RECORDED_429_BODY } from '../shared/api/fixtures/recorded-round2';
import { qs, useSandbox } from './test-utils';

const sandbox = useSandbox();
const quirk = (spec: string): Record<string, string> => ({ 'x-sandbox-fault': spec });
type Body = Record<string, unknown>;

async function timeline(spec: string): Promise<Body[]> {
  const c = sandbox();
  const a = await c.get(`/social/user/tweet_timeline${qs({ userId: c.sandbox.examples.profile.id })}`, quirk(spec));
  return a.json.tweets as Body[];
}

describe('round-2 quirks', () => {
  it('deleted-quotes: a quote of a quote of an object of empty strings but its id; a range past 2^53', async () => {
    const posts = await timeline('deleted-quotes');
    const inner = (posts[1]!.quoted_tweet as Body).quoted_tweet as Body;
    expect(inner).toMatchObject({ createdAt: '', text: '', author: {}, displayTextRange: [] });
    expect(inner.id).toMatch(/^\d+$/);
    expect(posts[3]!.quoted_tweet).toMatchObject({ id: inner.id, author: {} });
    expect((posts[2]!.displayTextRange as number[])[1]).toBeGreaterThan(2 ** 53);
  });

  it('cards: the key/value array, under card.legacy too, with the sandbox’s own pictures', async () => {
    const posts = await timeline('cards');
    expect(posts[0]!.card).toMatchObject({ name: 'poll2choice_text_only', url: expect.stringMatching(/^card:\/\//) });
    expect((posts[5]!.card as Body).legacy).toMatchObject({ name: 'poll4choice_text_only' });
    expect(posts[1]!.card).toMatchObject({ name: 'summary_large_image' });
    expect(JSON.stringify(posts[1]!.card)).toMatch(/"url":"http:\/\/127\.0\.0\.1:\d+\/media\/img-\d+\.png"/);
    expect(posts[2]!.card).toMatchObject({ name: expect.stringMatching(/^\d+:broadcast$/) });
    expect(posts[3]!.card).toBeNull();
  });

  it('automated: isAutomated, automatedBy and the AutomatedLabel on every third author', async () => {
    const posts = await timeline('automated');
    expect(posts[0]!.author).toMatchObject({
      isAutomated: true,
      automatedBy: expect.any(String),
      affiliatesHighlightedLabel: { label: { user_label_type: 'AutomatedLabel', description: 'Automated' } },
    });
    expect((posts[1]!.author as Body).isAutomated).not.toBe(true);
  });

  it('trends-live: wrapped trends, raw queries, and metadata with time, interval and place', async () => {
    const a = await sandbox().get(`/social/trends${qs({ woeid: 1, count: 3 })}`, quirk('trends-live'));
    expect(a.json).toMatchObject({
      msg: 'success',
      trends: [{ trend: { name: expect.any(String), target: { query: expect.any(String) }, rank: 1 } }, {}, {}],
      metadata: { refresh_interval_millis: 300_000, woeid: { name: 'Worldwide', id: 1 }, context_mode: 'full' },
    });
  });

  it('the live 429 and 403 bodies, and a relay that delivers them inside a 200', async () => {
    const c = sandbox();
    const path = `/social/trends${qs({ count: 2 })}`;
    expect(await c.get(path, quirk('429-free-tier'))).toMatchObject({ status: 429, json: RECORDED_429_BODY });
    expect(await c.get(path, quirk('403-key-required'))).toMatchObject({ status: 403, json: RECORDED_403_BODY });
    expect(await c.get(path, quirk('403-key-required;relay'))).toMatchObject({ status: 200, json: RECORDED_403_BODY });
  });
});
