/**
 * Id lists as people paste them: separated by commas, spaces or newlines,
 * mixed with post URLs (and, for users, @handles and profile URLs). Skein's
 * own spreadsheet cells (`="123"`) are read back; ids a spreadsheet damaged
 * (`1.23E+18`, or rounded to 15 digits then zeros) are refused before any call.
 */
import { isProfileHandle } from './handles';

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

const NUMERIC = /^\d{1,25}$/;
const STATUS_URL = /\/status(?:es)?\/(\d{1,25})(?:[/?#]|$)/;
const PROFILE_URL =
  /^(?:https?:\/\/)?(?:(?:www|mobile)\.)?(?:x\.com|twitter\.com|social\.example)\/([A-Za-z0-9_]{1,15})\/?(?:[?#].*)?$/i;
/** `1.23457E+18`, `1,23E+18`: what Excel shows for a long number */
const SCIENTIFIC = /^\d+(?:[.,]\d+)?e\+?\d+$/i;
/** 64-bit ids have up to 19 digits; a spreadsheet keeps 15 significant ones and fills the rest with zeros */
const ROUNDED = /^[1-9]\d{14}0{3,}$/;

/** Why an id-looking token was damaged by a spreadsheet, or null. */
function spreadsheetDamage(token: string): string | null {
  if (SCIENTIFIC.test(token))
    return 'scientific notation: a spreadsheet turned the id into a rounded number; export the column as text and paste again';
  if (ROUNDED.test(token))
    return 'rounded by a spreadsheet (15 digits, then zeros): the real id is lost; export the column as text and paste again';
  return null;
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
  for (const raw of tokens) {
    // Skein's own spreadsheet cells: ="1234567890123456789" (as typed, or as a CSV field)
    const token = raw.replace(/^"?="+(\d+)"+$/, '$1').replace(/^["'([]+|["')\]]+$/g, '');
    const damage = spreadsheetDamage(token);
    if (damage) {
      damaged.push({ token: raw, why: damage });
      continue;
    }
    let id: string | null = null;
    if (NUMERIC.test(token)) id = token;
    else if (kind === 'posts') id = STATUS_URL.exec(token)?.[1] ?? null;
    else if (kind === 'users') id = /^(?:https?:\/\/)?[^/]+\/i\/user\/(\d{1,25})$/.exec(token)?.[1] ?? null;
    if (id === null && kind === 'users') {
      const handle = token.startsWith('@') ? token.slice(1) : (PROFILE_URL.exec(token)?.[1] ?? token);
      if (isProfileHandle(handle)) {
        if (handles.some((h) => h.toLowerCase() === handle.toLowerCase())) repeated++;
        else handles.push(handle);
        continue;
      }
    }
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
  return { ids, invalid, repeated, handles, damaged };
}

/** Split into batches of at most `size` (the API's per-call id limit). */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (size < 1) throw new RangeError('chunk size must be at least 1');
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
