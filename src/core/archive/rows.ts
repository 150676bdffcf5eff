/**
 * The coding and watch tables' rows read as records, once for both stores: each store hands in how it reads a
 * text column (a project file's as stored; a team project's decoded, postgres/text.ts). Numbers, flags and
 * nulls read the same on both.
 */
import type { CodedKind, CodeValue } from '../../shared/coding/codebook';
import type { Adjudication, Coder, Coding, ModelSettings } from '../../shared/coding/records';
import type {
  GapRecord,
  PresenceKind,
  PresenceRecord,
  RunnerRecord,
  RunRecord,
  WatchRecord,
} from '../watch/tables/records';

type Row = Record<string, unknown>;

/** A project file's text column as stored (SQLite hands back text, numbers or null; null reads as ''). */
export const storedText = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : '';

/** The readers of one store, given how it reads a text column (a number read as its digits). */
export function rowReaders(text: (v: unknown) => string) {
  const parse = <T>(v: unknown): T => JSON.parse(text(v)) as T;
  const textOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : text(v));
  const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
  return {
    parse,
    coder: (r: Row): Coder => ({
      id: Number(r.id),
      name: text(r.name),
      kind: r.kind === 'model' ? 'model' : 'person',
      model: r.model === null ? null : parse<ModelSettings>(r.model),
      createdAt: Number(r.created_at),
      revealedAt: numOrNull(r.revealed_at),
    }),
    coding: (r: Row): Coding => ({
      kind: text(r.item_kind) as CodedKind,
      id: text(r.item_id),
      field: text(r.field),
      coder: Number(r.coder),
      value: parse<CodeValue>(r.value),
      codedAt: Number(r.coded_at),
      version: Number(r.version),
      detail: r.detail === null || r.detail === undefined ? null : parse<unknown>(r.detail),
    }),
    adjudication: (r: Row): Adjudication => ({
      kind: text(r.item_kind) as CodedKind,
      id: text(r.item_id),
      field: text(r.field),
      value: parse<CodeValue>(r.value),
      decidedAt: Number(r.decided_at),
      decidedBy: text(r.decided_by),
      note: text(r.note),
      version: Number(r.version),
    }),
    watch: (r: Row): WatchRecord => ({
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
    }),
    run: (r: Row): RunRecord => ({
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
    }),
    gap: (r: Row): GapRecord => ({
      id: Number(r.rowid),
      watch: Number(r.watch),
      from: Number(r.from_at),
      to: Number(r.to_at),
      reason: text(r.reason) as GapRecord['reason'],
      detail: text(r.detail),
      recordedAt: Number(r.recorded_at),
      filledAt: numOrNull(r.filled_at),
      filledBy: numOrNull(r.filled_by),
      pending: parse<string[]>(r.pending),
    }),
    presence: (r: Row): PresenceRecord => ({
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
    }),
    runner: (r: Row): RunnerRecord => ({
      token: text(r.token),
      who: text(r.who),
      host: text(r.host),
      pid: Number(r.pid),
      since: Number(r.since),
      heartbeat: Number(r.heartbeat),
    }),
  };
}
