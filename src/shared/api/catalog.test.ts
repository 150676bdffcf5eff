import { describe, expect, it } from 'vitest';
import { OPERATIONS, OPERATION_IDS, operation } from './catalog';
import { paramsSchema, querySchema, toQueryString } from './params';
import { creditsFor, DEFAULT_PRICES, isCharged } from './pricing';
import { responseSchema } from './responses';
import { postFixture, userFixture } from './fixtures';

describe('operation catalog', () => {
  it('holds exactly the spec’s 16 operations, numbered and pathed as in its endpoint table', () => {
    const table = OPERATION_IDS.map((id) => [OPERATIONS[id].number, OPERATIONS[id].path]).sort(
      (a, b) => Number(a[0]) - Number(b[0]),
    );
    expect(table).toEqual([
      [1, '/social/tweet/quotes'],
      [2, '/social/tweet/replies/v2'],
      [3, '/social/tweet/replies'],
      [4, '/social/user/mentions'],
      [5, '/social/user/search'],
      [6, '/social/tweets'],
      [7, '/social/community/info'],
      [8, '/social/list/followers'],
      [9, '/social/user/tweet_timeline'],
      [10, '/social/community/members'],
      [11, '/social/spaces/detail'],
      [12, '/social/user/batch_info_by_ids'],
      [13, '/social/trends'],
      [14, '/social/list/tweets_timeline'],
      [15, '/social/community/moderators'],
      [16, '/social/article'],
    ]);
  });

  it('marks exactly operations 10, 15 and 16 as unavailable (501)', () => {
    const unavailable = OPERATION_IDS.filter((id) => !OPERATIONS[id].available).map((id) => OPERATIONS[id].number);
    expect(unavailable.sort((a, b) => a - b)).toEqual([10, 15, 16]);
  });

  it('has the spec’s parameters, required flags and defaults', () => {
    const params = Object.fromEntries(
      OPERATION_IDS.map((id) => [
        id,
        operation(id).params.map(
          (p) => `${p.name}:${p.type}${p.required ? '!' : ''}${p.default !== undefined ? `=${String(p.default)}` : ''}`,
        ),
      ]),
    );
    expect(params).toEqual({
      postQuotes: ['tweetId:string!', 'cursor:string'],
      postRepliesV2: ['tweetId:string!', 'cursor:string', 'queryType:string=Relevance'],
      postReplies: ['tweetId:string!', 'cursor:string'],
      userMentions: ['userName:string!', 'cursor:string'],
      userSearch: ['query:string!', 'cursor:string'],
      postsByIds: ['tweet_ids:idList!'],
      communityInfo: ['community_id:string!'],
      listFollowers: ['list_id:string!', 'cursor:string'],
      userTimeline: ['userId:string!', 'cursor:string', 'includeReplies:boolean=true', 'includeParentTweet:boolean'],
      communityMembers: ['community_id:string!', 'cursor:string'],
      spaceDetail: ['space_id:string!'],
      usersByIds: ['userIds:idList!'],
      trends: ['woeid:integer=1', 'count:integer=30'],
      listTimeline: ['listId:string!', 'cursor:string'],
      communityModerators: ['community_id:string!', 'cursor:string'],
      article: ['tweet_id:string!'],
    });
  });

  it('has the collection key and message key of each operation, and paging only where the spec pages', () => {
    const keys = Object.fromEntries(
      OPERATION_IDS.map((id) => [
        id,
        `${OPERATIONS[id].collectionKey}/${OPERATIONS[id].messageKey}/${OPERATIONS[id].paged ? 'paged' : 'single'}`,
      ]),
    );
    expect(keys).toMatchObject({
      postQuotes: 'tweets/message/paged',
      postRepliesV2: 'tweets/message/paged',
      postReplies: 'replies/message/paged',
      userMentions: 'tweets/message/paged',
      userSearch: 'users/msg/paged',
      postsByIds: 'tweets/message/single',
      communityInfo: 'data/msg/single',
      listFollowers: 'followers/msg/paged',
      userTimeline: 'tweets/message/paged',
      spaceDetail: 'data/msg/single',
      usersByIds: 'users/msg/single',
      trends: 'trends/msg/single',
      listTimeline: 'tweets/message/paged',
    });
  });

  it('applies defaults to raw query strings and explains bad values per field', () => {
    expect(querySchema('trends').parse({})).toEqual({ woeid: 1, count: 30 });
    expect(querySchema('userTimeline').parse({ userId: '5' })).toMatchObject({ includeReplies: true });
    expect(querySchema('postRepliesV2').parse({ tweetId: '1' })).toMatchObject({ queryType: 'Relevance' });
    const missing = querySchema('postQuotes').safeParse({});
    expect(missing.success ? [] : missing.error.issues.map((i) => i.path.join('.'))).toEqual(['tweetId']);
    const badList = querySchema('postsByIds').safeParse({ tweet_ids: '1,,2' });
    expect(badList.success).toBe(false);
    const tooMany = querySchema('usersByIds').safeParse({
      userIds: Array.from({ length: 101 }, (_, i) => i + 1).join(','),
    });
    expect(tooMany.success ? '' : tooMany.error.issues[0]!.message).toMatch(/at most 100/);
    expect(querySchema('trends').safeParse({ count: '500' }).success).toBe(false);
    expect(querySchema('userTimeline').safeParse({ userId: '5', includeReplies: 'yes' }).success).toBe(false);
  });

  it('refuses unknown typed params and serializes known ones in catalog order', () => {
    expect(paramsSchema('postQuotes').safeParse({ tweetId: '1', url: 'http://evil' }).success).toBe(false);
    expect(toQueryString('userTimeline', { includeReplies: false, userId: '7', cursor: '' })).toBe(
      'userId=7&includeReplies=false',
    );
  });

  it('derives a response schema per operation from its keys', () => {
    expect(
      responseSchema('postReplies').safeParse({
        status: 'success',
        message: '',
        replies: [postFixture],
        has_next_page: false,
        next_cursor: '',
      }).success,
    ).toBe(true);
    expect(
      responseSchema('postReplies').safeParse({
        status: 'success',
        message: '',
        tweets: [postFixture],
        has_next_page: false,
        next_cursor: '',
      }).success,
    ).toBe(false);
    expect(responseSchema('usersByIds').safeParse({ status: 'success', msg: '', users: [userFixture] }).success).toBe(
      true,
    );
  });
});

