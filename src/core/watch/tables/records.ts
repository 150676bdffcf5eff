/**
 * What a project keeps of its watches, as rows: the watch area's tables (this folder) read and write them, the
 * rest of the area works with them through its store port. Plain data, so it crosses to the archive's worker
 * thread as it is.
 */
import type { GapReason, PresenceStatus, RunStatus } from '../../../shared/ipc/watch';

export interface WatchRecord {
  id: number;
  name: string;
  kind: string;
  /** the WatchSpec as JSON */
  spec: string;
  createdAt: number;
  paused: boolean;
  pausedAt: number | null;
  removedAt: number | null;
  /** when the next run is due (epoch ms), null when none is */
  nextDue: number | null;
  /** what the runs keep between them (per target: post count, where a read was left off), as JSON */
  state: string;
}

export interface RunRecord {
  id: number;
  watch: number;
  startedAt: number;
  endedAt: number | null;
  scheduledFor: number | null;
  status: RunStatus;
  runner: string;
  /** the runner that owns it while it runs */
  token: string | null;
  calls: number;
  credits: number;
  newItems: number;
  seenItems: number;
  rechecked: number;
  gone: number;
  returned: number;
  resumed: boolean;
  asked: string;
  message: string | null;
  /** the run's journal (a file name beside the project) while it runs */
  journal: string | null;
}

export interface GapRecord {
  id: number;
  watch: number;
  from: number;
  to: number;
  reason: GapReason;
  detail: string;
  recordedAt: number;
  filledAt: number | null;
  filledBy: number | null;
  /** targets still to be read back */
  pending: string[];
}

export type PresenceKind = 'post' | 'user';

export interface PresenceRecord {
  watch: number;
  kind: PresenceKind;
  id: string;
  target: string | null;
  createdAt: number | null;
  firstSeen: number;
  lastSeen: number;
  firstRun: number;
  /** seen by the watch's first read of its target: its starting point, not something new */
  baseline: boolean;
  firstMissingAt: number | null;
  rechecks: number;
  status: PresenceStatus;
  reason: string | null;
  statusAt: number;
  /** when a re-check is due (missing, or gone and asked again later) */
  nextCheck: number | null;
}

export interface CounterRecord {
  kind: string;
  id: string;
  metric: string;
  /** first seen with this value */
  at: number;
  value: number;
  /** last seen with this value */
  lastAt: number;
}

/** Where a page of the deltas table ends: the next one starts after it. */
export interface DeltaKey {
  kind: string;
  id: string;
  metric: string;
  at: number;
}

/** Where a page of the attrition table ends. */
export interface AttritionKey {
  watch: number;
  kind: string;
  id: string;
}

/** A page of a table as CSV lines: the store's, one value however many rows (text, or its UTF-8 bytes). */
export interface CsvPage<K, T extends string | Uint8Array = string> {
  text: T;
  rows: number;
  /** the last row's key (null: none) */
  last: K | null;
}

/** A row of the deltas table field by field, as a page's rows are walked (no object made per row). */
export type DeltaFields<R> = (
  kind: string,
  id: string,
  metric: string,
  at: number,
  value: number,
  previous: number | null,
  previousSeenAt: number | null,
) => R;

/** One row of the deltas table: a counter's value when first seen, and each change after. */
export interface DeltaRecord {
  kind: string;
  id: string;
  metric: string;
  at: number;
  value: number;
  previous: number | null;
  /** when the previous value was last seen (the change happened after it) */
  previousSeenAt: number | null;
}

export interface RunnerRecord {
  token: string;
  /** 'app' or 'headless' */
  who: string;
  host: string;
  pid: number;
  since: number;
  heartbeat: number;
}

/** The last runner that let go of the project (or stopped answering): why a later gap happened. */
export interface RunnerLast {
  who: string;
  host: string;
  pid: number;
  /** when it released the project, or its last heartbeat when it never did */
  at: number;
  clean: boolean;
}

/** What one run changes in the project, written in one transaction when it ends. */
export interface RunOutcome {
  /** the run's record as it ends */
  run: Omit<RunRecord, 'watch' | 'startedAt' | 'scheduledFor' | 'runner' | 'token' | 'resumed' | 'journal'> & {
    endedAt: number;
  };
  /** items the run read (a missing or gone one becomes `returned`) */
  seen: Array<{
    kind: PresenceKind;
    id: string;
    target: string | null;
    createdAt: number | null;
    at: number;
    baseline: boolean;
  }>;
  /** items it expected and did not read (present ones become `missing`) */
  missing: Array<{ kind: PresenceKind; id: string; at: number; reason: string }>;
  /** items it asked for by id: found, or not (then `gone`, asked again at `nextCheck`) */
  rechecked: Array<{
    kind: PresenceKind;
    id: string;
    at: number;
    found: boolean;
    reason: string;
    nextCheck: number | null;
  }>;
  /** counter readings: a value, read at `at` */
  counters: Array<Omit<CounterRecord, 'lastAt'>>;
  gaps: {
    add: Array<Omit<GapRecord, 'id' | 'filledAt' | 'filledBy'>>;
    /** open gaps whose pending targets changed: filled when none is left */
    progress: Array<{ id: number; pending: string[] }>;
  };
  watch: { id: number; state: string; nextDue: number | null };
}

/** A target's recent posts the project holds, to reckon how often it posts. */
export interface PostingHistory {
  author: string;
  posts: number;
  first: number;
  last: number;
}

/** An account the project holds (its post count and age), for the same purpose. */
export interface AccountFacts {
  id: string;
  statusesCount: number | null;
  createdAt: number | null;
}

/** What the Watches view shows of a watch's history, in one read. */
export interface WatchStats {
  runs: number;
  newItems: number;
  spentLastDay: number;
  spentTotal: number;
  /** the first run's start, for the projection's comparison */
  firstRunAt: number | null;
  lastRun: RunRecord | null;
  running: boolean;
  gaps: { open: number; filled: number };
  /** items by presence; `other`: a status only a newer Skein knows */
  attrition: { present: number; missing: number; gone: number; returned: number; other: number };
  /** the posts the watch's runs kept, and of how many of its targets */
  kept: { posts: number; targets: number };
}

export interface PresenceQuery {
  kind?: PresenceKind;
  targets?: string[];
  statuses?: PresenceStatus[];
  createdSince?: number;
  /** a re-check due by then */
  dueBy?: number;
  limit?: number;
}
