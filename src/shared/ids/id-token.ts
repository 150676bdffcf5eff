/**
 * One id-list token as people and spreadsheets write it, read the one way Skein reads ids everywhere (Look up
 * and the id import): Skein's own spreadsheet cells (`="123"`) and surrounding quotes are unwrapped; ids a
 * spreadsheet damaged (`1.23E+18`, a decimal) are refused with the reason; for users, `@handles` and profile
 * URLs are handles to resolve; for posts, post URLs give their id.
 *
 * Rounding (15 significant digits, then zeros) is judged over the whole list (`RoundedIds`), not per token:
 * about one genuine 19-digit id in 10,000 (one 18-digit id in 1,000) ends in zeros past its 15th digit, and a
 * spreadsheet rounds every number of a column. So such an id is refused when the list's other long bare numbers
 * look rounded too (or are too few to tell), and accepted among many long ids with all their digits.
 */
export type IdKind = 'posts' | 'users';

export type TokenRead =
  /**
   * `bareLong`: bare digits beyond a spreadsheet's 15 (not a `="…"` cell, a URL or known text), the numbers a
   * spreadsheet would have rounded; `rounded`: one of those that looks rounded — the list decides (`RoundedIds`)
   */
  | { kind: 'id'; id: string; bareLong?: true; rounded?: true }
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

/**
 * Whether an id has the shape a spreadsheet leaves (15 significant digits, then zeros). The list's verdict
 * (`RoundedIds`) accepts such ids among many intact ones; one that is then asked for and not returned is more
 * likely damaged than deleted, so it is reported apart (`MAYBE_ROUNDED`), never as a deleted post.
 */
export function looksRounded(id: string): boolean {
  return ROUNDED.test(id);
}

/** Why an id that looks rounded did not come back. */
export const MAYBE_ROUNDED =
  'not returned, and it may be a spreadsheet-rounded id (15 significant digits, then zeros), not a deleted post: check it against the original list';

const ROUNDED_WHY =
  'rounded by a spreadsheet (15 digits, then zeros): the real id is lost; export the column as text and paste again';

/** Why an id-looking token was damaged by a spreadsheet, or null. */
function spreadsheetDamage(token: string): string | null {
  if (SCIENTIFIC.test(token))
    return 'scientific notation: a spreadsheet turned the id into a rounded number; export the column as text and paste again';
  if (DECIMAL.test(token) && token.replace(/[.,]\d+$/, '').length > 15)
    return 'written as a decimal number by a spreadsheet: the last digits are lost; export the column as text and paste again';
  return null;
}

/** Skein's own spreadsheet cells (`="123"`, also as a quoted CSV field): text, which a spreadsheet never rounds. */
const TEXT_CELL = /^"?="+(\d+)"+$/;

/** Quotes or brackets around a token. */
function unwrapToken(raw: string): string {
  return raw
    .trim()
    .replace(/^["'([]+|["')\]]+$/g, '')
    .trim();
}

/**
 * `text`: the token is known to be text (a JSON string), never a number a spreadsheet held, so never rounded.
 */
export function readIdToken(raw: string, kind: IdKind, text = false): TokenRead {
  const cell = TEXT_CELL.exec(raw.trim())?.[1];
  const token = cell ?? unwrapToken(raw);
  if (token === '') return { kind: 'invalid', why: 'empty' };
  const damage = spreadsheetDamage(token);
  if (damage) return { kind: 'damaged', why: damage };
  if (NUMERIC.test(token)) {
    if (cell !== undefined || text || token.length <= 15) return { kind: 'id', id: token };
    return ROUNDED.test(token)
      ? { kind: 'id', id: token, bareLong: true, rounded: true }
      : { kind: 'id', id: token, bareLong: true };
  }
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

/** Held ids past this many are refused without waiting (no genuine list has that many ending in zeros). */
const MAX_HELD = 100_000;

interface Held<T> {
  item: T;
  id: string;
  /** given to the list as new (not a repeat) */
  fresh: boolean;
  /** the same id came again in a form no spreadsheet rounds (a text cell): it stays whatever the verdict */
  confirmed: boolean;
}

/** What a refusing verdict undoes: the ids to take back out of the list, and the held ones counted as repeats. */
export interface RoundedVerdict {
  withdrawn: Set<string>;
  repeats: number;
}

/**
 * The list's verdict on ids that look rounded by a spreadsheet: they are genuine when the list's other long bare
 * numbers keep all their digits (the column was not rounded) and they are no more than 1 in 100 of them (chance
 * gives 1 in 1,000 to 1 in 10,000); otherwise each is refused as rounded. Every id read goes through `take`, which
 * gives it to the list at once, in its place (a list keeps the order it was given in), then `settle` says what a
 * refusal takes back.
 */
export class RoundedIds<T> {
  private long = 0;
  private total = 0;
  private readonly held: Held<T>[] = [];
  private readonly fresh = new Map<string, Held<T>>();

  /**
   * An id read: `accept` (true: new to the list, false: a repeat) is called at once, unless the id looks rounded
   * and too many such are held already (then it is refused at once).
   */
  take(
    read: Extract<TokenRead, { kind: 'id' }>,
    item: T,
    accept: (id: string) => boolean,
    refuse: (item: T, why: string) => void,
  ): void {
    if (read.bareLong) this.long++;
    if (!read.rounded) {
      if (!accept(read.id)) {
        const earlier = this.fresh.get(read.id);
        if (earlier) earlier.confirmed = true;
      }
      return;
    }
    this.total++;
    if (this.held.length >= MAX_HELD) return refuse(item, ROUNDED_WHY);
    const held: Held<T> = { item, id: read.id, fresh: accept(read.id), confirmed: false };
    this.held.push(held);
    if (held.fresh) this.fresh.set(read.id, held);
  }

  /**
   * The verdict. Genuine: nothing to undo. Otherwise each held id is refused with the reason, and the caller
   * takes back what it counted as if it had waited: the ids it took as new (none came again unrounded), and the
   * others it counted as repeats.
   */
  settle(refuse: (item: T, why: string) => void): RoundedVerdict {
    const genuine = this.total < MAX_HELD && this.long > this.total && this.total <= this.long / 100;
    const verdict: RoundedVerdict = { withdrawn: new Set(), repeats: 0 };
    for (const held of this.held.splice(0)) {
      if (genuine) continue;
      if (held.fresh && !held.confirmed) verdict.withdrawn.add(held.id);
      else verdict.repeats++;
      refuse(held.item, ROUNDED_WHY);
    }
    this.fresh.clear();
    this.long = 0;
    this.total = 0;
    return verdict;
  }
}

/** Why an id a batch lookup asked for did not come back, as far as the service tells: it says nothing of them. */
export const NOT_RETURNED = 'not returned (deleted, protected or suspended)';

/** The same in demo mode, where most such ids were never in the generated world (an id list from elsewhere). */
export const NOT_IN_DEMO =
  'not in the demo world (its posts and accounts are generated; ids from elsewhere are not in it)';
