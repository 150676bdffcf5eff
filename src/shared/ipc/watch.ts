/**
 * The `watch` namespace of the bridge: watchlists — the same accounts, list, conversation,
 * community, place or space collected again on a schedule, within hard credit caps, incrementally; their runs,
 * gaps, counters over time and what disappeared. Main runs them (in the app while it is open, or the headless
 * runner on a server) and keeps everything in the project; the renderer describes and reads, never names a path.
 */
import { z } from 'zod';
import { fn } from './define';

/** What a watch follows, and the operations behind it. */
export const WATCH_KINDS = [
  'accounts',
  'mentions',
  'list',
  'replies',
  'quotes',
  'community',
  'trends',
  'space',
] as const;
export const WatchKind = z.enum(WATCH_KINDS);
export type WatchKind = z.infer<typeof WatchKind>;

/**
 * How a run collects: `full` reads every target's first page(s) each run; `probe` asks a batch lookup first
 * (has an account's post count, a post's reply or quote count changed?) and reads only where something did,
 * with a full read every few runs; `list` reads one list's timeline for all the accounts.
 */
const WATCH_STRATEGIES = ['full', 'probe', 'list'] as const;
export const WatchStrategy = z.enum(WATCH_STRATEGIES);
export type WatchStrategy = z.infer<typeof WatchStrategy>;

const NumericId = z.string().regex(/^\d{1,25}$/, 'a numeric id');
const Target = z.string().trim().min(1).max(64);
const Credits = z.number().int().positive().max(1_000_000_000);
const Epoch = z.number().int().min(0);
const WatchName = z.string().trim().min(1).max(120);

const WatchSchedule = z
  .object({
    /** a run every this many minutes (1 minute to 31 days) */
    everyMinutes: z
      .number()
      .int()
      .min(1)
      .max(31 * 24 * 60),
    /** runs only from / until these times (epoch ms), when given */
    from: Epoch.nullable().default(null),
    until: Epoch.nullable().default(null),
  })
  .refine((s) => s.from === null || s.until === null || s.from < s.until, {
    message: 'the window ends before it starts',
    path: ['until'],
  });
export type WatchSchedule = z.infer<typeof WatchSchedule>;

/** Hard credit caps: a page that could take a run past one of them is not asked for. */
const WatchCaps = z
  .object({
    perRun: Credits,
    /** in any 24 hours */
    perDay: Credits,
    total: Credits,
  })
  .refine((c) => c.perRun <= c.perDay && c.perDay <= c.total, {
    message: 'a run’s cap cannot exceed the daily cap, nor the daily cap the total',
    path: ['perDay'],
  });
export type WatchCaps = z.infer<typeof WatchCaps>;

export const WatchOptions = z.object({
  /** items read past the first one already held, so nothing is missed at the boundary */
  overlap: z.number().int().min(0).max(100).default(3),
  /** pages read per target the first time (its starting point) */
  firstPages: z.number().int().min(1).max(20).default(1),
  /** probe: a full read of every target every this many runs (a probe misses a post made and one deleted between two probes) */
  fullEvery: z.number().int().min(1).max(10_000).default(24),
  /** re-read by id the posts younger than this many days (their counters over time, and whether they are still there); 0: off */
  trackDays: z.number().int().min(0).max(365).default(0),
  /** ...every this many runs */
  trackEvery: z.number().int().min(1).max(10_000).default(24),
  /** after each run with new posts, keep the media of the watch’s posts (each file fetched once); absent: off */
  keepMedia: z.boolean().optional(),
});
export type WatchOptions = z.infer<typeof WatchOptions>;

/** A watch as the person describes it. */
export const WatchSpec = z
  .object({
    name: WatchName,
    kind: WatchKind,
    /** account ids, a list id, post ids, a community id, WOEIDs or space ids (by kind) */
    targets: z.array(Target).min(1).max(1_000),
    /**
     * the handle each account id was given as (id → handle without @), kept beside the id: the card and the
     * edit say "@name", the runs use the id; watches stored before it have none
     */
    handles: z
      .record(NumericId, z.string().regex(/^[A-Za-z0-9_]{1,15}$/))
      .refine((h) => Object.keys(h).length <= 1_000, { message: 'more handles than targets' })
      .default({}),
    strategy: WatchStrategy,
    /** the list whose timeline the `list` strategy reads */
    listId: NumericId.nullable().default(null),
    schedule: WatchSchedule,
    caps: WatchCaps,
    options: WatchOptions.default(WatchOptions.parse({})),
  })
  .refine((w) => w.strategy !== 'list' || (w.kind === 'accounts' && w.listId !== null), {
    message: 'reading through a list needs the list’s id (and is for accounts)',
    path: ['listId'],
  })
  .refine((w) => w.strategy !== 'probe' || ['accounts', 'replies', 'quotes'].includes(w.kind), {
    message: 'only accounts, replies and quotes can be probed',
    path: ['strategy'],
  });
