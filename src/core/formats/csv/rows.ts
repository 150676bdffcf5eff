/**
 * How raw items become spreadsheet rows: one table per entity kind, with ids
 * marked with `csvId` (the writer gives them the flavour's form), ISO timestamps
 * beside the API's own `createdAt`, and lists joined with spaces. Readers are
 * tolerant: the live service's variants (api-field-notes.md) flatten too.
 */
import type { ItemKind } from '../../../shared/api/catalog';
import { readCard } from '../../../shared/api/normalize/card';
import { normalizeCommunity } from '../../../shared/api/normalize/community';
import { readAutomation } from '../../../shared/api/normalize/user';
import {
  arr,
  bool,
  counter,
  isoFromCreatedAt,
  isoFromMs,
  join,
  mediaUrls,
  nonEmpty,
  num,
  obj,
  str,
  type Obj,
} from '../item-fields';
import { csvId } from './id';
import { PARTICIPANT_COLUMNS, participantRows, SPACE_COLUMNS, spaceRow } from './space-rows';
import type { ThreadPosition } from '../format';
import type { Row, Table } from './table';

export { csvId, decodeCsvId } from './id';

/**
 * A post's card: its name and link; a link preview's title and domain; a poll's choices (as many as
 * `MAX_POLL_CHOICES`: csv.test.ts holds the two equal), votes and end.
 */
const CARD_COLUMNS = [
  'card_name',
  'card_url',
  'card_title',
  'card_domain',
  'poll_choice1_label',
  'poll_choice1_count',
  'poll_choice2_label',
  'poll_choice2_count',
  'poll_choice3_label',
  'poll_choice3_count',
  'poll_choice4_label',
  'poll_choice4_count',
  'poll_ends_at',
  'poll_counts_are_final',
  'poll_duration_minutes',
] as const;

/**
 * What a post's card columns are made from: the card the reader knows (or none), and its raw name and link for a
 * card it does not. `postRow` writes the columns out by name, so every row has one shape (a row put together
 * from spread parts and computed names took 1.7 times as long to make).
 */
function cardOf(p: Obj) {
  const card = readCard(p.card, obj(p.entities)?.urls);
  const raw = obj(p.card);
  return {
    card,
    poll: card?.kind === 'poll' ? card : null,
    rawName: raw?.name ?? obj(raw?.legacy)?.name,
    rawUrl: raw?.url,
  };
}

const POST_COLUMNS = [
  'id',
  'url',
  'created_at',
  'createdAt',
  'lang',
  'text',
  'author_id',
  'author_userName',
  'author_name',
  'author_isBlueVerified',
  'author_followers',
  'author_following',
  'author_is_automated',
  'author_automated_by',
  'retweetCount',
  'replyCount',
  'likeCount',
  'quoteCount',
  'bookmarkCount',
  'viewCount',
  'isReply',
  'inReplyToId',
  'conversationId',
  'quoted_tweet_id',
  'retweeted_tweet_id',
  'retweeted_tweet_author_id',
  'retweeted_tweet_author_userName',
  'full_text',
  'in_reply_to_user_id',
  'in_reply_to_username',
  'quoted_user_id',
  'quoted_username',
  'root_id',
  'parent_id',
  'depth',
  'hashtags',
  'mentions',
  'urls',
  'media_urls',
  ...CARD_COLUMNS,
] as const;

