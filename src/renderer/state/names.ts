/**
 * Names the user has seen for things the API cannot name by id: a list has no "list info" operation, so
 * the name shown where the user came from (a list's card) is carried to the view it opens. UI memory only,
 * for this window's session (sessionStorage survives a reload); never server data.
 */
import { create } from 'zustand';

export type NamedKind = 'list';

const STORAGE_KEY = 'skein:seen-names';
const MAX_NAMES = 200;
/** code points kept of a name: a heading, not a document */
const MAX_LENGTH = 120;

interface NamesState {
  names: Record<string, string>;
  remember: (kind: NamedKind, id: string, name: string) => void;
}

const keyOf = (kind: NamedKind, id: string) => `${kind}:${id}`;

function load(): Record<string, string> {
  try {
    const raw = typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') out[k] = v;
    return out;
  } catch {
    return {};
  }
}

function save(names: Record<string, string>): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(names));
  } catch {
    // storage full or unavailable: the names stay for this page only
  }
}

/** A name as it may be shown: one line, trimmed, at most MAX_LENGTH code points; null when nothing is left. */
function cleanName(name: string): string | null {
  const line = name.replace(/\s+/g, ' ').trim();
  if (!line) return null;
  const points = [...line];
  return points.length > MAX_LENGTH ? `${points.slice(0, MAX_LENGTH - 1).join('')}…` : line;
}

export const useNames = create<NamesState>()((set) => ({
  names: load(),
  remember: (kind, id, name) =>
    set((s) => {
      const clean = cleanName(name);
      const key = keyOf(kind, id);
      if (!clean || s.names[key] === clean) return s;
      const next = { ...s.names };
      delete next[key];
      next[key] = clean;
      const keys = Object.keys(next);
      for (const k of keys.slice(0, Math.max(0, keys.length - MAX_NAMES))) delete next[k];
      save(next);
      return { names: next };
    }),
}));

/** The name in `names` for this kind and id (own entries only), if any. */
export function nameIn(names: Record<string, string>, kind: NamedKind, id: string): string | null {
  const key = keyOf(kind, id);
  return Object.hasOwn(names, key) ? (names[key] ?? null) : null;
}

/** The name the user saw for this list (or other kind), if any. */
export function useSeenName(kind: NamedKind, id: string): string | null {
  return useNames((s) => nameIn(s.names, kind, id));
}
