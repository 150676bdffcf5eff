/**
 * The catalog of the API's 16 operations: the one source of truth from which
 * the main-process client, the sandbox's routes, the bridge and the renderer
 * derive. Adding an operation is one entry here (plus its view).
 */
import { z } from 'zod';
import { CommunityData, ListFollower, Post, SpaceData, Trend, UnknownObject, User, type CardPost } from './schemas';

export type ParamType = 'string' | 'integer' | 'boolean' | 'idList';

export interface ParamSpec {
  readonly name: string;
  readonly type: ParamType;
  readonly required: boolean;
  readonly default?: string | number | boolean;
  /** allowed values of a string parameter */
  readonly enum?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  readonly description: string;
}

/** Kinds of item an operation returns; drives pricing, normalization and views. */
export type ItemKind = 'post' | 'user' | 'trend' | 'listFollower' | 'community' | 'space' | 'article';

export type CollectionKey = 'tweets' | 'replies' | 'users' | 'followers' | 'trends' | 'data';
export type MessageKey = 'msg' | 'message';

/** How the call is priced (see `pricing.ts`). */
export type PriceClass = 'perPost' | 'perProfile' | 'batchUsers' | 'community' | 'list' | 'article' | 'minimum';

export interface OperationSpec {
  /** number in the spec's endpoint table */
  readonly number: number;
  readonly path: `/social/${string}`;
  readonly title: string;
  readonly params: readonly ParamSpec[];
  readonly paged: boolean;
  readonly collectionKey: CollectionKey;
  readonly messageKey: MessageKey;
  /** false: announced, answers HTTP 501, never charged */
  readonly available: boolean;
  readonly itemKind: ItemKind;
  readonly priceClass: PriceClass;
  /**
   * the most items one page has been seen to hold on the live service, where that is more than the typical
   * 20 (api-field-notes.md): the spec states no page size, so a cap's bound on a page's cost starts here
   */
  readonly largestPageSeen?: number;
}

/** the items of a page a cap's bound assumes at least, where nothing larger has been seen */
const TYPICAL_PAGE_ITEMS = 20;

/** the most items a page of `operation` may hold, as far as anyone has seen: a cap's bound on its cost */
export function largestPageKnown(operation: OperationId, recordedInProject = 0): number {
  const spec: OperationSpec = OPERATIONS[operation];
  return Math.max(TYPICAL_PAGE_ITEMS, spec.largestPageSeen ?? 0, recordedInProject);
}

/** Maximum ids per batch call (not documented by the spec; clients send at most 100). */
export const MAX_IDS_PER_CALL = 100;
/** Trends `count` range accepted (the spec is silent; live min is 30, clients cap at 50). */
export const TRENDS_COUNT_RANGE = { min: 1, max: 50 } as const;
export const QUERY_TYPES = ['Relevance', 'Latest', 'Likes'] as const;
export type QueryType = (typeof QUERY_TYPES)[number];

const cursor = { name: 'cursor', type: 'string', required: false, description: 'opaque paging token' } as const;

