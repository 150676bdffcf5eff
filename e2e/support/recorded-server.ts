/**
 * A small server answering every operation with hand-written bodies shaped exactly like the
 * third-party recordings of the live service (api-field-notes.md, "Confirmed on real recorded
 * bodies"; the bodies are `src/shared/api/fixtures/recorded.ts`): the live envelopes, long posts,
 * retweet wrappers, users with their bio only in `profile_bio`, `community_info`, the documented
 * space, unwrapped trends, members answering 200. Each list also carries one malformed item.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  documentedSpace,
  RECORDED_POSTS,
  RECORDED_USERS,
  recordedCommunityInfo,
  recordedLongPost,
  recordedLongReply,
  recordedQuote,
  recordedRetweet,
  recordedTrendsUnwrapped,
  recordedUser,
} from '../../src/shared/api/fixtures/recorded';

/** an id whose lookup call the server refuses with the recorded 401 body */
export const REFUSED_USER_ID = '4010000000000000401';
export const SPACE_ID = '1YqGoabcdefGH';
export const NOT_STARTED_SPACE_ID = '1NotStartedYet';
export const LIST_ID = '1600000000000000001';
/**
 * A post the readers cannot read: its own id is not one (an item whose id cannot be read is the one thing
 * skipped; an odd author or quoted post never drops a post, as the live service sends such posts). The
 * rest of its page must still show.
 */
const MALFORMED_POST = { ...recordedLongPost, id: 'not-an-id', author: { userName: 'broken' } };

const FOLLOWER_EMPTY_BIO = recordedUser('5555555555555555555', 'quietfollower', { emptyProfileBio: true });
const FOLLOWERS = [
  FOLLOWER_EMPTY_BIO,
  recordedUser('6666666666666666666', 'loudfollower', { bioOnlyInProfile: true }),
  { note: 'not a user at all' },
];

type Json = Record<string, unknown>;

function answer(path: string, q: URLSearchParams): { status: number; body: Json } {
  const ok = { status: 'success', msg: 'success' };
  const posts = [...RECORDED_POSTS] as Json[];
  switch (path) {
    case '/social/tweets': {
      const ids = (q.get('tweet_ids') ?? '').split(',');
      const all = [...posts, recordedRetweet.retweeted_tweet as Json];
      return {
        status: 200,
        body: { code: 0, ...ok, tweets: ids.map((id) => all.find((p) => p.id === id)).filter(Boolean) },
      };
    }
    case '/social/tweet/replies/v2':
    case '/social/tweet/replies':
      return {
        status: 200,
        body: {
          tweets: [recordedLongPost, recordedLongReply, MALFORMED_POST],
          has_next_page: false,
          next_cursor: '',
          ...ok,
        },
      };
    case '/social/tweet/quotes':
      return {
        status: 200,
        body: {
          tweets: [recordedQuote, recordedRetweet, MALFORMED_POST],
          has_next_page: false,
          next_cursor: '',
          ...ok,
        },
      };
    case '/social/user/mentions':
      return { status: 200, body: { tweets: [recordedLongReply], has_next_page: false, next_cursor: '', ...ok } };
    case '/social/user/tweet_timeline':
    case '/social/list/tweets_timeline':
      return {
        status: 200,
        body: {
          code: 0,
          ...ok,
          data: { tweets: [recordedRetweet, recordedLongPost, MALFORMED_POST, recordedQuote], pin_tweet: null },
          has_next_page: false,
          next_cursor: '',
        },
      };
    case '/social/user/search':
      return { status: 200, body: { users: [...RECORDED_USERS], has_next_page: false, next_cursor: '' } };
    case '/social/user/batch_info_by_ids': {
      const ids = (q.get('userIds') ?? '').split(',');
      if (ids.includes(REFUSED_USER_ID))
        return { status: 401, body: { error: 'Unauthorized', message: 'API key is invalid' } };
      return { status: 200, body: { ...ok, users: RECORDED_USERS.filter((u) => ids.includes(String(u.id))) } };
    }
    case '/social/list/followers':
      return { status: 200, body: { followers: FOLLOWERS, has_next_page: false, next_cursor: '', ...ok } };
    case '/social/community/info':
      return { status: 200, body: { community_info: recordedCommunityInfo, ...ok } };
    case '/social/community/members':
      return { status: 200, body: { members: [...RECORDED_USERS], has_next_page: false, next_cursor: '' } };
    case '/social/community/moderators':
      return { status: 501, body: { detail: 'Not implemented' } };
    case '/social/spaces/detail':
      return q.get('space_id') === SPACE_ID
        ? { status: 200, body: { ...ok, data: documentedSpace('Live') } }
        : { status: 404, body: { detail: 'Not Found' } };
    case '/social/trends':
      return {
        status: 200,
        body: {
          trends: recordedTrendsUnwrapped,
          metadata: {
            timestamp: 1_754_000_000_000,
            refresh_interval_millis: 300_000,
            woeid: { name: 'Worldwide', id: 1 },
          },
          ...ok,
        },
      };
    default:
      return { status: 404, body: { detail: 'Not Found' } };
  }
}

export async function startRecordedServer(): Promise<{
  baseUrl: string;
  requests: string[];
  close: () => Promise<void>;
}> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url.pathname + url.search);
    const { status, body } = answer(url.pathname, url.searchParams);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
