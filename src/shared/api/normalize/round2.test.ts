/** The second round of recorded live shapes (api-field-notes.md, "Round 2"), read by the readers. */
import { describe, expect, it } from 'vitest';
import {
  AUTOMATED_USER,
  BROADCAST_CARD,
  DELETED_POST,
  LINK_CARD,
  POLL4_CARD_LEGACY,
  POLL_CARD,
  RECORDED_TRENDS_LIVE,
  recordedAutomatedPost,
  recordedEmptyNones,
  recordedHugeRange,
  recordedLinkPost,
  recordedMentionNotReply,
  recordedQuoteOfQuoteOfDeleted,
} from '../fixtures/recorded-round2';
import { postFixture, userFixture } from '../fixtures';
import { cardPost, type Post, type User } from '../schemas';
import { readCard } from './card';
import { normalizePage } from './page';
import { readTrendsSnapshot } from './trend';
import { normalizeUser, readAutomation } from './user';

const page = (posts: unknown[]) =>
  normalizePage('userTimeline', {
    code: 0,
    status: 'success',
    msg: 'success',
    data: { tweets: posts, pin_tweet: null },
    has_next_page: false,
    next_cursor: '',
  });
const one = (post: unknown) => {
  const p = page([post]);
  expect(p.dropped).toEqual([]);
  return p.items[0] as Post & Record<string, unknown>;
};

describe('a deleted post nested in quotes', () => {
  it('keeps the post that quotes a post that quotes a deleted post; the deleted one is unavailable', () => {
    const p = page([postFixture, recordedQuoteOfQuoteOfDeleted, { ...postFixture, id: '1800000000000000077' }]);
    expect(p.dropped).toEqual([]);
    expect(p.items).toHaveLength(3);
    const outer = p.items[1] as Post;
    const middle = outer.quoted_tweet as Post;
    expect(middle.id).toBe('1934000000000000002');
    expect(middle.text).toContain('before it went away');
    expect(middle.quoted_tweet).toEqual({
      type: 'unavailable',
      id: '1933990000000000077',
      text: null,
      userName: null,
      reason: 'empty',
    });
    // the raw item, for export, is whole: the deleted post's empty strings included
    expect(p.rawItems[1]).toBe(recordedQuoteOfQuoteOfDeleted);
    // what the bridge sends keeps the stand-in
    const card = cardPost(outer);
    expect((card.quoted_tweet as { quoted_tweet: unknown }).quoted_tweet).toMatchObject({ type: 'unavailable' });
  });

  it('a deleted post quoted directly is unavailable; one quoted with its id kept reads as a post with what it has', () => {
    expect(one({ ...postFixture, quoted_tweet: DELETED_POST }).quoted_tweet).toMatchObject({
      type: 'unavailable',
      id: '1933990000000000077',
      reason: 'empty',
    });
    // the earlier recordings' shape: not even the id
    expect(one({ ...postFixture, quoted_tweet: { ...DELETED_POST, id: '', source: '' } }).quoted_tweet).toEqual({
      type: 'unavailable',
      id: null,
      text: null,
      userName: null,
      reason: 'empty',
    });
    // an id with a date, or with an author, is a post with what it has
    for (const has of [{ createdAt: 'Tue Dec 10 07:00:30 +0000 2024' }, { author: { id: '12', userName: 'someone' } }])
      expect(one({ ...postFixture, quoted_tweet: { ...DELETED_POST, ...has } }).quoted_tweet).toMatchObject({
        id: '1933990000000000077',
      });
    const partial = one({ ...postFixture, quoted_tweet: { ...DELETED_POST, id: '1800000000000000055', text: 'kept' } });
    expect(partial.quoted_tweet).toMatchObject({
      id: '1800000000000000055',
      text: 'kept',
      author: null,
      createdAt: '',
    });
  });

  it('a display range past 2^53 reads as none: the post is kept and shown whole', () => {
    const p = one(recordedHugeRange);
    expect(p.displayTextRange).toBeNull();
    for (const range of [[-1, 4], [5, 2], [0, 1.5], [0], 'x'])
      expect(one({ ...postFixture, displayTextRange: range }).displayTextRange).toBeNull();
  });

  it('counters past 2^53 or unreadable are unknown (null), never 0 and never a rounded number', () => {
    const p = one({ ...postFixture, likeCount: 2 ** 53 + 2, retweetCount: '99999999999999999999', replyCount: '' });
    expect([p.likeCount, p.retweetCount, p.replyCount]).toEqual([null, null, null]);
    expect(one({ ...postFixture, inReplyToId: 1.9e18 }).inReplyToId).toBeNull();
  });
});