export type WatchSpec = z.infer<typeof WatchSpec>;
export type WatchSpecInput = z.input<typeof WatchSpec>;

/** A watch being described: what the proposal needs (no strategy or caps chosen yet). */
export const WatchDraft = z
  .object({
    kind: WatchKind,
    targets: z.array(Target).max(1_000),
    /** @handles given and not yet resolved to ids (each one people search): priced in, read as unknown accounts */
    unresolved: z.number().int().min(0).max(1_000).default(0),
    listId: NumericId.nullable().default(null),
    everyMinutes: WatchSchedule.shape.everyMinutes,
    /** how many days it is to run (its window's end), for the whole watch's cost; null: no end */
    days: z.number().positive().max(3_650).nullable().default(null),
    options: WatchOptions.default(WatchOptions.parse({})),
  })
  .refine((d) => d.targets.length + d.unresolved >= 1, { message: 'no targets', path: ['targets'] });
export type WatchDraft = z.input<typeof WatchDraft>;

/** What a watch is projected to cost, from its schedule, strategy, the price table and what the project shows. */
export const WatchProjection = z.object({
  strategy: WatchStrategy,
  runsPerDay: z.number(),
  perRun: z.number(),
  perDay: z.number(),
  perMonth: z.number(),
  usdPerDay: z.number(),
  usdPerMonth: z.number(),
  /** the parts a day's credits are made of */
  parts: z.array(z.object({ label: z.string(), perDay: z.number() })),
  /** how it was reckoned, in plain words (what it assumed) */
  basis: z.string(),
  /**
   * the first run, at most: it reads each target's starting point (its first pages, whatever it holds), so it
   * costs more than the runs after it (absent from projections kept before it was reckoned)
   */
  firstRun: z.number().optional(),
  /** resolving the @handles not yet resolved (one people search each) */
  resolving: z.number().optional(),
  /** the whole watch over its days: the first run, then the others, and the handles' resolution */
  whole: z.object({ days: z.number(), runs: z.number().int(), credits: z.number(), usd: z.number() }).optional(),
  /** the caps Skein proposes: a run's cap covers the first run, the total the whole watch with a margin */
  caps: z.object({ perRun: z.number(), perDay: z.number(), total: z.number() }).optional(),
  /**
   * the largest page the caps assume (the most items a page of its listing has held, here or on the live
   * service): a run stops before a page that big could pass a cap, so only a page larger than any seen can
   * pass one, by what it holds beyond this. Absent for watches that read one item per call.
   */
  pageBound: z.object({ items: z.number().int(), credits: z.number() }).optional(),
});
export type WatchProjection = z.infer<typeof WatchProjection>;

export const WatchProposal = z.object({
  options: z.array(
    z.object({
      strategy: WatchStrategy,
      label: z.string(),
      available: z.boolean(),
      /** why not, when not available */
      reason: z.string().optional(),
      projection: WatchProjection.nullable(),
    }),
  ),
  /** the cheapest available */
  recommended: WatchStrategy,
  /** targets whose posting rate the project shows, of all targets */
  known: z.object({ targets: z.number().int(), withHistory: z.number().int() }),
});
export type WatchProposal = z.infer<typeof WatchProposal>;

const RUN_STATUSES = ['running', 'done', 'capped', 'failed', 'stopped', 'interrupted', 'skipped'] as const;
export const RunStatus = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatus>;

/**
 * A word a project keeps (a run's status, a gap's reason, an item's presence), as main reads it back: one of this
 * Skein's, or one a newer Skein wrote into the same project (a team's schema, a file passed along), carried as
 * written for the renderer to show as it is. Main writes only this Skein's words.
 */
const KeptWord = z.string();

export const WatchRun = z.object({
  id: z.number().int(),
  watchId: z.number().int(),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  scheduledFor: z.number().nullable(),
  /** a `RunStatus`, or a newer Skein's as written */
  status: KeptWord,
  /** who ran it: the app, or the headless runner (host, pid) */
  runner: z.string(),
  calls: z.number().int(),
  credits: z.number(),
  newItems: z.number().int(),
  seenItems: z.number().int(),
  rechecked: z.number().int(),
  gone: z.number().int(),
  returned: z.number().int(),
  /** it was interrupted (quit, killed) and picked up again from its journal */
  resumed: z.boolean(),
  /** what it asked, in short: "probe 20 accounts; 3 timelines; 1 re-check" */
  asked: z.string(),
  message: z.string().nullable(),
});
export type WatchRun = z.infer<typeof WatchRun>;

