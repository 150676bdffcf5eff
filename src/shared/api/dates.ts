/**
 * The API's date format (`Sun Nov 22 02:13:21 +0000 2026`, Twitter's `createdAt`), read in one place for the
 * renderer (relative times, thread order) and the exports (ISO columns). Independent of the machine's time zone.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const API_DATE =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) (\d{1,2}) (\d{2}):(\d{2}):(\d{2}) ([+-]\d{4}) (\d{4})$/;

/**
 * Epoch ms of an API date (or an ISO date, or epoch ms); null when unreadable, and for the epoch itself or
 * before it: a 0 (or "Thu Jan 01 00:00:00 +0000 1970") is a placeholder for none, never a date to show.
 */
export function parseApiDate(value: string | number | null | undefined): number | null {
  const t = readApiDate(value);
  return t !== null && t > 0 ? t : null;
}

function readApiDate(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const m = API_DATE.exec(value.trim());
  if (m) {
    const [, mon, day, hh, mm, ss, zone, year] = m as unknown as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const month = MONTHS.indexOf(mon);
    if (month < 0) return null;
    // out-of-range fields (a 99:99:99, a 32nd day, a +9999 offset) would roll over into another date: unreadable
    if (Number(day) < 1 || Number(day) > 31 || Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 60) return null;
    if (Number(zone.slice(1, 3)) > 14 || Number(zone.slice(3, 5)) > 59) return null;
    const sign = zone.startsWith('-') ? -1 : 1;
    const offsetMin = sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5)));
    return Date.UTC(Number(year), month, Number(day), Number(hh), Number(mm), Number(ss)) - offsetMin * 60_000;
  }
  const iso = Date.parse(value);
  return Number.isNaN(iso) ? null : iso;
}
