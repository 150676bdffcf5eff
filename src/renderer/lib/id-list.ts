/**
 * Id lists as people paste them: separated by commas, spaces or newlines,
 * mixed with post URLs. Returns unique ids in order, and what could not be read.
 */
export interface ParsedIds {
  ids: string[];
  /** tokens that are neither an id nor (for posts) a post URL */
  invalid: string[];
  /** how many repeated ids were dropped */
  repeated: number;
}

const NUMERIC = /^\d{1,25}$/;
const STATUS_URL = /\/status(?:es)?\/(\d{1,25})(?:[/?#]|$)/;

export function parseIdList(text: string, kind: 'posts' | 'users'): ParsedIds {
  const tokens = text.split(/[\s,;]+/).filter(Boolean);
  const ids: string[] = [];
  const seen = new Set<string>();
  const invalid: string[] = [];
  let repeated = 0;
  for (const raw of tokens) {
    const token = raw.replace(/^["'([]+|["')\]]+$/g, '');
    let id: string | null = null;
    if (NUMERIC.test(token)) id = token;
    else if (kind === 'posts') id = STATUS_URL.exec(token)?.[1] ?? null;
    else if (kind === 'users') id = /^(?:https?:\/\/)?[^/]+\/i\/user\/(\d{1,25})$/.exec(token)?.[1] ?? null;
    if (id === null) {
      invalid.push(raw);
      continue;
    }
    if (seen.has(id)) {
      repeated++;
      continue;
    }
    seen.add(id);
    ids.push(id);
  }
  return { ids, invalid, repeated };
}

/** Split into batches of at most `size` (the API's per-call id limit). */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (size < 1) throw new RangeError('chunk size must be at least 1');
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
