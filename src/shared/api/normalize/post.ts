/**
 * Tolerant reader of a post (every live-service spelling in api-field-notes.md → the spec's shape). Every
 * field is read with a fallback ("", null: unknown), so a post is refused only when its own id cannot be
 * read; a post nested in it (a quoted post) that cannot be read becomes an `UnavailablePost` and never
 * takes its parent down (the live service sends such posts: api-field-notes.md). What is kept for export
 * is the raw item, whole.
 */
import { MediaEntity, TagEntity, UrlEntity, UserMentionEntity, type UnavailablePost } from '../schemas';
import { mediaFromExtended } from './media';
import { normalizeUser } from './user';
import {
  bool,
  idString,
  indexPair,
  isObject,
  nullableString,
  str,
  toInt,
  validatorOf,
  viewCount,
  type Check,
  type Obj,
} from './values';

const COUNTERS = ['retweetCount', 'replyCount', 'likeCount', 'quoteCount', 'bookmarkCount'] as const;
/** fields where '' and null both mean "none" */
const NULLABLE_IDS = ['inReplyToId', 'conversationId', 'inReplyToUserId', 'inReplyToUsername'] as const;
/** quoted posts nest; past this depth the rest is cut (the raw item keeps it) */
const MAX_DEPTH = 4;

export function normalizePost(v: unknown, depth = 0): unknown {
  if (!isObject(v)) return v;
  const p: Obj = { ...v };
  p.type = 'tweet';
  p.id = postId(p);
  p.url = str(p.url, str(p.twitterUrl, ''));
  p.text = str(p.text, str(p.full_text, ''));
  for (const c of COUNTERS) p[c] = toInt(p[c]) ?? null;
  p.viewCount = viewCount(p.viewCount);
  p.createdAt = str(p.createdAt, '');
  p.lang = str(p.lang, 'und');
  for (const k of NULLABLE_IDS)
    if (k in p || k === 'inReplyToId' || k === 'conversationId') p[k] = nullableString(p[k]);
  // a reply is what answers a post: a post that merely starts with @mentions may carry inReplyToUserId and
  // inReplyToUsername with `isReply: false` and no inReplyToId (api-field-notes.md, "Round 2")
  p.isReply = p.inReplyToId !== null || bool(p.isReply, false);
  p.displayTextRange = indexPair(p.displayTextRange);
  p.entities = entities(p.entities, p.extendedEntities);
  p.author = author(p.author);
  p.quoted_tweet = quoted(p.quoted_tweet, depth);
  if ('retweeted_tweet' in p) p.retweeted_tweet = retweeted(p.retweeted_tweet, depth);
  return p;
}

/**
 * Whether a reader's result has an id that reads as one. The readers coerce every other field to its type,
 * so that is all that can make one invalid; the page's schema check stays the final gate, and the property
 * test (any-field.test.ts) keeps this true. A zod check here, on every author and nested post, doubled
 * the reader's time.
 */
const hasId = (v: unknown): v is { id: string } => isObject(v) && typeof v.id === 'string' && /^\d+$/.test(v.id);

/** the first of `id`, `id_str` that reads as an id (a number past 2^53 does not) */
function postId(p: Obj): unknown {
  const candidates = [p.id, p.id_str].filter((x) => x !== undefined && x !== null && x !== '');
  for (const c of candidates) {
    const id = idString(c);
    if (typeof id === 'string' && /^\d+$/.test(id)) return id;
  }
  return idString(candidates[0] ?? p.id);
}

/** the author as a user, or null (unknown author) when it cannot be read */
function author(v: unknown): unknown {
  const user = normalizeUser(v);
  return hasId(user) ? user : null;
}

/** whether every value in `v` is empty: "", 0, false, null, [] or an object of such (a deleted post) */
function allEmpty(v: unknown, depth = 0): boolean {
  if (v === null || v === undefined || v === '' || v === 0 || v === false) return true;
  if (depth > 3) return false;
  if (Array.isArray(v)) return v.every((x) => allEmpty(x, depth + 1));
  if (isObject(v)) return Object.values(v).every((x) => allEmpty(x, depth + 1));
  return false;
}

