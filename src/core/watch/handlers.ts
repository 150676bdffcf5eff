/**
 * The `watch` namespace of the bridge, and the feature createCore composes: the scheduler (runs watches while
 * the app is open), the projections, and the tables. No input names a path; switching a watch on in live mode,
 * and loosening its caps, is confirmed by the person in main (the page cannot spend on its own).
 */
import { usdLabel, type PriceTable } from '../../shared/api/pricing';
import { makeError, SkeinError } from '../../shared/errors';
import type { HandlersOf } from '../../shared/ipc/define';
import type { Mode } from '../../shared/ipc/app';
import {
  WatchSpec,
  type AttritionRow,
  type CounterSeries,
  type WatchEvent,
  type WatchGap,
  type WatchList,
  type WatchOptions,
  type WatchProjection,
  type WatchProposal,
  type WatchRun,
  type WatchStrategy,
  type WatchSummary,
  type watchContract,
} from '../../shared/ipc/watch';
import type { PresenceRecord, RunRecord, WatchRecord } from './tables/records';
import type { ChooseSavePath, Clock, Confirm } from '../ports';
import { checkTargets, KINDS, STRATEGY_LABELS } from './kinds';
import { availability, postingRates, projectWatch } from './projection';
import { runnerState, type WatchScheduler } from './scheduler';
import { endedOf, fmt, isoMinute, nextSlot, readSpec, readState } from './state';
import type { WatchProject, WatchStore } from './store';
import { writeTable } from './tables';
import { readMediaNote, watchCollection } from './media';

export type WatchHandlers = HandlersOf<typeof watchContract>;

const DAY_MS = 86_400_000;

export interface WatchHandlerDeps {
  project: () => Promise<WatchProject | null>;
  scheduler: WatchScheduler;
  clock: Pick<Clock, 'now'>;
  prices: () => PriceTable;
  mode: () => Mode;
  /** asks the person in main; absent: every such request is refused */
  confirm?: Confirm;
  chooseSavePath: ChooseSavePath;
  emit?: (event: WatchEvent) => void;
  appName: string;
}

async function projectOf(deps: WatchHandlerDeps): Promise<WatchProject> {
  const p = await deps.project();
  if (!p)
    throw new SkeinError('write-failed', 'No project is open to keep watches in.', {
      action: 'Open or create a project (Archive view), then try again.',
    });
  return p;
}

const runOf = ({ watch, token: _token, journal: _journal, ...run }: RunRecord): WatchRun => ({
  ...run,
  watchId: watch,
});

const attritionOf = ({
  watch,
  firstRun: _firstRun,
  baseline: _baseline,
  nextCheck: _nextCheck,
  ...p
}: PresenceRecord): AttritionRow => ({ ...p, watchId: watch });

/** the projection of a watch (being described, or switched on) from what the project shows now */
async function projectionFor(
  store: WatchStore,
  w: {
    kind: WatchSpec['kind'];
    targets: string[];
    strategy: WatchStrategy;
    everyMinutes: number;
    options: WatchOptions;
    unresolved?: number;
    days?: number | null;
  },
  prices: PriceTable,
  now: number,
): Promise<WatchProjection> {
  const accounts = w.kind === 'accounts';
  const [history, facts] = accounts
    ? await Promise.all([store.postingHistory(w.targets, now - 30 * DAY_MS), store.accountFacts(w.targets)])
    : [[], []];
  const spec = KINDS[w.kind];
  const ops = [spec.listing?.operation, spec.snapshot?.operation, 'listTimeline' as const].filter(
    (o): o is NonNullable<typeof o> => o !== undefined,
  );
  const largest = new Map<string, number>();
  for (const op of ops) largest.set(op, await store.largestPage(op));
  return projectWatch({
    kind: w.kind,
    targets: w.targets,
    strategy: w.strategy,
    everyMinutes: w.everyMinutes,
    options: w.options,
    rates: postingRates(w.targets, history, facts, now),
    prices,
    largestPage: (op) => largest.get(op) ?? 0,
    unresolved: w.unresolved ?? 0,
    days: w.days ?? null,
  });
}

/** the days a watch's window spans from `now` (null: no end) */
function daysOf(schedule: WatchSpec['schedule'], now: number): number | null {
  if (schedule.until === null) return null;
  return Math.max(0, schedule.until - Math.max(now, schedule.from ?? now)) / DAY_MS || null;
}

/** an input error in the person's words, naming the field by its label (it is no bug: nothing was sent) */
function badTargets(kind: WatchSpec['kind'], bad: string): SkeinError {
  return new SkeinError('validation', `Targets: “${bad}” is not a ${KINDS[kind].target.noun}.`, {
    fields: [{ field: 'Targets', message: KINDS[kind].target.hint }],
    action: 'Correct it in Targets, then try again.',
  });
}

