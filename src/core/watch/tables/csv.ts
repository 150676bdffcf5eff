/**
 * The watches' tables as CSV lines (RFC 4180, times as `toISOString` writes them), made in the archive's worker so
 * a page of thousands of rows leaves it as one string instead of one object per row. `csvLine` is the reference:
 * the deltas table's faster line maker gives its bytes for every row, hostile ones included (tested).
 */
import type { DeltaFields, PresenceRecord } from './records';

const iso = (t: number | null): string => (t === null ? '' : new Date(t).toISOString());

/** RFC 4180: quoted only when it holds a comma, a quote or a line break; quotes doubled. */
function cell(v: string | number | null): string {
  if (v === null) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
export const csvLine = (cells: ReadonlyArray<string | number | null>): string => `${cells.map(cell).join(',')}\n`;

/** 0001-01-01T00:00:00.000Z and 10000-01-01T00:00:00.000Z: the times `toISOString` writes with four-digit years */
const FIRST_TIME = -62_135_596_800_000;
const PAST_LAST_TIME = 253_402_300_800_000;
const QUOTED = /[",\r\n]/;
const DAY_MS = 86_400_000;
/** a text cell as `cell` writes it (a number's text never needs quoting) */
const textCell = (s: string): string => (QUOTED.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

/**
 * `toISOString` a table's times are written with, made faster: rows in order share their day, so the date is
 * written once a day and only the time of day each row (whole milliseconds in years 1 to 9999; any other time as
 * `toISOString` writes it).
 */
function isoTimes(): (t: number) => string {
  let day = Number.NaN;
  let date = '';
  return (t) => {
    if (!Number.isInteger(t) || t < FIRST_TIME || t >= PAST_LAST_TIME) return new Date(t).toISOString();
    const d = Math.floor(t / DAY_MS);
    if (d !== day) {
      day = d;
      date = new Date(d * DAY_MS).toISOString().slice(0, 11);
    }
    const ms = t - d * DAY_MS;
    const s = Math.floor(ms / 1000);
    const milli = ms - s * 1000;
    return `${date}${pad2(Math.floor(s / 3600))}:${pad2(Math.floor(s / 60) % 60)}:${pad2(s % 60)}.${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
  };
}

/** `textCell`, remembering the last text it wrote: rows in key order repeat their kind, id and metric */
function lastTextCell(): (s: string) => string {
  let text: string | undefined;
  let written = '';
  return (s) => (s === text ? written : ((text = s), (written = textCell(s))));
}

/**
 * The deltas table's line maker: `deltaLine(kind, id, metric, at, value, previous, previousSeenAt)`, the same
 * bytes as `csvLine` of the cells; one per page (it remembers the day, kind, id and metric it last wrote).
 */
export function deltaLines(): DeltaFields<string> {
  const iso = isoTimes();
  const kindCell = lastTextCell();
  const idCell = lastTextCell();
  const metricCell = lastTextCell();
  return (kind, id, metric, at, value, previous, previousSeenAt) =>
    [
      idCell(id),
      metricCell(metric),
      iso(at),
      value,
      previous ?? '',
      previous === null ? '' : value - previous,
      kindCell(kind),
      previousSeenAt === null ? '\n' : `${iso(previousSeenAt)}\n`,
    ].join(',');
}

export function attritionLine(p: PresenceRecord): string {
  return csvLine([
    p.id,
    iso(p.firstSeen),
    iso(p.lastSeen),
    iso(p.firstMissingAt),
    p.rechecks,
    p.status,
    p.reason,
    p.kind,
    iso(p.statusAt),
    p.watch,
    p.target,
    iso(p.createdAt),
  ]);
}
