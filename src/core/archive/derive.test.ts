import { describe, expect, it } from 'vitest';
import { postFixture, quotingPostFixture } from '../../shared/api/fixtures';
import { normalizePost } from '../../shared/api/normalize/post';
import { FLAG, derive, deriveListItem } from './derive';

const { entities: _entities, ...bare } = postFixture;
/** live-service spellings and hostile values (api-field-notes.md) */
const variants: Record<string, unknown> = {
  spec: postFixture,
  quoting: quotingPostFixture,
  'id_str, full_text, counters as strings': {
    ...bare,
    id: undefined,
    id_str: ' 42 ',
    text: undefined,
    full_text: 'from full_text',
    likeCount: '7',
    retweetCount: 2.9,
    replyCount: 'many',
  },
  'a reply known only by inReplyToId': { ...bare, isReply: undefined, inReplyToId: '9' },
  'isReply as a string': { ...bare, isReply: 'true' },
  'an author spelled screen_name': { ...bare, author: { screen_name: 'grace', name: 7 } },
  'no author, no lang, no date': { ...bare, author: null, lang: undefined, createdAt: 'not a date' },
  'media only in extendedEntities': { ...bare, extendedEntities: { media: [{ media_url_https: 'https://x/1.jpg' }] } },
  'a retweet': { ...bare, id: '77', text: 'RT', retweeted_tweet: { ...postFixture, text: 'the original words' } },
  'a retweet of something unreadable': { ...bare, retweeted_tweet: { text: 5 } },
  'no id': { ...bare, id: '' },
};

describe('what the archive filters on', () => {
  it.each(Object.entries(variants))('reads %s as the client reader does', (_name, raw) => {
    expect(deriveListItem('post', raw)).toEqual(derive('post', normalizePost(raw)));
  });

  it('flags media, replies, quotes and retweets, and searches a retweet by its original', () => {
    const flags = (raw: unknown) => deriveListItem('post', raw)?.flags;
    expect(flags(postFixture)).toBe(FLAG.media);
    expect(flags(bare)).toBe(0);
    expect(flags(variants['media only in extendedEntities'])).toBe(FLAG.media);
    expect(flags(variants['a reply known only by inReplyToId'])).toBe(FLAG.reply);
    expect(flags(quotingPostFixture)).toBe(FLAG.quote);
    const retweet = deriveListItem('post', variants['a retweet']);
    expect(retweet?.flags).toBe(FLAG.retweet | FLAG.media);
    expect(retweet?.fts.text).toBe('RT\nthe original words');
    expect(deriveListItem('post', variants['id_str, full_text, counters as strings'])).toMatchObject({
      id: '42',
      engagement: 7 + 2 + postFixture.quoteCount,
      fts: { text: 'from full_text' },
    });
    expect(deriveListItem('post', variants['no id'])).toBeNull();
  });
});
