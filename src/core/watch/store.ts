/**
 * What the watch area asks of the project it runs in (a port: core/compose wires the archive's worker to it,
 * tests give a project of their own). Rows are `shared/watch/records.ts`'s; every call may cross a thread.
 */
import type {
  AccountFacts,
  CounterRecord,
  DeltaRecord,
  GapRecord,
  PostingHistory,
  PresenceKind,
  PresenceQuery,
  PresenceRecord,
  RunnerLast,
  RunnerRecord,
  RunOutcome,
  RunRecord,
  WatchRecord,
  WatchStats,
} from './tables/records';

export interface WatchStore {
  createWatch: (w: {
    name: string;
    kind: string;
    spec: string;
    createdAt: number;
    nextDue: number | null;
  }) => Promise<number>;
  updateWatch: (
    id: number,
    patch: Partial<Pick<WatchRecord, 'name' | 'spec' | 'paused' | 'pausedAt' | 'removedAt' | 'nextDue' | 'state'>>,
  ) => Promise<void>;
  watches: () => Promise<WatchRecord[]>;
  watch: (id: number) => Promise<WatchRecord | null>;
  startRun: (r: {
    watch: number;
    startedAt: number;
    scheduledFor: number | null;
    runner: string;
    token: string;
    journal: string | null;
    asked: string;
  }) => Promise<number>;
  progressRun: (
    id: number,
    p: { calls?: number; credits?: number; token?: string; resumed?: boolean; asked?: string },
  ) => Promise<void>;
  finishRun: (o: RunOutcome) => Promise<void>;
  runs: (watch: number, limit: number) => Promise<RunRecord[]>;
  openRuns: () => Promise<RunRecord[]>;
  spent: (watch: number, now: number, exceptRun: number | null) => Promise<{ lastDay: number; total: number }>;
  stats: (watch: number, now: number) => Promise<WatchStats>;
  gaps: (watch: number, openOnly: boolean) => Promise<GapRecord[]>;
  addGap: (g: Omit<GapRecord, 'id' | 'filledAt' | 'filledBy'>) => Promise<number>;
  known: (watch: number, kind: PresenceKind, ids: readonly string[], before: number) => Promise<string[]>;
  presenceOf: (watch: number, q: PresenceQuery) => Promise<PresenceRecord[]>;
  attrition: (q: {
    watch?: number;
    status?: PresenceRecord['status'];
    offset: number;
    limit: number;
  }) => Promise<PresenceRecord[]>;
  counters: (kind: string, id: string) => Promise<CounterRecord[]>;
  deltas: (q: {
    watch?: number;
    item?: { kind: string; id: string };
    after: { kind: string; id: string; metric: string; at: number } | null;
    limit: number;
  }) => Promise<DeltaRecord[]>;
  attritionPage: (q: {
    watch?: number;
    after: { watch: number; kind: string; id: string } | null;
    limit: number;
  }) => Promise<PresenceRecord[]>;
  postingHistory: (authors: readonly string[], since: number) => Promise<PostingHistory[]>;
  accountFacts: (ids: readonly string[]) => Promise<AccountFacts[]>;
  largestPage: (operation: string) => Promise<number>;
  runner: () => Promise<RunnerRecord | null>;
  takeRunner: (next: RunnerRecord, expected: string | null) => Promise<boolean>;
  heartbeat: (token: string, now: number) => Promise<boolean>;
  releaseRunner: (token: string, now: number) => Promise<void>;
  lastRunner: () => Promise<RunnerLast | null>;
  /** the answers the client has received so far are written to the project (before a run journals its page) */
  flush: () => Promise<void>;
}

/** The project the watches of the mode in use live in: where (for the run journals beside it) and its store. */
export interface WatchProject {
  /** main's id of the project file (changes when another project is opened) */
  id: string;
  name: string;
  /** the project file's path (run journals are kept in a folder beside it) */
  location: string;
  kind: 'live' | 'demo';
  store: WatchStore;
}
