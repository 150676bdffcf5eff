/**
 * Times and ids. Every entity has an age (ms before the world's anchor). Its
 * displayed times are `anchor - age`, where the anchor is the sandbox clock
 * at start, floored to the UTC day, so "2 minutes ago" looks live. Its id is
 * snowflake-like and built from a fixed virtual epoch minus the same age, so
 * ids do not move with the clock: the same seed gives the same ids on any day.
 * Ids are 18-19 digits, all above 2^53 (a JSON number would corrupt them).
 */
export const DAY_MS = 86_400_000;
export const YEAR_MS = 365 * DAY_MS;

/** 2026-01-01T00:00:00Z: the virtual "now" ids are made from */
const VIRTUAL_NOW = 1_767_225_600_000n;
/** the platform's snowflake epoch (2010-11-04) */
const SNOWFLAKE_EPOCH = 1_288_834_974_657n;
const SEQUENCE_BITS = 22n;
const SEQUENCE_MASK = (1 << 22) - 1;

/** A snowflake-like id for something `ageMs` old; `sequence` (< 2^22) keeps ids unique. */
export function snowflake(ageMs: number, sequence: number): string {
  const ms = VIRTUAL_NOW - BigInt(Math.round(ageMs)) - SNOWFLAKE_EPOCH;
  return ((ms << SEQUENCE_BITS) | BigInt(sequence & SEQUENCE_MASK)).toString();
}

/** When an id's post was made, relative to the anchor (`anchor + offset` is its time): `snowflake`'s inverse. */
export function snowflakeOffset(id: string): number {
  return Number((BigInt(id) >> SEQUENCE_BITS) + SNOWFLAKE_EPOCH - VIRTUAL_NOW);
}

/** The sequence bits of an id, or -1 when it is not a plausible id. */
export function sequenceOf(id: string): number {
  if (!/^\d{1,20}$/.test(id)) return -1;
  return Number(BigInt(id) & BigInt(SEQUENCE_MASK));
}

export function dayAnchor(nowMs: number): number {
  return Math.floor(nowMs / DAY_MS) * DAY_MS;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** The spec's format: `Sun Nov 22 02:13:21 +0000 2026` */
export function formatCreatedAt(epochMs: number): string {
  const d = new Date(epochMs);
  return `${WEEKDAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(
    d.getUTCMinutes(),
  )}:${two(d.getUTCSeconds())} +0000 ${d.getUTCFullYear()}`;
}
