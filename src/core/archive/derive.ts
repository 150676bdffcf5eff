/**
 * What the Archive view searches and filters on (the `items` columns and the FTS row), read from
 * each item as the archive ingests it (ingest.ts).
 */
import { normalizePost } from '../../shared/api/normalize/post';
import { normalizeUser, userHandle, userId } from '../../shared/api/normalize/user';
import { bool, idString, isObject, nullableString, str as asString, toInt } from '../../shared/api/normalize/values';

export const FLAG = { media: 1, reply: 2, quote: 4, retweet: 8 } as const;

/**
 * A post's fields that `derive` reads, read as the client's reader (`normalizePost`) reads them but
 * without copying the post or checking each entity against the schema (that was ~15 % of ingest):
 * the raw item is what the archive keeps. A retweet goes through the client's reader, which checks
 * its original.
 */
function readPost(raw: unknown): unknown {
  if (!isObject(raw) || isObject(raw.retweeted_tweet)) return normalizePost(raw);
  const author = raw.author;
  const authorId = isObject(author) ? userId(author) : undefined;
  return {
    id: idString(raw.id ?? raw.id_str),
    text: asString(raw.text, asString(raw.full_text, '')),
    createdAt: asString(raw.createdAt, ''),
    lang: asString(raw.lang, 'und'),
    isReply: nullableString(raw.inReplyToId) !== null || bool(raw.isReply, false),
    quoted_tweet: isObject(raw.quoted_tweet) ? raw.quoted_tweet : null,
    // an author without an id reads as none, as the client's reader has it
    author:
      isObject(author) && typeof authorId === 'string' && /^\d+$/.test(authorId)
        ? { userName: userHandle(author), name: asString(author.name, '') }
        : null,
    likeCount: toInt(raw.likeCount) ?? 0,
    retweetCount: toInt(raw.retweetCount) ?? 0,
    replyCount: toInt(raw.replyCount) ?? 0,
    quoteCount: toInt(raw.quoteCount) ?? 0,
    entities: raw.entities,
    extendedEntities: raw.extendedEntities,
  };
}

/** the readers, by item kind (without the schema check) */
const READ: Partial<Record<string, (raw: unknown) => unknown>> = {
  post: readPost,
  user: normalizeUser,
  listFollower: normalizeUser,
};

export interface Derived {
  kind: string;
  id: string;
  createdAt: number | null;
  handle: string | null;
  lang: string | null;
  flags: number;
  engagement: number;
  fts: { text: string; handle: string; name: string; bio: string };
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
function time(v: unknown): number | null {
  const t = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(t) ? t : null;
}
const listed = (v: unknown) => Array.isArray(v) && v.length > 0;
/** media listed in the post's entities or extended entities (the entries are not checked) */
function hasMedia(post: Obj): boolean {
  return listed(obj(post.entities)?.media) || listed(obj(post.extendedEntities)?.media);
}

/**
 * Longer ids and handles than any the service writes (ids are up to 19 digits, handles up to 15 characters) are
 * not kept as such, on either store: an item with such an id stays whole in its answer, such a handle is none.
 */
const MAX_ID = 200;
const MAX_HANDLE = 200;
const handleOf = (v: unknown): string | null => {
  const h = str(v);
  return h === '' || h.length > MAX_HANDLE ? null : h;
};

/** What the Archive view searches and filters on, from a canonical item. */
export function derive(kind: string, item: unknown): Derived | null {
  const it = obj(item);
  const id = it?.id;
  if (!it || typeof id !== 'string' || id === '' || id.length > MAX_ID) return null;
  if (kind === 'post') {
    const author = obj(it.author) ?? {};
    const original = obj(it.retweeted_tweet);
    const flags =
      (hasMedia(original ?? it) ? FLAG.media : 0) |
      (it.isReply === true ? FLAG.reply : 0) |
      (obj(it.quoted_tweet) ? FLAG.quote : 0) |
      (original ? FLAG.retweet : 0);
    const text = original ? `${str(it.text)}\n${str(original.text)}` : str(it.text);
    return {
      kind,
      id,
      createdAt: time(it.createdAt),
      handle: handleOf(author.userName),
      lang: str(it.lang) || null,
      flags,
      engagement: num(it.likeCount) + num(it.retweetCount) + num(it.replyCount) + num(it.quoteCount),
      fts: { text, handle: str(author.userName), name: str(author.name), bio: '' },
    };
  }
  if (kind === 'user' || (kind === 'listFollower' && it.type === 'user')) {
    const bio = str(it.description) || str(obj(it.profile_bio)?.description);
    return {
      kind: 'user',
      id,
      createdAt: time(it.createdAt),
      handle: handleOf(it.userName),
      lang: null,
      flags: 0,
      engagement: num(it.followers),
      fts: { text: '', handle: str(it.userName), name: str(it.name), bio },
    };
  }
  if (kind === 'space' || kind === 'community' || kind === 'article') {
    return {
      kind,
      id,
      createdAt: null,
      handle: null,
      lang: null,
      flags: 0,
      engagement: 0,
      fts: { text: str(it.title) || str(it.name), handle: '', name: '', bio: str(it.description) },
    };
  }
  return null;
}

/** A list item as received: read by its kind's reader, then derived. */
export function deriveListItem(kind: string, raw: unknown): Derived | null {
  return derive(kind, READ[kind]?.(raw) ?? raw);
}

/** What the full-text index holds of an item kept as `raw` (a project's copy rebuilds each store's own index). */
export function storedFts(kind: string, raw: string): Derived['fts'] {
  try {
    const d = deriveListItem(kind, JSON.parse(raw));
    if (d) return d.fts;
  } catch {
    // a raw item that no longer parses is kept, unsearchable
  }
  return { text: '', handle: '', name: '', bio: '' };
}