const GAP_REASONS = ['closed', 'stopped', 'asleep', 'busy', 'cap', 'failed', 'paused'] as const;
export const GapReason = z.enum(GAP_REASONS);
export type GapReason = z.infer<typeof GapReason>;

export const WatchGap = z.object({
  id: z.number().int(),
  watchId: z.number().int(),
  from: z.number(),
  to: z.number(),
  /** a `GapReason`, or a newer Skein's as written */
  reason: KeptWord,
  /** in plain words */
  detail: z.string(),
  recordedAt: z.number(),
  filledAt: z.number().nullable(),
  filledBy: z.number().int().nullable(),
  /** targets still to be read back */
  pending: z.number().int(),
});
export type WatchGap = z.infer<typeof WatchGap>;

const PRESENCE_STATUSES = ['present', 'missing', 'gone', 'returned'] as const;
export const PresenceStatus = z.enum(PRESENCE_STATUSES);
export type PresenceStatus = z.infer<typeof PresenceStatus>;

/** One row of the attrition table: an item a watch follows, and whether it is still there. */
export const AttritionRow = z.object({
  watchId: z.number().int(),
  /** 'post' or 'user', or a newer Skein's kind as written */
  kind: KeptWord,
  id: z.string(),
  /** the account (or list, conversation) it came through */
  target: z.string().nullable(),
  createdAt: z.number().nullable(),
  firstSeen: z.number(),
  lastSeen: z.number(),
  firstMissingAt: z.number().nullable(),
  rechecks: z.number().int(),
  /** a `PresenceStatus`, or a newer Skein's as written */
  status: KeptWord,
  reason: z.string().nullable(),
  /** when it took this status (for `gone`: when a re-check confirmed it) */
  statusAt: z.number(),
});
export type AttritionRow = z.infer<typeof AttritionRow>;

export const RunnerState = z.object({
  /** who runs this project's watches now: this app, another runner (the headless one, another window), nobody */
  holder: z.enum(['self', 'other', 'none']),
  who: z.string().nullable(),
  host: z.string().nullable(),
  pid: z.number().int().nullable(),
  since: z.number().nullable(),
  heartbeat: z.number().nullable(),
});
export type RunnerState = z.infer<typeof RunnerState>;

export const WatchSummary = z.object({
  id: z.number().int(),
  spec: WatchSpec,
  createdAt: z.number(),
  /** active, paused, waiting for its window, ended (its window is over, or its total cap is spent) */
  state: z.enum(['active', 'paused', 'waiting', 'ended']),
  stateReason: z.string().nullable(),
  nextRunAt: z.number().nullable(),
  running: z.boolean(),
  lastRun: WatchRun.nullable(),
  runs: z.number().int(),
  newItems: z.number().int(),
  /** what the watch holds: the posts its runs kept in the project (whatever run found them), of how many targets */
  kept: z.object({ posts: z.number().int(), targets: z.number().int() }),
  spent: z.object({ lastDay: z.number(), total: z.number() }),
  /** the projection made when it was switched on (kept), and one from what the project shows now */
  projectedAtStart: WatchProjection.nullable(),
  projection: WatchProjection.nullable(),
  /** what was spent against what was projected, over the days of runs so far */
  comparison: z
    .object({ days: z.number(), projected: z.number(), spent: z.number(), ratio: z.number().nullable() })
    .nullable(),
  gaps: z.object({ open: z.number().int(), filled: z.number().int() }),
  attrition: z.object({
    present: z.number().int(),
    missing: z.number().int(),
    gone: z.number().int(),
    returned: z.number().int(),
    /** items whose status only a newer Skein knows (a shared project): listed in the attrition table as written */
    other: z.number().int(),
  }),
  /** the media kept for it after its runs (`keepMedia`): files so far, when, the last failure in words; null: none yet */
  media: z.object({ files: z.number().int(), at: z.number(), failure: z.string().nullable() }).nullable().optional(),
});
export type WatchSummary = z.infer<typeof WatchSummary>;

