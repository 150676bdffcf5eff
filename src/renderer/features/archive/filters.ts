/**
 * The Archive view's filter form as plain values, and the query main runs from it. Dates are
 * read as whole days in the zone the reader chose (UTC or local); the end day is included.
 */
import type { ActivityBucket, ArchiveQuery } from '../../../shared/ipc/archive';

export type Tri = 'any' | 'only' | 'none';
export type Zone = 'utc' | 'local';

export interface ArchiveForm {
  kind: 'post' | 'user';
  from: string;
  to: string;
  author: string;
  lang: string;
  collection: string;
  media: Tri;
  reply: Tri;
  quote: Tri;
  retweet: Tri;
  sort: 'time' | 'engagement';
  zone: Zone;
  bucket: ActivityBucket;
}

export const EMPTY_FORM: ArchiveForm = {
  kind: 'post',
  from: '',
  to: '',
  author: '',
  lang: '',
  collection: '',
  media: 'any',
  reply: 'any',
  quote: 'any',
  retweet: 'any',
  sort: 'time',
  zone: 'utc',
  bucket: 'day',
};

const DAY = 86_400_000;

/** `YYYY-MM-DD` → the day's start in the zone, epoch ms; null when not a date. */
export function dayStart(value: string, zone: Zone): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const t = zone === 'utc' ? Date.UTC(y, mo, d) : new Date(y, mo, d).getTime();
  return Number.isFinite(t) ? t : null;
}

const tri = (v: Tri): boolean | undefined => (v === 'only' ? true : v === 'none' ? false : undefined);

/** A span picked on the activity chart (a bar): it narrows the days of the form. */
export interface Span {
  from: number;
  to: number;
}

export function toQuery(text: string, form: ArchiveForm, span: Span | null = null): ArchiveQuery {
  const q: ArchiveQuery = { text: text.trim(), kind: form.kind, sort: form.sort };
  const from = dayStart(form.from, form.zone);
  const to = dayStart(form.to, form.zone);
  if (from !== null) q.from = from;
  if (to !== null) q.to = to + DAY;
  if (span) {
    q.from = Math.max(q.from ?? span.from, span.from);
    q.to = Math.min(q.to ?? span.to, span.to);
  }
  if (form.author.trim()) q.author = form.author.trim().replace(/^@/, '');
  if (form.lang.trim()) q.lang = form.lang.trim();
  if (/^\d+$/.test(form.collection)) q.collection = Number(form.collection);
  if (form.kind === 'post') {
    for (const k of ['media', 'reply', 'quote', 'retweet'] as const) {
      const v = tri(form[k]);
      if (v !== undefined) q[k] = v;
    }
  }
  return q;
}

/** minutes east of UTC for the zone (local: this machine's offset now) */
export function utcOffsetMinutes(zone: Zone, now = new Date()): number {
  return zone === 'utc' ? 0 : -now.getTimezoneOffset();
}
