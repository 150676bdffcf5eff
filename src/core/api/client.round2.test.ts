/**
 * The second round of recorded live shapes (api-field-notes.md, "Round 2", bodies the live service really
 * sent), as the sandbox's quirks produce them, read through the real client: nothing dropped, the raw
 * items kept whole, each shape read into what the views show; the live 429 and 403 bodies as errors in the
 * service's words.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cardPost, isUnavailable, type Post, type User } from '../../shared/api';
import { RECORDED_403_BODY, RECORDED_429_BODY } from '../../shared/api/fixtures/recorded-round2';
import { sandboxHarness, type Harness } from '../testing/sandbox-harness';
import type { FetchPageInput } from './types';

let h: Harness;
let keyed: Harness;
beforeAll(async () => {
  h = await sandboxHarness();
  keyed = await sandboxHarness({ key: 'a-key-sent' });
});
afterAll(async () => {
  await h.close();
  await keyed.close();
});
beforeEach(() => {
  h.fault(undefined);
  h.client.clearStore();
});

type Input = Pick<FetchPageInput, 'operation' | 'params'>;
const timeline = (): Input => ({ operation: 'userTimeline', params: { userId: h.sandbox.examples.profile.id } });

async function get(input: Input, fault: string, on: Harness = h) {
  on.fault(fault);
  on.client.clearStore();
  try {
    return await on.client.fetchPage({ ...input, fresh: true });
  } finally {
    on.fault(undefined);
  }
}

describe('round-2 shapes through the client', () => {
  it('deleted-quotes: every post kept; the deleted ones unavailable, the range past 2^53 none', async () => {
    const page = await get(timeline(), 'deleted-quotes, page-size;n=40');
    expect(page.result.report.dropped).toEqual([]);
    const posts = page.result.items as Post[];
    expect(posts).toHaveLength(40);
    const nested = posts.filter(
      (p) => p.quoted_tweet && !isUnavailable(p.quoted_tweet) && isUnavailable(p.quoted_tweet.quoted_tweet),
    );
    const direct = posts.filter((p) => isUnavailable(p.quoted_tweet));
    expect(nested.length).toBeGreaterThan(10);
    expect(direct.length).toBeGreaterThan(5);
    expect(posts.filter((p, i) => i % 4 === 2).every((p) => p.displayTextRange === null)).toBe(true);
    // the raw items are what was sent, the deleted post's empty strings included
    const raw = page.raw.items[1] as { quoted_tweet: { quoted_tweet: { createdAt: string; author: object } } };
    expect(raw.quoted_tweet.quoted_tweet).toMatchObject({ createdAt: '', author: {} });
  });

  it('cards: polls, link previews and broadcasts, read for the card and kept raw', async () => {
    const page = await get(timeline(), 'cards, page-size;n=20');
    expect(page.result.report.dropped).toEqual([]);
    const cards = (page.result.items as Post[]).map((p) => cardPost(p).card);
    expect(cards.filter((c) => c?.kind === 'poll')).toHaveLength(4);
    expect(cards.filter((c) => c?.kind === 'link')).toHaveLength(4);
    expect(cards.filter((c) => c?.kind === 'broadcast')).toHaveLength(4);
    const link = cards.find((c) => c?.kind === 'link');
    expect(link).toMatchObject({
      url: 'https://www.example.org/harbour-data',
      image: { url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/media\/img-\d+\.png$/) },
    });
    expect(JSON.stringify(page.raw.items[0])).toContain('"binding_values"');
  });

  it('automated: post authors and users flagged with their operator', async () => {
    const page = await get(timeline(), 'automated, page-size;n=6');
    const authors = (page.result.items as Post[]).map((p) => p.author);
    expect(authors.filter((a) => a?.isAutomated)).toHaveLength(2);
    expect(authors[0]).toMatchObject({ isAutomated: true, automatedBy: expect.stringMatching(/^\w+$/) });
    const users = await get(
      { operation: 'usersByIds', params: { userIds: h.sandbox.examples.profile.id } },
      'automated',
    );
    expect((users.result.items[0] as User).automatedBy).toBe('harbourlab');
  });

  it('mentions-not-replies: posts that start with @mentions are not replies, and keep the extra fields', async () => {
    const page = await get(timeline(), 'mentions-not-replies, page-size;n=30');
    const raws = page.raw.items as Array<Record<string, unknown>>;
    const posts = page.result.items as Array<Post & Record<string, unknown>>;
    const shaped = posts.filter((_, i) => typeof raws[i]!.inReplyToUsername === 'string' && raws[i]!.isReply === false);
    expect(shaped.length).toBeGreaterThan(3);
    for (const p of shaped) {
      expect(p.isReply).toBe(false);
      expect(p.text).toMatch(/^@\w+ @\w+ /);
      expect(p.inReplyToUserId).toMatch(/^\d+$/);
    }
  });

  it('empty-nones: "" for none never drops a post nor reads as a value', async () => {
    const page = await get(timeline(), 'empty-nones, page-size;n=20');
    expect(page.result.report.dropped).toEqual([]);
    const posts = page.result.items as Post[];
    expect(posts.every((p) => p.quoted_tweet === null || typeof p.quoted_tweet === 'object')).toBe(true);
    expect(posts.filter((p) => p.createdAt === '')).toHaveLength(5);
    expect(posts.every((p) => p.inReplyToId === null || /^\d+$/.test(p.inReplyToId))).toBe(true);
  });

  it('trends-live: the answer’s own time (on a 5-minute step) and place', async () => {
    const page = await get({ operation: 'trends', params: { woeid: 1, count: 10 } }, 'trends-live');
    expect(page.result.items).toHaveLength(10);
    expect(page.result.snapshot).toMatchObject({ refreshIntervalMs: 300_000, place: { name: 'Worldwide', woeid: 1 } });
    expect(page.result.snapshot!.asOf! % 300_000).toBe(0);
  });
});

describe('the live error bodies through the client', () => {
  it('429 free tier: the service’s words and what to do, after waiting the pace they name', async () => {
    const e = await get(timeline(), '429-free-tier').catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'rate-limited', details: { serviceMessage: RECORDED_429_BODY.message } });
    expect((e as Error).message).toContain(RECORDED_429_BODY.message);
  });

  it('403 "API key required" without a key: the key is missing, not asked again', async () => {
    const e = await get(timeline(), '403-key-required').catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'unauthorized', message: expect.stringContaining('No API key is set') });
  });

  it('403 "API key required" with a key sent, also inside a 200: asked once more, then the key', async () => {
    for (const fault of ['403-key-required', '403-key-required;relay']) {
      const before = (await keyed.requests()).length;
      const e = await get(timeline(), fault, keyed).catch((x: unknown) => x);
      expect(e).toMatchObject({
        code: 'unauthorized',
        details: { keySent: true, serviceMessage: RECORDED_403_BODY.message },
      });
      expect((await keyed.requests()).length - before).toBe(2);
    }
  });
});