function clean(spec: WatchSpec): WatchSpec {
  const targets = checkTargets(spec.kind, spec.targets);
  if ('bad' in targets) throw badTargets(spec.kind, targets.bad);
  const why = availability(spec.kind, spec.strategy, spec.listId);
  if (why) throw new SkeinError('validation', why, { fields: [{ field: 'How to collect', message: why }] });
  // a handle is kept only beside an id the watch reads
  const handles = Object.fromEntries(Object.entries(spec.handles).filter(([id]) => targets.ok.includes(id)));
  return { ...spec, targets: targets.ok, handles };
}

export function createWatchHandlers(deps: WatchHandlerDeps): WatchHandlers['watch'] {
  const now = () => deps.clock.now();

  async function ask(title: string, detail: string, confirmLabel: string): Promise<void> {
    if (deps.mode() !== 'live') return;
    if (deps.confirm && (await deps.confirm({ title, detail, confirmLabel }))) return;
    throw new SkeinError('cancelled', `Not done: ${title.replace(/\?$/, '')} was not confirmed.`, {
      action: 'Try again and confirm in the dialog Skein shows.',
    });
  }

  function capsWords(spec: WatchSpec): string {
    const usd = (c: number) => usdLabel(c / deps.prices().creditsPerUsd, 'en-US');
    const { caps } = spec;
    return `at most ${fmt(caps.perRun)} credits a run, ${fmt(caps.perDay)} in any 24 hours (${usd(caps.perDay)}) and ${fmt(caps.total)} in total (${usd(caps.total)})`;
  }

  async function summary(project: WatchProject, w: WatchRecord): Promise<WatchSummary> {
    const spec = readSpec(w);
    if (!spec)
      throw makeError(
        'unreadable',
        `This Skein cannot read the watch “${w.name}” (${w.kind}): a newer Skein may have made it, or its record is damaged.`,
      );
    const t = now();
    const state = readState(w.state);
    const stats = await project.store.stats(w.id, t);
    const projection = await projectionFor(
      project.store,
      { ...spec, everyMinutes: spec.schedule.everyMinutes, days: daysOf(spec.schedule, t) },
      deps.prices(),
      t,
    ).catch(() => null);
    const started = state.projectedAtStart ?? null;
    const ended = endedOf(w.state);
    const status: WatchSummary['state'] = w.paused
      ? 'paused'
      : w.nextDue === null
        ? 'ended'
        : spec.schedule.from !== null && t < spec.schedule.from
          ? 'waiting'
          : 'active';
    const runsDone = stats.runs - (stats.running ? 1 : 0);
    // the first run reads every target's starting point: priced apart when the projection has it
    const projectedSpend = !started
      ? 0
      : started.firstRun === undefined
        ? started.perRun * runsDone
        : started.firstRun + started.perRun * Math.max(0, runsDone - 1);
    return {
      id: w.id,
      spec,
      createdAt: w.createdAt,
      state: status,
      stateReason:
        status === 'ended'
          ? `Ended: ${ended ?? 'it was stopped'}.`
          : status === 'paused'
            ? `Paused ${w.pausedAt ? `since ${isoMinute(w.pausedAt)}` : ''}.`
            : null,
      nextRunAt: w.paused ? null : w.nextDue,
      running: stats.running,
      lastRun: stats.lastRun ? runOf(stats.lastRun) : null,
      runs: stats.runs,
      newItems: stats.newItems,
      kept: stats.kept,
      spent: { lastDay: stats.spentLastDay, total: stats.spentTotal },
      projectedAtStart: started,
      projection,
      comparison:
        started && runsDone > 0
          ? {
              days: runsDone / started.runsPerDay,
              projected: projectedSpend,
              spent: stats.spentTotal,
              ratio: projectedSpend > 0 ? stats.spentTotal / projectedSpend : null,
            }
          : null,
      gaps: stats.gaps,
      attrition: stats.attrition,
      media: await readMediaNote(project, w.id),
    };
  }

  async function one(id: number): Promise<{ project: WatchProject; w: WatchRecord }> {
    const project = await projectOf(deps);
    const w = await project.store.watch(id);
    if (!w || w.removedAt !== null) throw new SkeinError('not-found', 'There is no such watch in this project.');
    return { project, w };
  }

  const changed = (watchId: number | null) => deps.emit?.({ watchId, what: 'changed' });

  /** a watch just changed: said so, and its summary as it is now */
  async function changedNow(project: WatchProject, id: number): Promise<WatchSummary> {
    changed(id);
    return summary(project, (await project.store.watch(id)) as WatchRecord);
  }

  return {
    list: async () => {
      const project = await deps.project();
      if (!project) return { watches: [], unreadable: [], runner: deps.scheduler.state(), project: null };
      const watches: WatchSummary[] = [];
      const unreadable: WatchList['unreadable'] = [];
      for (const w of await project.store.watches()) {
        // one this Skein cannot read is named apart, not left out in silence, and does not hide the others
        if (readSpec(w)) watches.push(await summary(project, w));
        else unreadable.push({ id: w.id, name: w.name, kind: w.kind });
      }
      const runner = deps.scheduler.state();
      const holder = runner.holder === 'self' ? null : await project.store.runner();
      return {
        watches,
        unreadable,
        runner: holder ? runnerState(holder, 'other') : runner,
        project: { name: project.name, kind: project.kind },
      };
    },

    propose: async (draft): Promise<WatchProposal> => {
      const project = await projectOf(deps);
      const targets = checkTargets(draft.kind, draft.targets);
      if ('bad' in targets) throw badTargets(draft.kind, targets.bad);
      const t = now();
      const options = (['probe', 'full', 'list'] as const).map(async (strategy) => {
        const reason = availability(draft.kind, strategy, draft.listId);
        return {
          strategy,
          label: STRATEGY_LABELS[strategy],
          available: reason === null,
          ...(reason ? { reason } : {}),
          projection:
            reason === null
              ? await projectionFor(
                  project.store,
                  {
                    kind: draft.kind,
                    targets: targets.ok,
                    strategy,
                    everyMinutes: draft.everyMinutes,
                    options: draft.options,
                    unresolved: draft.unresolved,
                    days: draft.days,
                  },
                  deps.prices(),
                  t,
                )
              : null,
        };
      });
      const all = await Promise.all(options);
      const available = all.filter((o) => o.available && o.projection);
      const perDay = (o: (typeof all)[number]) => o.projection?.perDay ?? Infinity;
      const cheapest = available.reduce<(typeof all)[number] | undefined>(
        (a, b) => (a === undefined || perDay(b) < perDay(a) ? b : a),
        undefined,
      );
      const history = draft.kind === 'accounts' ? await project.store.postingHistory(targets.ok, t - 30 * DAY_MS) : [];
      return {
        options: all,
        recommended: cheapest?.strategy ?? 'full',
        known: {
          targets: targets.ok.length + draft.unresolved,
          withHistory: history.filter((h) => h.posts >= 3).length,
        },
      };
    },

    create: async (input) => {
      const project = await projectOf(deps);
      const spec = clean(input);
      const t = now();
      const projection = await projectionFor(
        project.store,
        { ...spec, everyMinutes: spec.schedule.everyMinutes, days: daysOf(spec.schedule, t) },
        deps.prices(),
        t,
      );
      await ask(
        `Switch on the watch “${spec.name}”?`,
        `It reads ${spec.targets.length} ${KINDS[spec.kind].target.noun}${spec.targets.length === 1 ? '' : 's'} every ${spec.schedule.everyMinutes} minutes and may spend ${capsWords(spec)}. Projected: about ${fmt(projection.perDay)} credits a day (${usdLabel(projection.usdPerDay, 'en-US')}), ${usdLabel(projection.usdPerMonth, 'en-US')} a month${projection.whole ? `; about ${fmt(projection.whole.credits)} credits (${usdLabel(projection.whole.usd, 'en-US')}) over ${fmt(projection.whole.days)} days, first read included` : ''}.`,
        'Switch it on',
      );
      const id = await project.store.createWatch({
        name: spec.name,
        kind: spec.kind,
        spec: JSON.stringify(spec),
        createdAt: t,
        nextDue: spec.schedule.from ?? t,
      });
      await project.store.updateWatch(id, {
        state: JSON.stringify({ runs: 0, targets: {}, names: {}, projectedAtStart: projection }),
      });
      deps.scheduler.kick();
      return changedNow(project, id);
    },

    update: async ({ id, patch }) => {
      const { project, w } = await one(id);
      const before = readSpec(w) as WatchSpec;
      const next = clean(
        WatchSpec.parse({
          ...before,
          ...(patch.name ? { name: patch.name } : {}),
          ...(patch.schedule ? { schedule: patch.schedule } : {}),
          ...(patch.caps ? { caps: patch.caps } : {}),
          options: { ...before.options, ...patch.options },
        }),
      );
      const looser =
        next.caps.perRun > before.caps.perRun ||
        next.caps.perDay > before.caps.perDay ||
        next.caps.total > before.caps.total;
      if (looser)
        await ask(`Raise the caps of “${next.name}”?`, `It may then spend ${capsWords(next)}.`, 'Raise the caps');
      const nextDue =
        w.nextDue !== null && next.schedule.everyMinutes !== before.schedule.everyMinutes
          ? nextSlot(now(), next.schedule.everyMinutes, now())
          : w.nextDue;
      const reopened = w.nextDue === null && looser && !w.paused ? now() : nextDue;
      await project.store.updateWatch(id, { name: next.name, spec: JSON.stringify(next), nextDue: reopened });
      deps.scheduler.kick();
      return changedNow(project, id);
    },

    pause: async ({ id }) => {
      const { project, w } = await one(id);
      if (!w.paused) await project.store.updateWatch(id, { paused: true, pausedAt: now() });
      return changedNow(project, id);
    },

    resume: async ({ id }) => {
      const { project, w } = await one(id);
      const spec = readSpec(w) as WatchSpec;
      const t = now();
      if (w.paused) {
        // the paused period is a gap of its own: the next run (now) reads back to what the project holds
        if (w.pausedAt !== null && t - w.pausedAt >= spec.schedule.everyMinutes * 60_000)
          await project.store.addGap({
            watch: id,
            from: w.pausedAt,
            to: t,
            reason: 'paused',
            detail: `The watch was paused from ${isoMinute(w.pausedAt)}; this run reads back to what the project holds, within its cap.`,
            recordedAt: t,
            pending: [...spec.targets],
          });
        // a run due while it was paused runs now (once); otherwise the schedule goes on as it was
        await project.store.updateWatch(id, {
          paused: false,
          pausedAt: null,
          nextDue: w.nextDue === null ? null : Math.max(w.nextDue, t),
        });
      }
      deps.scheduler.kick();
      return changedNow(project, id);
    },

    runNow: async ({ id }) => {
      const { project, w } = await one(id);
      if (w.paused) throw new SkeinError('bad-input', 'This watch is paused: resume it to run it.');
      if (w.nextDue === null)
        throw new SkeinError('bad-input', 'This watch has ended: raise its caps or widen its window first.');
      deps.scheduler.runNow(id);
      return summary(project, w);
    },

    collect: async ({ id }) => {
      const { project, w } = await one(id);
      return watchCollection(project, w, now());
    },

    remove: async ({ id }) => {
      const { project } = await one(id);
      await project.store.updateWatch(id, { removedAt: now(), nextDue: null });
      changed(id);
      return { removed: true };
    },

    runs: async ({ id, limit }) => {
      const { project } = await one(id);
      return (await project.store.runs(id, limit)).map(runOf);
    },

    gaps: async ({ id }): Promise<WatchGap[]> => {
      const { project } = await one(id);
      return (await project.store.gaps(id, false)).map(({ watch, pending, ...g }) => ({
        ...g,
        watchId: watch,
        pending: pending.length,
      }));
    },

    attrition: async ({ id, status, limit }) => {
      const project = await projectOf(deps);
      return (
        await project.store.attrition({ ...(id ? { watch: id } : {}), ...(status ? { status } : {}), offset: 0, limit })
      ).map(attritionOf);
    },

    counters: async ({ kind, id }): Promise<CounterSeries> => {
      const project = await projectOf(deps);
      const rows = await project.store.counters(kind, id);
      const byMetric = new Map<string, Array<{ at: number; value: number; lastAt: number }>>();
      for (const r of rows) {
        const list = byMetric.get(r.metric) ?? [];
        list.push({ at: r.at, value: r.value, lastAt: r.lastAt });
        byMetric.set(r.metric, list);
      }
      return {
        kind,
        id,
        metrics: [...byMetric].map(([metric, points]) => ({ metric, points })),
      };
    },

    exportTable: async ({ table, watchId, item }) => {
      const project = await projectOf(deps);
      const t = now();
      const stamp = new Date(t).toISOString().slice(0, 19).replace(/:/g, '');
      const scope = item ? `${item.kind}-${item.id}` : watchId ? `watch-${watchId}` : 'all-watches';
      const target = await deps.chooseSavePath({
        title: table === 'deltas' ? 'Export the deltas table' : 'Export the attrition table',
        defaultPath: `skein-${table}-${scope}-${stamp}Z.csv`,
        filters: [{ name: 'CSV', extensions: ['csv'] }],
      });
      if (target === null) return null;
      const file = target.endsWith('.csv') ? target : `${target}.csv`;
      const rows = await writeTable(
        table,
        file,
        {
          deltas: (after, limit) =>
            project.store.deltaPage({
              ...(watchId ? { watch: watchId } : {}),
              ...(item ? { item } : {}),
              after,
              limit,
            }),
          attrition: (after, limit) =>
            project.store.attritionCsv({ ...(watchId ? { watch: watchId } : {}), after, limit }),
        },
        {
          project: project.name,
          scope: item ? `${item.kind} ${item.id}` : watchId ? `watch ${watchId}` : 'every watch of the project',
          exportedAt: t,
          app: deps.appName,
        },
      );
      return { file, rows };
    },
  };
}
