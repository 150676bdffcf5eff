/**
 * One id-list token as people and spreadsheets write it, read the one way Skein reads ids everywhere (Look up
 * and the id import): Skein's own spreadsheet cells (`="123"`) and surrounding quotes are unwrapped; ids a
 * spreadsheet damaged (`1.23E+18`, or rounded to 15 significant digits then zeros) are refused with the
 * reason; for users, `@handles` and profile URLs are handles to resolve; for posts, post URLs give their id.
 */
export type IdKind = 'posts' | 'users';

export type TokenRead =
  | { kind: 'id'; id: string }
  | { kind: 'handle'; handle: string }
  | { kind: 'damaged'; why: string }
  | { kind: 'invalid'; why: string };

/** 64-bit ids have up to 19 digits (20 for an unsigned one) and never a leading zero. */
const NUMERIC = /^[1-9]\d{0,19}$/;
const STATUS_URL = /\/status(?:es)?\/(\d{1,20})(?:[/?#]|$)/;
const USER_ID_URL = /^(?:https?:\/\/)?[^/]+\/i\/user\/(\d{1,20})$/;
/** How the social site writes a handle: 1–15 letters, digits or underscores. */
export const HANDLE = /^[A-Za-z0-9_]{1,15}$/;
const PROFILE_URL =
  /^(?:https?:\/\/)?(?:(?:www|mobile)\.)?(?:x\.com|twitter\.com|social\.example)\/([A-Za-z0-9_]{1,15})\/?(?:[?#].*)?$/i;
/** Paths of the social site that are not profiles. */
const RESERVED: ReadonlySet<string> = new Set([
  'i',
  'home',
  'search',
  'explore',
  'notifications',
  'messages',
  'settings',
  'intent',
  'share',
  'hashtag',
  'compose',
]);

/** A URL path's first segment (or a pasted token) that names a profile: a handle, not one of the site's pages. */
export function isProfileHandle(name: string): boolean {
  return HANDLE.test(name) && !RESERVED.has(name.toLowerCase());
}
/** `1.23457E+18`, `1,23E+18`: what Excel shows for a long number */
const SCIENTIFIC = /^\d+(?:[.,]\d+)?e\+?\d+$/i;
/** a spreadsheet keeps 15 significant digits and fills the rest with zeros */
const ROUNDED = /^[1-9]\d{14}0{3,}$/;
/** `1.23457E+18` written out in full by a spreadsheet: `1234570000000000000.00` */
const DECIMAL = /^\d+[.,]\d+$/;

/** Why an id-looking token was damaged by a spreadsheet, or null. */
function spreadsheetDamage(token: string): string | null {
  if (SCIENTIFIC.test(token))
    return 'scientific notation: a spreadsheet turned the id into a rounded number; export the column as text and paste again';
  if (ROUNDED.test(token))
    return 'rounded by a spreadsheet (15 digits, then zeros): the real id is lost; export the column as text and paste again';
  if (DECIMAL.test(token) && token.replace(/[.,]\d+$/, '').length > 15)
    return 'written as a decimal number by a spreadsheet: the last digits are lost; export the column as text and paste again';
  return null;
}

/** Skein's own spreadsheet cells (`="123"`, also as a quoted CSV field) and quotes or brackets around a token. */
function unwrapToken(raw: string): string {
  return raw
    .trim()
    .replace(/^"?="+(\d+)"+$/, '$1')
    .replace(/^["'([]+|["')\]]+$/g, '')
    .trim();
}

export function readIdToken(raw: string, kind: IdKind): TokenRead {
  const token = unwrapToken(raw);
  if (token === '') return { kind: 'invalid', why: 'empty' };
  const damage = spreadsheetDamage(token);
  if (damage) return { kind: 'damaged', why: damage };
  if (NUMERIC.test(token)) return { kind: 'id', id: token };
  if (/^\d+$/.test(token))
    return {
      kind: 'invalid',
      why: token.startsWith('0') ? 'starts with 0: ids never do' : `${token.length} digits: longer than any id`,
    };
  if (kind === 'posts') {
    const id = STATUS_URL.exec(token)?.[1];
    if (id && NUMERIC.test(id)) return { kind: 'id', id };
    return { kind: 'invalid', why: 'not a post id or a post URL' };
  }
  const id = USER_ID_URL.exec(token)?.[1];
  if (id && NUMERIC.test(id)) return { kind: 'id', id };
  const handle = token.startsWith('@') ? token.slice(1) : (PROFILE_URL.exec(token)?.[1] ?? token);
  if (isProfileHandle(handle)) return { kind: 'handle', handle };
  return { kind: 'invalid', why: 'not a user id, an @handle or a profile URL' };
}