function postRow(raw: unknown, position: ThreadPosition | null): Row {
  const p = obj(raw) ?? {};
  const author = obj(p.author) ?? {};
  const entities = obj(p.entities) ?? {};
  const text = str(p.text);
  const retweet = obj(p.retweeted_tweet);
  const automation = readAutomation(author);
  // who a post answers and whose post it quotes: the columns researchers join on (twarc's names)
  const quotedAuthor = obj(obj(p.quoted_tweet)?.author);
  const { card, poll, rawName, rawUrl } = cardOf(p);
  const choice = (i: number) => poll?.choices[i];
  return {
    id: csvId(str(p.id)),
    url: str(p.url),
    created_at: isoFromCreatedAt(p.createdAt),
    createdAt: str(p.createdAt),
    lang: str(p.lang),
    text,
    author_id: csvId(str(author.id)),
    author_userName: str(author.userName),
    author_name: str(author.name),
    author_isBlueVerified: bool(author.isBlueVerified),
    author_followers: num(author.followers),
    author_following: num(author.following),
    author_is_automated: automation.isAutomated,
    author_automated_by: automation.automatedBy,
    retweetCount: num(p.retweetCount),
    replyCount: num(p.replyCount),
    likeCount: num(p.likeCount),
    quoteCount: num(p.quoteCount),
    bookmarkCount: num(p.bookmarkCount),
    viewCount: counter(p.viewCount),
    isReply: bool(p.isReply),
    inReplyToId: csvId(nonEmpty(p.inReplyToId)),
    conversationId: csvId(nonEmpty(p.conversationId)),
    quoted_tweet_id: csvId(nonEmpty(obj(p.quoted_tweet)?.id)),
    retweeted_tweet_id: csvId(nonEmpty(retweet?.id)),
    // a retweet's `text` is cut short ("RT @x: …"); its original's is whole
    retweeted_tweet_author_id: csvId(nonEmpty(obj(retweet?.author)?.id)),
    retweeted_tweet_author_userName: nonEmpty(obj(retweet?.author)?.userName),
    full_text: (retweet ? str(retweet.text) : null) ?? text,
    in_reply_to_user_id: csvId(nonEmpty(p.inReplyToUserId)),
    in_reply_to_username: nonEmpty(p.inReplyToUsername),
    quoted_user_id: csvId(nonEmpty(quotedAuthor?.id)),
    quoted_username: nonEmpty(quotedAuthor?.userName),
    root_id: csvId(position?.root_id),
    parent_id: csvId(position?.parent_id),
    depth: position?.depth ?? null,
    hashtags: join(arr(entities.hashtags).map((h) => str(obj(h)?.text))),
    mentions: join(arr(entities.user_mentions).map((m) => str(obj(m)?.screen_name))),
    urls: join(arr(entities.urls).map((u) => str(obj(u)?.expanded_url))),
    media_urls: mediaUrls(p).join(' '),
    card_name: card ? card.name || nonEmpty(rawName) : null,
    card_url: card?.url ?? nonEmpty(rawUrl) ?? null,
    card_title: card && card.kind !== 'poll' ? card.title : null,
    card_domain: card?.kind === 'link' ? card.domain : null,
    poll_choice1_label: choice(0)?.label ?? null,
    poll_choice1_count: choice(0)?.count ?? null,
    poll_choice2_label: choice(1)?.label ?? null,
    poll_choice2_count: choice(1)?.count ?? null,
    poll_choice3_label: choice(2)?.label ?? null,
    poll_choice3_count: choice(2)?.count ?? null,
    poll_choice4_label: choice(3)?.label ?? null,
    poll_choice4_count: choice(3)?.count ?? null,
    poll_ends_at: poll && poll.endsAt !== null ? new Date(poll.endsAt).toISOString() : null,
    poll_counts_are_final: poll ? poll.final : null,
    poll_duration_minutes: poll ? poll.durationMinutes : null,
  };
}

/** whether the account says it is automated, and by whom (researchers filter bots on these) */
function automationColumns(u: Obj): Row {
  const a = readAutomation(u);
  return { is_automated: a.isAutomated, automated_by: a.automatedBy };
}

const USER_COLUMNS = [
  'id',
  'userName',
  'name',
  'url',
  'created_at',
  'createdAt',
  'description',
  'location',
  'followers',
  'following',
  'statusesCount',
  'isBlueVerified',
  'canDm',
  'profilePicture',
  'coverPicture',
  'pinnedTweetIds',
  'is_automated',
  'automated_by',
] as const;