describe('cards', () => {
  it('a poll: choices in order, counts as numbers, the end time, final', () => {
    expect(readCard(POLL_CARD)).toEqual({
      kind: 'poll',
      name: 'poll2choice_text_only',
      url: 'card://1934000000000000777',
      choices: [
        { label: 'Open data by default', count: 5678 },
        { label: 'Only on request', count: 1234 },
      ],
      endsAt: Date.UTC(2025, 9, 8, 9, 30),
      final: true,
      durationMinutes: 1440,
    });
  });

  it('a four-choice poll fetched by id, its pairs under card.legacy', () => {
    const poll = readCard(POLL4_CARD_LEGACY);
    expect(poll).toMatchObject({ kind: 'poll', name: 'poll4choice_text_only', final: false });
    expect(poll?.kind === 'poll' && poll.choices.map((c) => c.count)).toEqual([10, 0, 31, 7]);
  });

  it('a link preview: the expanded link from the post’s entities, title, domain, the large image', () => {
    expect(readCard(LINK_CARD, (recordedLinkPost.entities as { urls: unknown }).urls)).toEqual({
      kind: 'link',
      name: 'summary_large_image',
      url: 'https://www.example.org/harbour-data',
      title: 'Harbour data released in full',
      description: 'Ten years of readings, now open to everyone.',
      domain: 'www.example.org',
      image: { url: 'https://pbs.example/card_img/story_800.jpg', width: 800, height: 419, alt: null },
    });
    // without the entities, the card's own t.co link
    expect(readCard(LINK_CARD)).toMatchObject({ url: 'https://t.co/story' });
  });

  it('a live broadcast: a link with its title and state', () => {
    expect(readCard(BROADCAST_CARD)).toMatchObject({
      kind: 'broadcast',
      url: 'https://x.com/i/broadcasts/1ZkJzjKabcdEF',
      title: 'Harbour live: the storm comes in',
      state: 'LIVE',
      broadcaster: 'examplenews',
    });
  });

  it('the card crosses the bridge read, and the raw card stays in main', () => {
    const card = cardPost(one(recordedLinkPost));
    expect(card.card).toMatchObject({ kind: 'link', domain: 'www.example.org' });
    expect(JSON.stringify(card)).not.toContain('user_refs_results');
  });

  it.each([
    ['null', null],
    ['""', ''],
    ['{}', {}],
    ['a number', 5],
    ['an array', []],
    ['binding_values a string', { name: 'summary', binding_values: 'x' }],
    ['entries without keys', { binding_values: [{ key: 1 }, null, { key: 'title' }] }],
  ])('%s is no card, or a card with nothing unsafe in it', (_what, raw) => {
    const card = readCard(raw);
    if (card) expect(card.kind).toBe('link');
  });

  it('hostile values: markup stays text, counts that are not counts are unknown, other schemes are no link', () => {
    const poll = readCard({
      name: 'poll2choice_text_only',
      url: 'javascript:alert(1)',
      binding_values: [
        { key: 'choice1_label', value: { string_value: '<img src=x onerror=alert(1)>' } },
        { key: 'choice1_count', value: { string_value: '1e99' } },
        { key: 'choice2_label', value: { string_value: 'B' } },
        { key: 'choice2_count', value: { string_value: '-4' } },
        { key: 'end_datetime_utc', value: { string_value: '1970-01-01T00:00:00Z' } },
      ],
    });
    expect(poll).toMatchObject({
      choices: [
        { label: '<img src=x onerror=alert(1)>', count: null },
        { label: 'B', count: null },
      ],
      endsAt: null,
    });
    const link = readCard({
      name: 'summary_large_image',
      url: 'javascript:alert(1)',
      binding_values: [{ key: 'thumbnail_image_large', value: { image_value: { url: 'data:image/png,x' } } }],
    });
    expect(link).toMatchObject({ kind: 'link', url: null, image: null });
  });
});

