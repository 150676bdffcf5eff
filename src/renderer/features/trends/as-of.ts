/**
 * "Trending worldwide as of 00:40 UTC": the live trends' own time and place (their `metadata`), said in
 * UTC as the service keeps it, with the date when it is not today's (UTC).
 */
import type { AnswerSnapshot } from '../../../shared/ipc/api';

const two = (n: number) => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "00:40 UTC", or "7 Oct 2025, 00:40 UTC" on another UTC day than `now`'s */
export function utcClock(at: number, now: number): string {
  const d = new Date(at);
  const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
  if (new Date(now).toISOString().slice(0, 10) === d.toISOString().slice(0, 10)) return time;
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${time}`;
}

/** the sentence, or null when the answer said neither its time nor its place */
export function trendingAsOf(snapshot: AnswerSnapshot | undefined, now: number): string | null {
  if (!snapshot) return null;
  const name = snapshot.place?.name;
  const where = !name ? 'Trending' : /^worldwide$/i.test(name) ? 'Trending worldwide' : `Trending in ${name}`;
  const when = snapshot.asOf === null ? '(the service gave no time)' : `as of ${utcClock(snapshot.asOf, now)}`;
  return `${where} ${when}`;
}

/** "renewed every 5 minutes" */
export function refreshNote(snapshot: AnswerSnapshot | undefined): string | null {
  const ms = snapshot?.refreshIntervalMs;
  if (!ms) return null;
  const minutes = ms / 60_000;
  return Number.isInteger(minutes)
    ? `renewed every ${minutes} minute${minutes === 1 ? '' : 's'}`
    : `renewed every ${Math.round(ms / 1000)} s`;
}
