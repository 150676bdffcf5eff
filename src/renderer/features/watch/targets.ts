/**
 * A watch's targets as a person writes them: for accounts, numeric ids, `@handles` and profile links
 * (https://x.com/name), mixed, one per line or separated by commas or spaces — read the one way Skein reads ids
 * everywhere (`shared/ids/id-token.ts`). Handles are resolved to ids before the watch is switched on (one
 * people search each, its cost shown first); the watch keeps each id with the handle it was given as.
 * For the other kinds, each token is checked against what a target of that kind looks like. Pure.
 */
import { readIdToken } from '../../../shared/ids/id-token';
import type { WatchKind } from '../../../shared/ipc/watch';

/** What resolving a handle gave: its account's id, or why not (in plain words). */
export type Resolution = { id: string } | { missing: string };

/** Resolutions kept by handle (lower case: handles are not case-sensitive). */
export type Resolutions = Readonly<Record<string, Resolution>>;

export interface TargetsRead {
  /** the ids a watch reads, each once, in the order given */
  ids: string[];
  /** id → the handle it was given as (accounts resolved from a handle or a profile link) */
  handles: Record<string, string>;
  /** handles not resolved yet (each once), as given without @ */
  unresolved: string[];
  /** handles that resolve to no account, with why */
  missing: Array<{ handle: string; why: string }>;
  /** what is not a target at all, as given (shortened), with why */
  bad: Array<{ token: string; why: string }>;
  /** targets given more than once (kept once) */
  duplicates: number;
}

/** the most of a token shown back: pasted junk can be long */
const SHOWN = 40;
const shown = (t: string) => (t.length > SHOWN ? `${t.slice(0, SHOWN)}…` : t);

/** What one target of each other kind looks like, and how it is said when it is not. */
const OTHER: Record<Exclude<WatchKind, 'accounts'>, { pattern: RegExp; why: string }> = {
  mentions: { pattern: /^[A-Za-z0-9_]{1,15}$/, why: 'not a handle' },
  list: { pattern: /^\d{1,25}$/, why: 'not a list id (digits only)' },
  replies: { pattern: /^\d{1,25}$/, why: 'not a post id (digits only)' },
  quotes: { pattern: /^\d{1,25}$/, why: 'not a post id (digits only)' },
  community: { pattern: /^\d{1,25}$/, why: 'not a community id (digits only)' },
  trends: { pattern: /^\d{1,10}$/, why: 'not a Where On Earth id (digits only)' },
  space: { pattern: /^[A-Za-z0-9_-]{1,64}$/, why: 'not a space id' },
};

/** The tokens as typed: one per line, or separated by spaces or commas. */
export function tokens(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((t) => t.trim())
    .filter(Boolean);
}

export function readTargets(text: string, kind: WatchKind, resolutions: Resolutions = {}): TargetsRead {
  const out: TargetsRead = { ids: [], handles: {}, unresolved: [], missing: [], bad: [], duplicates: 0 };
  const seen = new Set<string>();
  const once = (key: string): boolean => {
    if (seen.has(key)) {
      out.duplicates++;
      return false;
    }
    seen.add(key);
    return true;
  };
  for (const token of tokens(text)) {
    if (kind !== 'accounts') {
      const other = OTHER[kind];
      // a mention's handle may come as @name or a profile link too
      const read = kind === 'mentions' ? readIdToken(token, 'users') : null;
      const value = read?.kind === 'handle' ? read.handle : token;
      if (!other.pattern.test(value)) out.bad.push({ token: shown(token), why: other.why });
      else if (once(value.toLowerCase())) out.ids.push(value);
      continue;
    }
    const read = readIdToken(token, 'users');
    if (read.kind === 'id') {
      if (once(read.id)) out.ids.push(read.id);
    } else if (read.kind === 'handle') {
      const key = read.handle.toLowerCase();
      const r = resolutions[key];
      if (r && 'id' in r) {
        if (once(r.id) && once(key)) {
          out.ids.push(r.id);
          out.handles[r.id] = read.handle;
        }
      } else if (!once(key)) continue;
      else if (r) out.missing.push({ handle: read.handle, why: r.missing });
      else out.unresolved.push(read.handle);
    } else out.bad.push({ token: shown(token), why: read.why });
  }
  return out;
}

/**
 * What is wrong with the targets, in plain words naming the field (null: nothing): what is not a target, and the
 * handles no account has.
 */
export function targetsProblem(read: TargetsRead): string | null {
  const said: string[] = [];
  if (read.bad.length > 0)
    said.push(
      `Targets: ${read.bad
        .slice(0, 5)
        .map((b) => `“${b.token}” is ${b.why}`)
        .join('; ')}${read.bad.length > 5 ? `; and ${read.bad.length - 5} more` : ''}.`,
    );
  if (read.missing.length > 0)
    said.push(
      `No account found for ${read.missing.map((m) => `@${m.handle}`).join(', ')}: correct ${read.missing.length === 1 ? 'it' : 'them'} or take ${read.missing.length === 1 ? 'it' : 'them'} out of Targets.`,
    );
  return said.length > 0 ? said.join(' ') : null;
}

/** A target as the card says it: "@name" when it was given as a handle, else its id. */
export function targetLabel(id: string, handles: Readonly<Record<string, string>>): string {
  const h = handles[id];
  return h ? `@${h}` : id;
}
