/**
 * The watch tables' rows read as records, on either store: the executor hands back text as it was written and
 * 64-bit integers as numbers (core/db), so a row reads the same from a project file and a team's schema.
 */
import type { Row } from '../../db';
import type {
  CounterRecord,
  GapRecord,
  PresenceKind,
  PresenceRecord,
  RunnerRecord,
  RunRecord,
  WatchRecord,
} from './records';

/** a text column (a number read as its digits, null as '') */
const text = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : '';
const textOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : text(v));
export const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export const watchOf = (r: Row): WatchRecord => ({
  id: Number(r.rowid),
  name: text(r.name),
  kind: text(r.kind),
  spec: text(r.spec),
  createdAt: Number(r.created_at),
  paused: Number(r.paused) === 1,
  pausedAt: numOrNull(r.paused_at),
  removedAt: numOrNull(r.removed_at),
  nextDue: numOrNull(r.next_due),
  state: text(r.state),
});

export const runOf = (r: Row): RunRecord => ({
  id: Number(r.rowid),
  watch: Number(r.watch),
  startedAt: Number(r.started_at),
  endedAt: numOrNull(r.ended_at),
  scheduledFor: numOrNull(r.scheduled_for),
  status: text(r.status) as RunRecord['status'],
  runner: text(r.runner),
  token: textOrNull(r.token),
  calls: Number(r.calls),
  credits: Number(r.credits),
  newItems: Number(r.new_items),
  seenItems: Number(r.seen_items),
  rechecked: Number(r.rechecked),
  gone: Number(r.gone),
  returned: Number(r.returned),
  resumed: Number(r.resumed) === 1,
  asked: text(r.asked),
  message: textOrNull(r.message),
  journal: textOrNull(r.journal),
});

export const gapOf = (r: Row): GapRecord => ({
  id: Number(r.rowid),
  watch: Number(r.watch),
  from: Number(r.from_at),
  to: Number(r.to_at),
  reason: text(r.reason) as GapRecord['reason'],
  detail: text(r.detail),
  recordedAt: Number(r.recorded_at),
  filledAt: numOrNull(r.filled_at),
  filledBy: numOrNull(r.filled_by),
  pending: JSON.parse(text(r.pending)) as string[],
});

export const presenceOf = (r: Row): PresenceRecord => ({
  watch: Number(r.watch),
  kind: text(r.kind) as PresenceKind,
  id: text(r.id),
  target: textOrNull(r.target),
  createdAt: numOrNull(r.created_at),
  firstSeen: Number(r.first_seen),
  lastSeen: Number(r.last_seen),
  firstRun: Number(r.first_run),
  baseline: Number(r.baseline) === 1,
  firstMissingAt: numOrNull(r.first_missing_at),
  rechecks: Number(r.rechecks),
  status: text(r.status) as PresenceRecord['status'],
  reason: textOrNull(r.reason),
  statusAt: Number(r.status_at),
  nextCheck: numOrNull(r.next_check),
});

export const counterOf = (r: Row): CounterRecord => ({
  kind: text(r.kind),
  id: text(r.id),
  metric: text(r.metric),
  at: Number(r.at),
  value: Number(r.value),
  lastAt: Number(r.last_at),
});

export const runnerOf = (r: Row): RunnerRecord => ({
  token: text(r.token),
  who: text(r.who),
  host: text(r.host),
  pid: Number(r.pid),
  since: Number(r.since),
  heartbeat: Number(r.heartbeat),
});

/** A presence record's fields, in the order a copy and a run's end write its row's columns. */
export const PRESENCE_FIELDS = [
  'watch',
  'kind',
  'id',
  'target',
  'createdAt',
  'firstSeen',
  'lastSeen',
  'firstRun',
  'baseline',
  'firstMissingAt',
  'rechecks',
  'status',
  'reason',
  'statusAt',
  'nextCheck',
] as const satisfies ReadonlyArray<keyof PresenceRecord>;

/** the presence row's columns, field by field (`firstSeen`: `first_seen`) */
export const PRESENCE_COLUMNS = PRESENCE_FIELDS.map((f) => f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