export const OPERATIONS = {
  postQuotes: {
    number: 1,
    path: '/social/tweet/quotes',
    title: 'Quotes of a post',
    params: [{ name: 'tweetId', type: 'string', required: true, description: 'post id' }, cursor],
    paged: true,
    collectionKey: 'tweets',
    messageKey: 'message',
    available: true,
    itemKind: 'post',
    priceClass: 'perPost',
  },
  postRepliesV2: {
    number: 2,
    path: '/social/tweet/replies/v2',
    title: 'Replies (threaded)',
    params: [
      { name: 'tweetId', type: 'string', required: true, description: 'post id' },
      cursor,
      {
        name: 'queryType',
        type: 'string',
        required: false,
        default: 'Relevance',
        enum: QUERY_TYPES,
        description: 'ordering: Relevance, Latest or Likes',
      },
    ],
    paged: true,
    collectionKey: 'tweets',
    messageKey: 'message',
    available: true,
    itemKind: 'post',
    priceClass: 'perPost',
    // recorded live pages held 31–38 posts
    largestPageSeen: 38,
  },
  postReplies: {
    number: 3,
    path: '/social/tweet/replies',
    title: 'Direct replies',
    params: [{ name: 'tweetId', type: 'string', required: true, description: 'post id' }, cursor],
    paged: true,
    collectionKey: 'replies',
    messageKey: 'message',
    available: true,
    itemKind: 'post',
    priceClass: 'perPost',
  },
  userMentions: {
    number: 4,
    path: '/social/user/mentions',
    title: 'Mentions of a user',
    params: [{ name: 'userName', type: 'string', required: true, description: 'handle without @' }, cursor],
    paged: true,
    collectionKey: 'tweets',
    messageKey: 'message',
    available: true,
    itemKind: 'post',
    priceClass: 'perPost',
  },
  userSearch: {
    number: 5,
    path: '/social/user/search',
    title: 'People search',
    params: [{ name: 'query', type: 'string', required: true, description: 'search text' }, cursor],
    paged: true,
    collectionKey: 'users',
    messageKey: 'msg',
    available: true,
    itemKind: 'user',
    priceClass: 'perProfile',
  },
  postsByIds: {
    number: 6,
    path: '/social/tweets',
    title: 'Posts by ids',
    params: [
      {
        name: 'tweet_ids',
        type: 'idList',
        required: true,
        max: MAX_IDS_PER_CALL,
        description: 'comma-separated post ids',
      },
    ],
    paged: false,
    collectionKey: 'tweets',
    messageKey: 'message',
    available: true,
    itemKind: 'post',
    priceClass: 'perPost',
  },
  communityInfo: {
    number: 7,
    path: '/social/community/info',
    title: 'Community',
    params: [{ name: 'community_id', type: 'string', required: true, description: 'community id' }],
    paged: false,
    collectionKey: 'data',
    messageKey: 'msg',
    available: true,
    itemKind: 'community',
    priceClass: 'community',
  },
  listFollowers: {
    number: 8,
    path: '/social/list/followers',
    title: 'List followers',
    params: [{ name: 'list_id', type: 'string', required: true, description: 'list id' }, cursor],
    paged: true,
    collectionKey: 'followers',
    messageKey: 'msg',
    available: true,
    itemKind: 'listFollower',
    priceClass: 'list',
  },
  userTimeline: {
    number: 9,
    path: '/social/user/tweet_timeline',
    title: 'Posts of a user',
    params: [
      { name: 'userId', type: 'string', required: true, description: 'numeric user id' },
      cursor,
      { name: 'includeReplies', type: 'boolean', required: false, default: true, description: 'include replies' },
      { name: 'includeParentTweet', type: 'boolean', required: false, description: 'include the parent of each reply' },
    ],
    paged: true,
    collectionKey: 'tweets',
    messageKey: 'message',
    available: true,
    itemKind: 'post',
    priceClass: 'perPost',
  },
  communityMembers: {
    number: 10,
    path: '/social/community/members',
    title: 'Community members',
    params: [{ name: 'community_id', type: 'string', required: true, description: 'community id' }, cursor],
    paged: true,
    collectionKey: 'data',
    messageKey: 'msg',
    available: false,
    itemKind: 'user',
    priceClass: 'minimum',
  },
  spaceDetail: {
    number: 11,
    path: '/social/spaces/detail',
    title: 'Audio space',
    params: [{ name: 'space_id', type: 'string', required: true, description: 'space id' }],
    paged: false,
    collectionKey: 'data',
    messageKey: 'msg',
    available: true,
    itemKind: 'space',
    priceClass: 'minimum',
  },
  usersByIds: {
    number: 12,
    path: '/social/user/batch_info_by_ids',
    title: 'Users by ids',
    params: [
      {
        name: 'userIds',
        type: 'idList',
        required: true,
        max: MAX_IDS_PER_CALL,
        description: 'comma-separated numeric user ids',
      },
    ],
    paged: false,
    collectionKey: 'users',
    messageKey: 'msg',
    available: true,
    itemKind: 'user',
    priceClass: 'batchUsers',
  },
  trends: {
    number: 13,
    path: '/social/trends',
    title: 'Trends',
    params: [
      { name: 'woeid', type: 'integer', required: false, default: 1, min: 1, description: 'Where On Earth ID' },
      {
        name: 'count',
        type: 'integer',
        required: false,
        default: 30,
        min: TRENDS_COUNT_RANGE.min,
        max: TRENDS_COUNT_RANGE.max,
        description: 'number of trends',
      },
    ],
    paged: false,
    collectionKey: 'trends',
    messageKey: 'msg',
    available: true,
    itemKind: 'trend',
    priceClass: 'minimum',
  },
  listTimeline: {
    number: 14,
    path: '/social/list/tweets_timeline',
    title: 'List posts',
    params: [{ name: 'listId', type: 'string', required: true, description: 'list id' }, cursor],
    paged: true,
    collectionKey: 'tweets',
    messageKey: 'message',
    available: true,
    itemKind: 'post',
    priceClass: 'list',
  },
  communityModerators: {
    number: 15,
    path: '/social/community/moderators',
    title: 'Community moderators',
    params: [{ name: 'community_id', type: 'string', required: true, description: 'community id' }, cursor],
    paged: true,
    collectionKey: 'data',
    messageKey: 'msg',
    available: false,
    itemKind: 'user',
    priceClass: 'minimum',
  },
  article: {
    number: 16,
    path: '/social/article',
    title: 'Article',
    params: [{ name: 'tweet_id', type: 'string', required: true, description: 'post id' }],
    paged: false,
    collectionKey: 'data',
    messageKey: 'msg',
    available: false,
    itemKind: 'article',
    priceClass: 'article',
  },
} as const satisfies Record<string, OperationSpec>;

