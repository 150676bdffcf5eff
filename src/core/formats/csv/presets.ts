/**
 * Column presets beside Skein's own (the columns other research tools import, research-conventions.md):
 * - `twarc`: twarc-csv's default columns (dotted JSON paths; lists JSON-encoded; a retweet's row carries its
 *   original's whole text; provenance as `__twarc.retrieved_at, __twarc.url, __twarc.version`). twarc writes
 *   line breaks as a literal `\n`: the writer does the same for this preset whatever the dialog says.
 * - `4cat`: 4CAT's X-item columns, whose first five are its import's required `id, thread_id, author, body,
 *   timestamp` (timestamp as `YYYY-MM-DD HH:MM:SS`, UTC); lists comma-joined; Skein's provenance after them.
 * Views of other kinds (and users for 4CAT) keep Skein's own columns.
 */
import type { ItemKind } from '../../../shared/api/catalog';
import type { CsvColumns } from '../../../shared/ipc/export';
import { csvId, TABLES } from './rows';
import type { Cell, Row, Table, TableTrailer } from './table';
import { arr, bool, isoFromCreatedAt, mediaUrls, nonEmpty, num, obj, str, type Obj } from '../item-fields';
import type { ExportManifest } from '../manifest';

type Context = Pick<ExportManifest, 'app' | 'base_url' | 'view'>;

const json = (v: unknown[]): string | null => (v.length === 0 ? null : JSON.stringify(v));
const counter = (v: unknown): number | null =>
  num(v) ?? (typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : null);

export const TWARC_POST_COLUMNS = [
  'id',
  'conversation_id',
  'referenced_tweets.replied_to.id',
  'referenced_tweets.retweeted.id',
  'referenced_tweets.quoted.id',
  'author_id',
  'in_reply_to_user_id',
  'in_reply_to_username',
  'retweeted_user_id',
  'retweeted_username',
  'quoted_user_id',
  'quoted_username',
  'created_at',
  'text',
  'lang',
  'source',
  'public_metrics.impression_count',
  'public_metrics.reply_count',
  'public_metrics.retweet_count',
  'public_metrics.quote_count',
  'public_metrics.like_count',
  'public_metrics.bookmark_count',
  'entities.hashtags',
  'entities.mentions',
  'entities.urls',
  'attachments.media',
  'author.id',
  'author.created_at',
  'author.username',
  'author.name',
  'author.description',
  'author.location',
  'author.pinned_tweet_id',
  'author.profile_image_url',
  'author.protected',
  'author.public_metrics.followers_count',
  'author.public_metrics.following_count',
  'author.public_metrics.listed_count',
  'author.public_metrics.tweet_count',
  'author.verified',
] as const;

export const TWARC_USER_COLUMNS = [
  'id',
  'created_at',
  'username',
  'name',
  'description',
  'location',
  'pinned_tweet_id',
  'profile_image_url',
  'protected',
  'public_metrics.followers_count',
  'public_metrics.following_count',
  'public_metrics.listed_count',
  'public_metrics.tweet_count',
  'url',
  'verified',
] as const;

function twarcUser(u: Obj, prefix: string): Row {
  const bio = nonEmpty(u.description) ?? str(obj(u.profile_bio)?.description);
  return {
    [`${prefix}id`]: csvId(str(u.id) ?? str(u.rest_id)),
    [`${prefix}created_at`]: isoFromCreatedAt(u.createdAt),
    [`${prefix}username`]: str(u.userName) ?? str(u.screen_name),
    [`${prefix}name`]: str(u.name),
    [`${prefix}description`]: bio,
    [`${prefix}location`]: str(u.location),
    [`${prefix}pinned_tweet_id`]: csvId(nonEmpty(arr(u.pinnedTweetIds)[0])),
    [`${prefix}profile_image_url`]: str(u.profilePicture),
    [`${prefix}protected`]: bool(u.protected) ?? bool(u.isProtected),
    [`${prefix}public_metrics.followers_count`]: num(u.followers),
    [`${prefix}public_metrics.following_count`]: num(u.following),
    [`${prefix}public_metrics.listed_count`]: num(u.listedCount),
    [`${prefix}public_metrics.tweet_count`]: num(u.statusesCount),
    [`${prefix}url`]: str(u.url),
    [`${prefix}verified`]: bool(u.isVerified) ?? bool(u.isBlueVerified),
  };
}

