/** CSV rows of recorded live bodies (api-field-notes.md): retweets, long text, bios, community and space shapes. */
import { describe, expect, it } from 'vitest';
import {
  documentedSpace,
  recordedCommunityInfo,
  recordedLongPost,
  recordedOriginal,
  recordedRetweet,
  recordedUser,
} from '../../../shared/api/fixtures/recorded';
import { TABLES } from './rows';

const context = { params: { space_id: '1YqGoabcdefGH' }, index: 0 };
const row = (kind: keyof typeof TABLES, raw: unknown) => TABLES[kind][0]!.rows(raw, null, context)[0]!;

describe('CSV of recorded bodies', () => {
  it('gives a retweet the original id, author id and handle, and its full text; text stays the raw wrapper text', () => {
    const r = row('post', recordedRetweet);
    expect(r).toMatchObject({
      id: '="1900000000000000004"',
      text: recordedRetweet.text,
      retweeted_tweet_id: '="1900000000000000003"',
      retweeted_tweet_author_id: '="1111111111111111111"',
      retweeted_tweet_author_userName: 'orig',
      full_text: recordedOriginal.text,
      viewCount: '0',
    });
    expect(TABLES.post[0]!.idColumns).toContain('retweeted_tweet_author_id');
  });

  it('writes the whole text of a long post, in text and full_text', () => {
    const r = row('post', recordedLongPost);
    expect(r.text).toBe(recordedLongPost.text);
    expect(r.full_text).toBe(recordedLongPost.text);
    expect(r.retweeted_tweet_author_id).toBe('');
  });

  it('takes a user bio from profile_bio when description is empty', () => {
    expect(row('user', recordedUser('1', 'someone', { bioOnlyInProfile: true })).description).toBe(
      'Researcher @someone: notes on networks',
    );
  });

  it('reads the live community_info and the documented space', () => {
    expect(row('community', recordedCommunityInfo)).toMatchObject({
      id: '="1500000000000000001"',
      name: 'Archive Researchers',
      member_count: 4321,
      rules: 'Cite your sources | Be kind',
    });
    expect(row('space', documentedSpace('Live'))).toMatchObject({
      title: 'Reading the record, live',
      state: 'Running',
      creator_screen_name: 'orig',
      total_participated: 340,
    });
  });
});