export type Operations = typeof OPERATIONS;
export type OperationId = keyof Operations;
export const OPERATION_IDS = Object.keys(OPERATIONS) as OperationId[];
export const OperationIdSchema = z.enum(OPERATION_IDS as [OperationId, ...OperationId[]]);

export function operation(id: OperationId): OperationSpec {
  return OPERATIONS[id];
}

/* ------------------------------------------------------------ param types */

type ParamValue<P> = P extends { type: 'integer' } ? number : P extends { type: 'boolean' } ? boolean : string;
type ParamsTuple<Id extends OperationId> = Operations[Id]['params'][number];

/** The typed parameters of an operation, derived from the catalog. */
export type ParamsOf<Id extends OperationId> = {
  [P in ParamsTuple<Id> as P extends { required: true } ? P['name'] : never]: ParamValue<P>;
} & {
  [P in ParamsTuple<Id> as P extends { required: true } ? never : P['name']]?: ParamValue<P>;
};

export type PagedOperationId = {
  [K in OperationId]: Operations[K]['paged'] extends true ? K : never;
}[OperationId];

/* ---------------------------------------------------------- item schemas */

/** The schema of one item (list operations) or of the `data` object (object operations). */
export const ITEM_SCHEMAS = {
  post: Post,
  user: User,
  trend: Trend,
  listFollower: ListFollower,
  community: CommunityData,
  space: SpaceData,
  article: UnknownObject,
} as const satisfies Record<ItemKind, z.ZodType>;

export type ItemOfKind = { [K in ItemKind]: z.infer<(typeof ITEM_SCHEMAS)[K]> };
export type ItemOf<Id extends OperationId> = ItemOfKind[Operations[Id]['itemKind']];
/** An item as the renderer gets it: posts as `CardPost` (their authors cut to what a card shows). */
export type BridgeItemOf<Id extends OperationId> = Operations[Id]['itemKind'] extends 'post' ? CardPost : ItemOf<Id>;

/** true when the operation returns a list of items (vs one `data` object) */
export function isListOperation(id: OperationId): boolean {
  return OPERATIONS[id].collectionKey !== 'data' || OPERATIONS[id].paged;
}
