/**
 * What the coding files read of a raw item (as the project keeps it): a post's text (a repost's original in
 * full), its author and every account it names; an account's id, handle, name, followers and bio. Tolerant of
 * the live service's variants (api-field-notes.md): any shape in, nulls out.
 */
import type { KnownAccount } from './pseudonym';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** An account as a raw user object (or a post's author) names it. */
export function readAccount(raw: unknown): KnownAccount & { bio: string | null } {
  const u = obj(raw) ?? {};
  const id = str(u.id) ?? str(u.rest_id) ?? str(u.id_str);
  return {
    // a placeholder id ("0", seen in profile bios' mentions) names nobody
    id: id === '0' ? null : id,
    handle: str(u.userName) ?? str(u.screen_name) ?? str(u.username),
    name: str(u.name),
    followers: num(u.followers) ?? num(u.followers_count),
    bio: str(u.description) ?? str(obj(u.profile_bio)?.description),
  };
}

export interface ReadPost {
  /** the text as read: a repost's original whole (its `text` is cut short) */
  text: string;
  createdAt: string | null;
  author: KnownAccount | null;
  quotedAuthor: KnownAccount | null;
  repostedAuthor: KnownAccount | null;
  /** every account the post names: its author, mentioned, quoted, reposted and answered accounts */
  accounts: KnownAccount[];
}

export function readPost(raw: unknown): ReadPost {
  const p = obj(raw) ?? {};
  const reposted = obj(p.retweeted_tweet);
  const quoted = obj(p.quoted_tweet);
  const author = obj(p.author) ? readAccount(p.author) : null;
  const quotedAuthor = quoted && obj(quoted.author) ? readAccount(quoted.author) : null;
  const repostedAuthor = reposted && obj(reposted.author) ? readAccount(reposted.author) : null;
  const mentions = [p, reposted, quoted].flatMap((x): KnownAccount[] =>
    arr(obj(x?.entities)?.user_mentions).map((m) => {
      const o = obj(m) ?? {};
      const id = str(o.id_str) ?? str(o.id);
      return { id: id === '0' ? null : id, handle: str(o.screen_name), name: str(o.name), followers: null };
    }),
  );
  const answered: KnownAccount[] =
    str(p.inReplyToUsername) !== null || str(p.inReplyToUserId) !== null
      ? [{ id: str(p.inReplyToUserId), handle: str(p.inReplyToUsername), name: null, followers: null }]
      : [];
  return {
    text: (reposted ? str(reposted.text) : null) ?? str(p.text) ?? str(p.full_text) ?? '',
    createdAt: str(p.createdAt),
    author,
    quotedAuthor,
    repostedAuthor,
    accounts: [
      ...[author, quotedAuthor, repostedAuthor].filter((a): a is KnownAccount & { bio: string | null } => a !== null),
      ...mentions,
      ...answered,
    ],
  };
}