describe('automated accounts', () => {
  it('isAutomated, automatedBy and the AutomatedLabel read as one flag and the operator’s handle', () => {
    const u = normalizeUser(AUTOMATED_USER) as User;
    expect([u.isAutomated, u.automatedBy]).toEqual([true, 'harbourlab']);
    const labelOnly = { ...AUTOMATED_USER, isAutomated: false, automatedBy: null };
    expect(readAutomation(labelOnly)).toEqual({ isAutomated: true, automatedBy: 'harbourlab' });
    expect(readAutomation({ ...userFixture, isAutomated: false, automatedBy: '' })).toEqual({
      isAutomated: false,
      automatedBy: null,
    });
    expect(readAutomation({ isAutomated: true, automatedBy: '@ops team <b>' })).toEqual({
      isAutomated: true,
      automatedBy: null,
    });
  });

  it('the post card’s author carries it across the bridge', () => {
    const card = cardPost(one(recordedAutomatedPost));
    expect(card.author).toMatchObject({ userName: 'weatherbot', isAutomated: true, automatedBy: 'harbourlab' });
    expect(card.card).toBeNull();
  });
});

describe('reply or not, and "" for none', () => {
  it('a post that starts with @mentions is not a reply, and keeps inReplyToUserId/-Username', () => {
    const p = one(recordedMentionNotReply);
    expect(p.isReply).toBe(false);
    expect(p.inReplyToId).toBeNull();
    expect([p.inReplyToUserId, p.inReplyToUsername]).toEqual(['9999999999999999999', 'harbourlab']);
    // a post that answers another is a reply whatever isReply says
    expect(one({ ...postFixture, isReply: false, inReplyToId: '1800000000000000000' }).isReply).toBe(true);
  });

  it('"" where a date, an id, a name or a post is expected reads as none', () => {
    const p = one(recordedEmptyNones);
    expect(p.createdAt).toBe('');
    expect([p.inReplyToId, p.conversationId, p.inReplyToUserId]).toEqual([null, null, null]);
    expect(p.quoted_tweet).toBeNull();
    expect(p.retweeted_tweet).toBeNull();
    expect(p.author).toMatchObject({ name: '', location: null, automatedBy: null });
    expect(cardPost(p).card).toBeNull();
  });
});

describe('trends’ own time and place', () => {
  it('reads metadata: as of, refresh interval, place', () => {
    const p = normalizePage('trends', RECORDED_TRENDS_LIVE);
    expect(p.items).toHaveLength(2);
    expect(p.snapshot).toEqual({
      asOf: Date.UTC(2025, 9, 7, 0, 40),
      refreshIntervalMs: 300_000,
      place: { name: 'Worldwide', woeid: 1 },
    });
  });

  it('a timestamp of 0 (or none) is no time, never 1 January 1970; seconds read as seconds', () => {
    expect(readTrendsSnapshot({ metadata: { timestamp: 0, refresh_interval_millis: 300_000 } })).toBeNull();
    expect(readTrendsSnapshot({ metadata: { timestamp: 0, woeid: { name: 'Paris', id: 615702 } } })).toEqual({
      asOf: null,
      refreshIntervalMs: null,
      place: { name: 'Paris', woeid: 615702 },
    });
    expect(readTrendsSnapshot({ metadata: { timestamp: 1_759_797_600 } })?.asOf).toBe(1_759_797_600_000);
    for (const body of [null, {}, { metadata: '' }, { metadata: { woeid: '' } }])
      expect(readTrendsSnapshot(body)).toBeNull();
  });
});
