/**
 * Id lists as people paste them: separated by commas, spaces or newlines,
 * mixed with post URLs (and, for users, @handles and profile URLs). Skein's
 * own spreadsheet cells (`="123"`) are read back; ids a spreadsheet damaged
 * (`1.23E+18`, or rounded to 15 digits then zeros, judged over the list) are refused before any call. Each token is read by
 * `shared/ids/id-token.ts`, the one reader of ids (the id import uses it too).
 */
import { readIdToken, RoundedIds } from '../../shared/ids/id-token';
import { missingCaseError } from '../../shared/missing-case';

export interface ParsedIds {
  ids: string[];
  /** tokens that are neither an id nor (for posts) a post URL */
  invalid: string[];
  /** how many repeated ids were dropped */
  repeated: number;
  /** users: handles to resolve (one people search each), without `@`, in order */
  handles: string[];
  /** ids a spreadsheet damaged, and why they are refused */
  damaged: Array<{ token: string; why: string }>;
}

export function parseIdList(text: string, kind: 'posts' | 'users'): ParsedIds {
  // "1,23E+18" (a decimal comma) is one token, not "1" and "23E+18"
  const tokens = text
    .replace(/(\d),(\d+E\+?\d+)/gi, '$1.$2')
    .split(/[\s,;]+/)
    .filter(Boolean);
  const ids: string[] = [];
  const seen = new Set<string>();
  const invalid: string[] = [];
  const handles: string[] = [];
  const damaged: ParsedIds['damaged'] = [];
  let repeated = 0;
  const rounded = new RoundedIds<{ token: string }>();
  const refuse = (held: { token: string }, why: string) => damaged.push({ token: held.token, why });
  const accept = (id: string) => {
    if (seen.has(id)) {
      repeated++;
      return false;
    }
    seen.add(id);
    ids.push(id);
    return true;
  };
  for (const raw of tokens) {
    const read = readIdToken(raw, kind);
    switch (read.kind) {
      case 'damaged':
        damaged.push({ token: raw, why: read.why });
        break;
      case 'invalid':
        invalid.push(raw);
        break;
      case 'handle':
        if (handles.some((h) => h.toLowerCase() === read.handle.toLowerCase())) repeated++;
        else handles.push(read.handle);
        break;
      case 'id':
        rounded.take(read, { token: raw }, accept, refuse);
        break;
      default:
        missingCaseError(read);
    }
  }
  // ids that looked rounded were taken in their places; a refusal takes them back
  const { withdrawn, repeats } = rounded.settle(refuse);
  repeated -= repeats;
  return { ids: withdrawn.size ? ids.filter((id) => !withdrawn.has(id)) : ids, invalid, repeated, handles, damaged };
}

/** Split into batches of at most `size` (the API's per-call id limit). */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (size < 1) throw new RangeError('chunk size must be at least 1');
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
