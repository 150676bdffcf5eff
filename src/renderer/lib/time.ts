/**
 * Dates as people read them ("5m", "Mar 5", absolute local time on hover). The API's own format is read by
 * `parseApiDate` (src/shared/api/dates.ts).
 */
import { dateTimeFormat } from '../../shared/intl-cache';

/** what Date#toLocaleString says of an invalid date (Intl formatters throw instead) */
const INVALID = 'Invalid Date';
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Short relative time: "now", "42s", "5m", "3h", "6d", then a date
 * ("Mar 5", or "Mar 5, 2023" in another year). Future times (clock skew) read "now".
 */
export function relativeTime(at: number, now: number, locale?: string): string {
  const diff = now - at;
  if (diff < 5 * SECOND) return 'now';
  if (diff < MINUTE) return `${Math.floor(diff / SECOND)}s`;
  if (diff < HOUR) return `${Math.floor(diff / MINUTE)}m`;
  if (diff < DAY) return `${Math.floor(diff / HOUR)}h`;
  if (diff < 7 * DAY) return `${Math.floor(diff / DAY)}d`;
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return INVALID;
  const sameYear = d.getFullYear() === new Date(now).getFullYear();
  return dateTimeFormat(
    locale,
    sameYear ? { month: 'short', day: 'numeric' } : { month: 'short', day: 'numeric', year: 'numeric' },
  ).format(d);
}

/** Absolute local date and time, for tooltips and `<time>` titles. */
export function absoluteTime(at: number, locale?: string): string {
  return Number.isFinite(at)
    ? dateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' }).format(at)
    : INVALID;
}

/** "14:02:10" in local time, for "wait until …". */
export function clockTime(at: number, locale?: string): string {
  return Number.isFinite(at)
    ? dateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false }).format(at)
    : INVALID;
}

/**
 * When something was collected, kept or recorded, the one way the app writes it: "2026-11-28 16:16 UTC". UTC, as
 * the files and manifests say it, so a time on screen reads the same as the same time in an export.
 */
export function stamp(at: number): string {
  return Number.isFinite(at) ? `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC` : INVALID;
}
