/**
 * Pseudonyms by a keyed hash (HMAC-SHA-256 over the kind and the value): the same key gives the same pseudonym
 * in every export, another key others, and nobody without the key can go back or test a guess. Covers post and
 * account ids, handles and names — in their fields and inside texts (@mentions, bare handles, names, ids in
 * links). Accounts at or above a follower threshold may keep theirs (public figures); opted-out accounts'
 * mentions become `@[removed]` in any case. The key itself never leaves this module's closure.
 */
import { createHmac } from 'node:crypto';

/** An account the texts may name, as the sample's items tell it. */
export interface KnownAccount {
  id: string | null;
  handle: string | null;
  name: string | null;
  followers: number | null;
}

export interface PseudonymOptions {
  /** accounts with at least this many followers keep their id, handle and name; absent: none does */
  publicFigureFollowers?: number;
  /** handles (lower case) and ids of opted-out accounts: their mentions become `@[removed]` */
  optedOut: { handles: ReadonlySet<string>; ids: ReadonlySet<string> };
}

export interface Pseudonymiser {
  postId: (id: string) => string;
  userId: (id: string) => string;
  handle: (handle: string) => string;
  name: (name: string) => string;
  /** a text with every id, handle, name and @mention it holds replaced */
  text: (text: string) => string;
  /** the key's fingerprint: an HMAC of a fixed text, to tell two keys apart without showing either */
  fingerprint: string;
  /** whether this account keeps its own id, handle and name */
  exempt: (account: { id?: string | null; handle?: string | null }) => boolean;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function createPseudonymiser(
  key: string,
  accounts: readonly KnownAccount[],
  options: PseudonymOptions,
): Pseudonymiser {
  const mac = (kind: string, value: string) => createHmac('sha256', key).update(`${kind}\u0000${value}`).digest('hex');
  const threshold = options.publicFigureFollowers;
  const publicIds = new Set<string>();
  const publicHandles = new Set<string>();
  const publicNames = new Set<string>();
  if (threshold !== undefined)
    for (const a of accounts)
      if (a.followers !== null && a.followers >= threshold) {
        if (a.id) publicIds.add(a.id);
        if (a.handle) publicHandles.add(a.handle.toLowerCase());
        if (a.name) publicNames.add(a.name);
      }
  const removed = (handle: string) => options.optedOut.handles.has(handle.toLowerCase());

  const p: Omit<Pseudonymiser, 'text'> = {
    postId: (id) => `p_${mac('post', id).slice(0, 16)}`,
    userId: (id) => (publicIds.has(id) ? id : `u_${mac('user', id).slice(0, 16)}`),
    handle: (handle) =>
      publicHandles.has(handle.toLowerCase()) ? handle : `user_${mac('handle', handle.toLowerCase()).slice(0, 12)}`,
    name: (name) => (publicNames.has(name) ? name : `Person ${mac('name', name).slice(0, 8).toUpperCase()}`),
    fingerprint: mac('fingerprint', 'skein pseudonymisation key').slice(0, 16),
    exempt: (a) =>
      (a.id ? publicIds.has(a.id) : false) || (a.handle ? publicHandles.has(a.handle.toLowerCase()) : false),
  };

  // every name and handle the sample knows of, longest first (a name that holds another is replaced whole)
  const names = [...new Set(accounts.flatMap((a) => (a.name && a.name.trim().length >= 2 ? [a.name.trim()] : [])))]
    .filter((n) => !publicNames.has(n))
    .sort((a, b) => b.length - a.length);
  const handles = [...new Set(accounts.flatMap((a) => (a.handle ? [a.handle] : [])))]
    .filter((h) => !publicHandles.has(h.toLowerCase()))
    .sort((a, b) => b.length - a.length);
  const ids = [...new Set(accounts.flatMap((a) => (a.id && !publicIds.has(a.id) ? [a.id] : [])))];
  const nameRe = names.length
    ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${names.map(escape).join('|')})(?![\\p{L}\\p{N}])`, 'giu')
    : null;
  const handleRe = handles.length
    ? new RegExp(`(?<![A-Za-z0-9_@])(?:${handles.map(escape).join('|')})(?![A-Za-z0-9_])`, 'gi')
    : null;
  const nameByLower = new Map(names.map((n) => [n.toLowerCase(), n]));
  const idSet = new Set(ids);

  return {
    ...p,
    text(input) {
      // first the long digit runs (before any pseudonym, whose hex may hold digits): an id in a link
      // (…/status/123…) is a post's, one the sample knows as an account's id is a user's
      let out = input.replace(/(?<![A-Za-z0-9_])\d{6,25}(?![A-Za-z0-9_])/g, (d) =>
        idSet.has(d) ? p.userId(d) : p.postId(d),
      );
      out = out.replace(/@([A-Za-z0-9_]{1,50})/g, (_m, h: string) => (removed(h) ? '@[removed]' : `@${p.handle(h)}`));
      if (handleRe) out = out.replace(handleRe, (h) => (removed(h) ? '[removed]' : p.handle(h)));
      if (nameRe) out = out.replace(nameRe, (n) => p.name(nameByLower.get(n.toLowerCase()) ?? n));
      return out;
    },
  };
}