function userRow(raw: unknown): Row {
  const u = obj(raw) ?? {};
  return {
    id: csvId(str(u.id) ?? str(u.rest_id)),
    userName: str(u.userName) ?? str(u.screen_name),
    name: str(u.name),
    url: str(u.url),
    created_at: isoFromCreatedAt(u.createdAt),
    createdAt: str(u.createdAt),
    // the live service may keep the bio in `profile_bio` only
    description: nonEmpty(u.description) ?? str(obj(u.profile_bio)?.description) ?? str(u.description),
    location: str(u.location),
    followers: num(u.followers),
    following: num(u.following),
    statusesCount: num(u.statusesCount),
    isBlueVerified: bool(u.isBlueVerified),
    canDm: bool(u.canDm),
    profilePicture: str(u.profilePicture),
    coverPicture: str(u.coverPicture),
    pinnedTweetIds: csvId(join(arr(u.pinnedTweetIds).map(str)) || null),
    ...automationColumns(u),
  };
}

const TREND_COLUMNS = ['position', 'name', 'url', 'query', 'tweet_volume', 'rank', 'meta_description'] as const;

function trendRow(raw: unknown, index: number): Row {
  const outer = obj(raw) ?? {};
  const t = obj(outer.trend) ?? outer;
  return {
    position: index + 1,
    name: str(t.name),
    url: str(t.url),
    query: str(t.query) ?? str(obj(t.target)?.query),
    tweet_volume: num(t.tweet_volume),
    rank: str(t.rank),
    meta_description: str(t.meta_description),
  };
}

const COMMUNITY_COLUMNS = [
  'id',
  'name',
  'description',
  'created_at',
  'created_at_ms',
  'member_count',
  'moderator_count',
  'role',
  'is_pinned',
  'rules',
  'banner_url',
] as const;

function communityRow(raw: unknown): Row {
  // the spec's `data` object or the live `community_info`: read as one shape
  const holder = obj(obj(obj(normalizeCommunity(raw))?.data)?.community_results_by_rest_id) ?? {};
  const c = obj(holder.result) ?? {};
  const banner =
    obj(obj(obj(c.custom_banner_media_results)?.result)?.media_info) ??
    obj(obj(obj(c.default_banner_media_results)?.result)?.media_info);
  return {
    id: csvId(str(c.rest_id) ?? str(holder.rest_id)),
    name: str(c.name),
    description: str(c.description),
    created_at: isoFromMs(c.created_at),
    created_at_ms: num(c.created_at),
    member_count: num(c.member_count),
    moderator_count: num(c.moderator_count),
    role: str(c.role),
    is_pinned: bool(c.is_pinned),
    rules: arr(c.rules)
      .map((r) => str(obj(r)?.name))
      .filter(Boolean)
      .join(' | '),
    banner_url: str(banner?.original_img_url),
  };
}

const ID_COLUMNS = new Set([
  'id',
  'author_id',
  'inReplyToId',
  'conversationId',
  'quoted_tweet_id',
  'retweeted_tweet_id',
  'retweeted_tweet_author_id',
  'root_id',
  'parent_id',
  'in_reply_to_user_id',
  'quoted_user_id',
  'pinnedTweetIds',
  'space_id',
  'creator_user_id',
  'tweet_id',
  'user_id',
]);

/** A table of Skein's own columns (ids found by their names): its main file unless it has a suffix. */
function table(columns: readonly string[], rows: Table['rows'], suffix = ''): Table {
  return { suffix, columns, idColumns: columns.filter((c) => ID_COLUMNS.has(c)), rows };
}

const userTable = table(USER_COLUMNS, (r) => [userRow(r)]);

/** The CSV files of a view, by the kind of item it holds. */
export const TABLES: Record<ItemKind, readonly Table[]> = {
  post: [table(POST_COLUMNS, (r, p) => [postRow(r, p)])],
  user: [userTable],
  listFollower: [userTable],
  trend: [table(TREND_COLUMNS, (r, _p, c) => [trendRow(r, c.index)])],
  community: [table(COMMUNITY_COLUMNS, (r) => [communityRow(r)])],
  space: [
    table(SPACE_COLUMNS, (r, _p, c) => [spaceRow(r, c.params)]),
    table(PARTICIPANT_COLUMNS, (r, _p, c) => participantRows(r, c.params), 'participants'),
  ],
  article: [],
};