describe('pricing (field-notes defaults)', () => {
  it('charges 15 per post with a 15-credit minimum, also on an empty page', () => {
    expect(creditsFor({ operation: 'postQuotes', httpStatus: 200, items: 20 })).toBe(300);
    expect(creditsFor({ operation: 'postQuotes', httpStatus: 200, items: 0 })).toBe(15);
  });
  it('charges batch user lookups 10 per user at 100 ids or more, else 18', () => {
    expect(creditsFor({ operation: 'usersByIds', httpStatus: 200, items: 100, idsAsked: 100 })).toBe(1000);
    expect(creditsFor({ operation: 'usersByIds', httpStatus: 200, items: 3, idsAsked: 3 })).toBe(54);
  });
  it('charges community info 20, list endpoints 150 per call, and never the 501 operations', () => {
    expect(creditsFor({ operation: 'communityInfo', httpStatus: 200, items: 1 })).toBe(20);
    expect(creditsFor({ operation: 'listFollowers', httpStatus: 200, items: 20 })).toBe(150);
    expect(creditsFor({ operation: 'communityMembers', httpStatus: 501, items: 0 })).toBe(0);
    expect(creditsFor({ operation: 'article', httpStatus: 501, items: 0 })).toBe(0);
  });
  it('does not charge refused calls (no key, no credits, rate limited, no answer)', () => {
    for (const s of [0, 401, 402, 403, 429, 501]) expect(isCharged(s)).toBe(false);
    expect(creditsFor({ operation: 'trends', httpStatus: 422, items: 0 })).toBe(DEFAULT_PRICES.minimumPerCall);
  });
});