const WatchList = z.object({
  watches: z.array(WatchSummary),
  /**
   * watches this Skein cannot read (a kind or setting a newer Skein made, or a damaged record): named, left as they
   * are, never run or changed here
   */
  unreadable: z.array(z.object({ id: z.number().int(), name: z.string(), kind: z.string() })),
  runner: RunnerState,
  /** the project they live in */
  project: z.object({ name: z.string(), kind: z.enum(['live', 'demo']) }).nullable(),
});
export type WatchList = z.infer<typeof WatchList>;

const COUNTER_METRICS = [
  'likes',
  'reposts',
  'replies',
  'quotes',
  'bookmarks',
  'views',
  'followers',
  'following',
  'posts',
  'members',
  'listeners',
  'participants',
  'rank',
] as const;
export const CounterMetric = z.enum(COUNTER_METRICS);
export type CounterMetric = z.infer<typeof CounterMetric>;

export const CounterKind = z.enum(['post', 'user', 'community', 'space', 'trend']);
export type CounterKind = z.infer<typeof CounterKind>;

/** An item's counters over time: each value from when it was first seen to when it was last seen unchanged. */
export const CounterSeries = z.object({
  kind: CounterKind,
  id: z.string(),
  metrics: z.array(
    z.object({
      /**
       * Any metric's name, not only those this Skein reads: a team project is shared with other versions of
       * Skein, and a newer one may have kept a metric this one does not know. Its readings are still shown.
       */
      metric: z.string(),
      points: z.array(z.object({ at: z.number(), value: z.number(), lastAt: z.number() })),
    }),
  ),
});
export type CounterSeries = z.infer<typeof CounterSeries>;

export const WatchTable = z.enum(['deltas', 'attrition']);
export type WatchTable = z.infer<typeof WatchTable>;

const WatchId = z.object({ id: z.number().int().positive() });

export const WatchPatch = z.object({
  name: WatchName.optional(),
  schedule: WatchSchedule.optional(),
  caps: WatchCaps.optional(),
  options: WatchOptions.partial().optional(),
});
export type WatchPatch = z.input<typeof WatchPatch>;

export const watchContract = {
  watch: {
    /** the project's watches, with spend, next run, gaps and attrition; who runs them */
    list: fn(z.undefined(), WatchList),
    /** the strategies Skein can offer for a watch being described, each with its projected cost */
    propose: fn(WatchDraft, WatchProposal),
    /** switches a watch on (live mode: main asks the person to confirm its caps); its first run is due at once */
    create: fn(WatchSpec, WatchSummary),
    /** a new name, schedule, caps or options (looser caps are confirmed in main) */
    update: fn(WatchId.extend({ patch: WatchPatch }), WatchSummary),
    pause: fn(WatchId, WatchSummary),
    resume: fn(WatchId, WatchSummary),
    /** a run now, whatever the schedule (within the caps) */
    runNow: fn(WatchId, WatchSummary),
    /** the posts the watch kept, as a collection of the project (made again each time), for the Archive to open */
    collect: fn(WatchId, z.object({ collection: z.number().int().positive(), items: z.number().int() })),
    /** stops it for good; what it collected stays in the project */
    remove: fn(WatchId, z.object({ removed: z.boolean() })),
    runs: fn(WatchId.extend({ limit: z.number().int().min(1).max(1_000).default(50) }), z.array(WatchRun)),
    gaps: fn(WatchId, z.array(WatchGap)),
    /** the attrition table's rows (a watch's, or every watch's), those not present first */
    attrition: fn(
      z.object({
        id: z.number().int().positive().optional(),
        status: PresenceStatus.optional(),
        limit: z.number().int().min(1).max(1_000).default(200),
      }),
      z.array(AttritionRow),
    ),
    /** an item's counters over time (from every watch's runs) */
    counters: fn(z.object({ kind: CounterKind, id: z.string().max(64) }), CounterSeries),
    /** writes the deltas or attrition table (a watch's, an item's, or the project's) to a CSV file main asks for */
    exportTable: fn(
      z.object({
        table: WatchTable,
        watchId: z.number().int().positive().optional(),
        item: z.object({ kind: CounterKind, id: z.string().max(64) }).optional(),
      }),
      z.object({ file: z.string(), rows: z.number().int() }).nullable(),
    ),
  },
};

/** What a `watch` event says: something about this watch (or the list) changed; the renderer reads again. */
export const WatchEvent = z.object({
  watchId: z.number().int().nullable(),
  what: z.enum(['run-started', 'run-progress', 'run-ended', 'changed', 'runner']),
});
export type WatchEvent = z.infer<typeof WatchEvent>;
