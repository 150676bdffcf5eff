/** Labels and spans of the activity chart's bars, in the zone the reader chose (pure). */
import type { ActivityBucket } from '../../../shared/ipc/archive';
import type { Span } from './filters';

const HOUR = 3_600_000;
const BUCKET_MS: Record<ActivityBucket, number> = { hour: HOUR, day: 24 * HOUR, week: 7 * 24 * HOUR };

/** A bar's label: its start as wall time in the zone (`utcOffsetMinutes` east of UTC). */
export function barLabel(start: number, bucket: ActivityBucket, utcOffsetMinutes: number): string {
  const wall = new Date(start + utcOffsetMinutes * 60_000).toISOString();
  const day = wall.slice(0, 10);
  if (bucket === 'hour') return `${day} ${wall.slice(11, 13)}:00`;
  return bucket === 'week' ? `Week of ${day}` : day;
}

export function barSpan(start: number, bucket: ActivityBucket): Span {
  return { from: start, to: start + BUCKET_MS[bucket] };
}