function twarcPost(raw: unknown): Row {
  const p = obj(raw) ?? {};
  const author = obj(p.author) ?? {};
  const entities = obj(p.entities) ?? {};
  const retweet = obj(p.retweeted_tweet);
  const quoted = obj(p.quoted_tweet);
  const text = (retweet ? str(retweet.text) : null) ?? str(p.text);
  return {
    id: csvId(str(p.id)),
    conversation_id: csvId(nonEmpty(p.conversationId)),
    'referenced_tweets.replied_to.id': csvId(nonEmpty(p.inReplyToId)),
    'referenced_tweets.retweeted.id': csvId(nonEmpty(retweet?.id)),
    'referenced_tweets.quoted.id': csvId(nonEmpty(quoted?.id)),
    author_id: csvId(str(author.id)),
    in_reply_to_user_id: csvId(nonEmpty(p.inReplyToUserId)),
    in_reply_to_username: nonEmpty(p.inReplyToUsername),
    retweeted_user_id: csvId(nonEmpty(obj(retweet?.author)?.id)),
    retweeted_username: nonEmpty(obj(retweet?.author)?.userName),
    quoted_user_id: csvId(nonEmpty(obj(quoted?.author)?.id)),
    quoted_username: nonEmpty(obj(quoted?.author)?.userName),
    created_at: isoFromCreatedAt(p.createdAt),
    text,
    lang: str(p.lang),
    source: str(p.source),
    'public_metrics.impression_count': counter(p.viewCount),
    'public_metrics.reply_count': num(p.replyCount),
    'public_metrics.retweet_count': num(p.retweetCount),
    'public_metrics.quote_count': num(p.quoteCount),
    'public_metrics.like_count': num(p.likeCount),
    'public_metrics.bookmark_count': num(p.bookmarkCount),
    'entities.hashtags': json(arr(entities.hashtags).map((h) => ({ tag: str(obj(h)?.text) }))),
    'entities.mentions': json(
      arr(entities.user_mentions).map((m) => ({ username: str(obj(m)?.screen_name), id: str(obj(m)?.id_str) })),
    ),
    'entities.urls': json(
      arr(entities.urls).map((u) => ({
        url: str(obj(u)?.url),
        expanded_url: str(obj(u)?.expanded_url),
        display_url: str(obj(u)?.display_url),
      })),
    ),
    'attachments.media': json(mediaUrls(p).map((url) => ({ url }))),
    ...twarcUser(author, 'author.'),
  };
}

function twarcTrailer(context: Context): TableTrailer {
  const url = `${context.base_url}${context.view.path}`;
  const version = `${context.app.name} ${context.app.version}`;
  return {
    columns: ['__twarc.retrieved_at', '__twarc.url', '__twarc.version'],
    cells: (from): Cell[] => [from.retrieved_at, url, version],
  };
}

export const FOURCAT_POST_COLUMNS = [
  'id',
  'thread_id',
  'author',
  'body',
  'timestamp',
  'unix_timestamp',
  'link',
  'author_fullname',
  'author_id',
  'author_avatar_url',
  'verified',
  'source',
  'language_guess',
  'possibly_sensitive',
  'retweet_count',
  'reply_count',
  'like_count',
  'quote_count',
  'impression_count',
  'is_retweet',
  'retweeted_user',
  'is_quote_tweet',
  'quote_tweet_id',
  'quote_author',
  'quote_body',
  'is_reply',
  'replied_author',
  'hashtags',
  'urls',
  'images',
  'videos',
  'mentions',
] as const;

const commaJoined = (values: Array<string | null>): string => values.filter((v): v is string => !!v).join(',');

/** 4CAT's `YYYY-MM-DD HH:MM:SS` (UTC) from an ISO time. */
const fourcatTime = (iso: string | null): string | null => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : null);