/** a deleted post's fields that are still filled in and yet say nothing of it */
const SAYS_NOTHING = new Set(['type', 'id', 'source', 'conversationId']);

function isBlank(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
}

function nonEmptyText(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v : null;
}

/**
 * A quoted post: read as a post; one whose id cannot be read (a deleted post's empty strings, an
 * unreadable object) becomes an `UnavailablePost`; none (null, "", `{}`, another type) is null.
 */
function quoted(v: unknown, depth: number): unknown {
  if (!isObject(v) || Object.keys(v).length === 0 || depth >= MAX_DEPTH) return null;
  const post = normalizePost(v, depth + 1);
  // an id alone does not make a readable post: a deleted one keeps its id and nothing else that says anything
  if (hasId(post) && !(isBlank(v.text ?? v.full_text) && isBlank(v.createdAt) && allEmpty(v.author))) return post;
  const who = isObject(v.author) ? (v.author.userName ?? v.author.screen_name) : undefined;
  const stand: UnavailablePost = {
    type: 'unavailable',
    id: hasId(post) ? post.id : null,
    text: nonEmptyText(v.text ?? v.full_text),
    userName: nonEmptyText(who),
    reason: Object.entries(v).every(([k, x]) => SAYS_NOTHING.has(k) || allEmpty(x)) ? 'empty' : 'unreadable',
  };
  return stand;
}

/**
 * A retweet's original (the live service's `retweeted_tweet`): read as a post, or null when it is
 * none (then the wrapper is shown as it is; the raw item keeps whatever came).
 */
function retweeted(v: unknown, depth: number): unknown {
  if (!isObject(v) || depth >= MAX_DEPTH) return null;
  const original = normalizePost(v, depth + 1);
  return hasId(original) ? original : null;
}

/** the valid entries of a list; the list itself when all are (a reader never changes it, so it can be shared) */
function keepValid(v: unknown, valid: Check): unknown[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const list: unknown[] = v;
  for (let i = 0; i < list.length; i++) {
    if (!valid(list[i])) return list.filter((x) => valid(x));
  }
  return list;
}

const ENTITY_LISTS: ReadonlyArray<[string, Check]> = [
  ['hashtags', validatorOf(TagEntity)],
  ['symbols', validatorOf(TagEntity)],
  ['urls', validatorOf(UrlEntity)],
  ['user_mentions', validatorOf(UserMentionEntity)],
  ['media', validatorOf(MediaEntity)],
];
const validMedia = validatorOf(MediaEntity);

/**
 * The entities with only valid entries in their lists, and spec media built from
 * `extendedEntities` when the spec's list is empty. When nothing is to change (the
 * common case), the object itself: readers never change what they keep.
 */
function entities(v: unknown, extended: unknown): Obj | null {
  const extMedia = isObject(extended) && Array.isArray(extended.media) ? extended.media : [];
  if (!isObject(v)) {
    if (extMedia.length === 0) return null;
  } else if (extMedia.length === 0 || (Array.isArray(v.media) && v.media.length > 0)) {
    let same = true;
    for (const [name, valid] of ENTITY_LISTS) {
      if (!(name in v)) continue;
      const list = v[name];
      if (!Array.isArray(list) || keepValid(list, valid) !== list) {
        same = false;
        break;
      }
    }
    if (same) return v;
  }
  const out: Obj = isObject(v) ? { ...v } : {};
  for (const [name, valid] of ENTITY_LISTS) {
    if (name in out) {
      const kept = keepValid(out[name], valid);
      if (kept === undefined) delete out[name];
      else out[name] = kept;
    }
  }
  const specMedia = Array.isArray(out.media) ? out.media : [];
  if (specMedia.length === 0 && extMedia.length > 0) {
    out.media = extMedia.map(mediaFromExtended).filter((m): m is Obj => m !== null && validMedia(m));
  }
  return out;
}
