/**
 * Entries whose shape the spec does not give (list followers, and whatever
 * the community members/moderators or article operations may one day send):
 * recognise a user when an entry looks like one, else lay the entry out as
 * readable key/value rows. Pure and defensive: entries are untrusted.
 */
import { User } from '../../shared/api/schemas';
import { scalarText } from '../../shared/scalar-text';

/** The few facts a person row needs, found under any of the usual names. */
export interface UserLike {
  id: string;
  name: string;
  handle: string;
  avatarUrl: string | null;
  description: string | null;
}

export type EntryView =
  { kind: 'user'; user: User } | { kind: 'userLike'; user: UserLike } | { kind: 'fields'; rows: KeyValueRow[] };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function firstString(objects: readonly unknown[], keys: readonly string[]): string | null {
  for (const o of objects) {
    if (!isRecord(o)) continue;
    for (const k of keys) {
      const v = o[k];
      if (typeof v === 'string' && v.trim()) return v.trim();
      if (typeof v === 'number' && Number.isSafeInteger(v) && k.includes('id')) return String(v);
    }
  }
  return null;
}

const HANDLE = /^@?[A-Za-z0-9_]{1,50}$/;
const ID = /^\d{1,25}$/;

/**
 * A person found in an entry: it needs a numeric id and a handle, under the
 * canonical user's names, the space user's (`rest_id`, `core.screen_name`),
 * or the legacy ones (`id_str`, `screen_name`), possibly wrapped in
 * `user_results.result` or `user`.
 */
export function looksLikeUser(entry: unknown): UserLike | null {
  if (!isRecord(entry)) return null;
  const inner =
    isRecord(entry.user_results) && isRecord(entry.user_results.result)
      ? entry.user_results.result
      : isRecord(entry.user)
        ? entry.user
        : null;
  const layers = [
    entry,
    inner,
    isRecord(inner?.core) ? inner.core : null,
    isRecord(inner?.legacy) ? inner.legacy : null,
    isRecord(entry.core) ? entry.core : null,
    isRecord(entry.legacy) ? entry.legacy : null,
  ];
  const id = firstString(layers, ['id', 'rest_id', 'id_str', 'user_id']);
  const handle = firstString(layers, ['userName', 'screen_name', 'social_screen_name', 'username', 'handle']);
  if (!id || !ID.test(id) || !handle || !HANDLE.test(handle)) return null;
  const avatar = firstString(layers, ['profilePicture', 'profile_image_url_https', 'avatar_url', 'profile_image_url']);
  const nestedAvatar = [entry, inner]
    .map((o) =>
      isRecord(o) && isRecord(o.avatar) && typeof o.avatar.image_url === 'string' ? o.avatar.image_url : null,
    )
    .find(Boolean);
  const url = avatar ?? nestedAvatar ?? null;
  return {
    id,
    handle: handle.replace(/^@/, ''),
    name: firstString(layers, ['name', 'display_name']) ?? handle.replace(/^@/, ''),
    avatarUrl: url && /^https?:\/\//i.test(url) ? url : null,
    description: firstString(layers, ['description']),
  };
}

export interface KeyValueRow {
  /** dotted path, `a.b[0].c` */
  key: string;
  /** the value as text (never HTML) */
  value: string;
}

export interface FlattenOptions {
  maxDepth?: number;
  maxRows?: number;
  maxValueLength?: number;
}

function scalar(v: unknown, max: number): string {
  const s = v === null ? 'null' : scalarText(v, JSON.stringify(v) ?? '');
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** Nested object → rows of `path: value`, bounded in depth, rows and value length. */
export function flattenEntry(entry: unknown, opts: FlattenOptions = {}): KeyValueRow[] {
  const maxDepth = opts.maxDepth ?? 4;
  const maxRows = opts.maxRows ?? 40;
  const maxLen = opts.maxValueLength ?? 200;
  const rows: KeyValueRow[] = [];
  let omitted = 0;
  const push = (key: string, value: string) => {
    if (rows.length < maxRows) rows.push({ key, value });
    else omitted += 1;
  };
  const walk = (v: unknown, path: string, depth: number) => {
    if (Array.isArray(v)) {
      if (v.length === 0) return push(path || '(value)', 'empty list');
      if (depth >= maxDepth) return push(path, `list of ${v.length}`);
      v.forEach((item, i) => walk(item, `${path}[${i}]`, depth + 1));
      return;
    }
    if (isRecord(v)) {
      const keys = Object.keys(v);
      if (keys.length === 0) return push(path || '(value)', 'empty');
      if (depth >= maxDepth) return push(path, `${keys.length} fields`);
      for (const k of keys) walk(v[k], path ? `${path}.${k}` : k, depth + 1);
      return;
    }
    push(path || '(value)', scalar(v, maxLen));
  };
  walk(entry, '', 0);
  if (omitted) rows.push({ key: '…', value: `${omitted} more ${omitted === 1 ? 'field' : 'fields'}` });
  return rows;
}

/** How to show one entry: the app's user card, a person row, or its fields. */
export function entryView(entry: unknown): EntryView {
  const full = User.safeParse(entry);
  if (full.success) return { kind: 'user', user: full.data };
  const like = looksLikeUser(entry);
  if (like) return { kind: 'userLike', user: like };
  return { kind: 'fields', rows: flattenEntry(entry) };
}