function fourcatPost(raw: unknown): Row {
  const p = obj(raw) ?? {};
  const author = obj(p.author) ?? {};
  const entities = obj(p.entities) ?? {};
  const retweet = obj(p.retweeted_tweet);
  const quoted = obj(p.quoted_tweet);
  const iso = isoFromCreatedAt(p.createdAt);
  const media = arr(obj(p.extendedEntities)?.media).map(obj);
  const isVideo = (m: Obj | null) => str(m?.type) === 'video' || str(m?.type) === 'animated_gif';
  return {
    id: csvId(str(p.id)),
    thread_id: csvId(nonEmpty(p.conversationId) ?? str(p.id)),
    author: str(author.userName),
    body: (retweet ? str(retweet.text) : null) ?? str(p.text),
    timestamp: fourcatTime(iso),
    unix_timestamp: iso ? Date.parse(iso) / 1000 : null,
    link: str(p.url),
    author_fullname: str(author.name),
    author_id: csvId(str(author.id)),
    author_avatar_url: str(author.profilePicture),
    verified: bool(author.isVerified) ?? bool(author.isBlueVerified),
    source: str(p.source),
    language_guess: str(p.lang),
    possibly_sensitive: bool(p.possiblySensitive) ?? bool(p.possibly_sensitive),
    retweet_count: num(p.retweetCount),
    reply_count: num(p.replyCount),
    like_count: num(p.likeCount),
    quote_count: num(p.quoteCount),
    impression_count: counter(p.viewCount),
    is_retweet: retweet !== null,
    retweeted_user: nonEmpty(obj(retweet?.author)?.userName),
    is_quote_tweet: quoted !== null,
    quote_tweet_id: csvId(nonEmpty(quoted?.id)),
    quote_author: nonEmpty(obj(quoted?.author)?.userName),
    quote_body: quoted ? str(quoted.text) : null,
    is_reply: bool(p.isReply) ?? nonEmpty(p.inReplyToId) !== null,
    replied_author: nonEmpty(p.inReplyToUsername),
    hashtags: commaJoined(arr(entities.hashtags).map((h) => str(obj(h)?.text))),
    urls: commaJoined(arr(entities.urls).map((u) => str(obj(u)?.expanded_url))),
    images: commaJoined(media.filter((m) => !isVideo(m)).map((m) => nonEmpty(m?.media_url_https))),
    videos: commaJoined(media.filter(isVideo).map((m) => nonEmpty(m?.media_url_https))),
    mentions: commaJoined(arr(entities.user_mentions).map((m) => str(obj(m)?.screen_name))),
  };
}

const ID_COLUMN = /(^|\.|_)id$|^thread_id$|_user_id$|^quote_tweet_id$/;
const idColumns = (columns: readonly string[]) => columns.filter((c) => ID_COLUMN.test(c));

/** The column sets the dialog offers, each for the kinds of item it has columns of (others get Skein's own). */
export const COLUMN_SETS: ReadonlyArray<{ value: CsvColumns; label: string; kinds?: ItemKind[] }> = [
  { value: 'skein', label: "Skein's columns" },
  { value: 'twarc', label: 'twarc-csv columns (one line per row)', kinds: ['post', 'user', 'listFollower'] },
  { value: '4cat', label: '4CAT import columns', kinds: ['post'] },
];

/** A preset's one table: its columns (ids found by their names), an item's row, and what follows it. */
function presetTable(columns: readonly string[], row: (raw: unknown) => Row, trailer?: TableTrailer): Table[] {
  return [
    { suffix: '', columns, idColumns: idColumns(columns), rows: (r) => [row(r)], ...(trailer ? { trailer } : {}) },
  ];
}

/** The tables a CSV export writes for a kind of item in a column set. */
export function csvTables(kind: ItemKind, columns: CsvColumns, context: Context): readonly Table[] {
  const own = TABLES[kind];
  switch (columns) {
    case 'skein':
      return own;
    case 'twarc':
      if (kind === 'post') return presetTable(TWARC_POST_COLUMNS, twarcPost, twarcTrailer(context));
      if (kind === 'user' || kind === 'listFollower')
        return presetTable(TWARC_USER_COLUMNS, (r) => twarcUser(obj(r) ?? {}, ''), twarcTrailer(context));
      return own;
    case '4cat':
      return kind === 'post' ? presetTable(FOURCAT_POST_COLUMNS, fourcatPost) : own;
  }
}

/** For questions about a preset's columns alone (its trailer's cells then say nothing). */
export const NO_CONTEXT: Context = {
  app: { name: '', version: '' },
  base_url: '',
  view: { kind: 'thread', title: null, operation: '', path: '' },
};
