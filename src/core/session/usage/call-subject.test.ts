import { describe, expect, it } from 'vitest';
import { callSubject, PageNumbers } from './call-subject';

const key = (o: Record<string, unknown>) =>
  JSON.stringify(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  );

describe('what a recent call was about', () => {
  it('names the post, user, list or query, and the page', () => {
    expect(callSubject('postRepliesV2', key({ tweetId: '2004533571666101375', queryType: 'Latest' }), 3)).toBe(
      'post 2004533571666101375 · page 3',
    );
    expect(callSubject('userMentions', key({ userName: 'ada' }), 1)).toBe('@ada · page 1');
    expect(callSubject('listTimeline', key({ listId: '99' }), 2)).toBe('list 99 · page 2');
    expect(callSubject('postsByIds', key({ tweet_ids: '1,2,3' }), null)).toBe('3 post ids');
    expect(callSubject('spaceDetail', key({ space_id: '1YqKDqWqdPLxV' }), null)).toBe('space 1YqKDqWqdPLxV');
    expect(callSubject('userSearch', key({ query: 'a'.repeat(50) }), 1)).toBe(`“${'a'.repeat(40)}…” · page 1`);
    expect(callSubject('trends', 'not json', null)).toBe('');
  });
  it('numbers pages in the order they were asked for', () => {
    const pages = new PageNumbers();
    expect(pages.of('postQuotes', 'k', null)).toBe(1);
    expect(pages.of('postQuotes', 'k', 'c1')).toBe(2);
    expect(pages.of('postQuotes', 'k', 'c2')).toBe(3);
    expect(pages.of('postQuotes', 'k', 'c1')).toBe(2);
    expect(pages.of('postQuotes', 'other', 'c9')).toBe(2);
  });
});
