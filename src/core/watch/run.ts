/**
 * One run of a watch, orchestrated: its walks in order (planned by `plan.ts`, read by `walk.ts`) — the probe,
 * each target's listing or snapshot, the holes an earlier run left, the re-checks by id of what went missing,
 * the re-reads of recent posts' counters — then what it changes, settled from what it read (`settle.ts`) and
 * written in one transaction. Its journal sits beside the project: a killed run is picked up from it.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import type { RunStatus, WatchSpec } from '../../shared/ipc/watch';
import type { RunOutcome, RunRecord, WatchRecord } from './tables/records';
import { KINDS } from './kinds';
import { planner, type Walk } from './plan';
import { readForSettle, settle, type Settlement } from './settle';
import type { WatchState } from './state';
import type { WatchProject } from './store';
import { openRunJournal, RunWalks, type RunWalkDeps } from './walk';

const DAY_MS = 86_400_000;

export interface RunInput {
  watch: WatchRecord;
  spec: WatchSpec;
  state: WatchState;
  /** the run as started (or as left running by a runner that stopped) */
  run: RunRecord;
  resumed: boolean;
  /** where its journal is */
  journalPath: string;
  spentBefore: RunWalkDeps['spentBefore'];
  /** when the next run is due, written with the run's end */
  nextDue: number | null;
}

/** what a run reads through and reports to (its walks take the same) */
export interface RunDeps extends Pick<RunWalkDeps, 'source' | 'clock' | 'prices' | 'stop' | 'abort' | 'onPage'> {
  project: WatchProject;
}

export interface RunResult {
  status: RunStatus;
  outcome: RunOutcome;
  message: string | null;
}

/** the journal of a run, beside the project (`<project>-watch/run-<id>.log`) */
export function journalPathFor(location: string, runId: number): string {
  return `${location}-watch/run-${runId}.log`;
}

export async function executeRun(input: RunInput, deps: RunDeps): Promise<RunResult> {
  const { spec, state, run } = input;
  const store = deps.project.store;
  const started = run.startedAt;

  await mkdir(input.journalPath.slice(0, input.journalPath.lastIndexOf('/')), { recursive: true });
  const { journal, replay } = await openRunJournal(input.journalPath);
  const walks = new RunWalks(
    {
      journal,
      store,
      source: deps.source,
      clock: deps.clock,
      prices: deps.prices,
      stop: deps.stop,
      abort: deps.abort,
      runId: run.id,
      watchId: input.watch.id,
      started,
      spec,
      spentBefore: input.spentBefore,
      onPage: deps.onPage,
    },
    replay,
  );
  /** the targets the run meant to read (the probe's changed ones): one left unread keeps its old count */
  const planned = new Set<string>();

  try {
    if (input.resumed) await store.progressRun(run.id, { resumed: true });
    const plan = planner(spec, state, KINDS[spec.kind]);
    let going = true;
    const walkAll = async (list: readonly Walk[]) => {
      for (const w of list) if (going) going = await walks.walk(w);
    };
    // 1. the probe
    await walkAll(plan.probe());
    // 2. each target's listing (or snapshot), 3. holes
    const fetchWalks = going ? plan.fetch(walks.probed()) : [];
    for (const w of fetchWalks) planned.add(w.target ?? w.key);
    await walkAll(fetchWalks);
    if (going) await walkAll(plan.backfill());
    // 4. re-checks of what went missing, 5. counters of recent posts
    if (going) {
      const due = await store.presenceOf(input.watch.id, { statuses: ['missing', 'gone'], dueBy: started });
      await walkAll(plan.recheck(due, walks.seen()));
    }
    if (going && spec.options.trackDays > 0 && state.runs % spec.options.trackEvery === 0) {
      const recent = await store.presenceOf(input.watch.id, {
        kind: 'post',
        statuses: ['present', 'returned'],
        createdSince: started - spec.options.trackDays * DAY_MS,
      });
      const rechecking = new Set(
        walks.order.filter((o) => o.walk.phase === 'recheck').flatMap((o) => o.walk.asked?.ids ?? []),
      );
      await walkAll(plan.track(recent, walks.seen(), rechecking));
    }
    // a run stopped before it asked anything leaves its watch due: the next runner runs it now, not a period on
    const unstarted = walks.status === 'stopped' && walks.calls === 0;
    const ended: Settlement = {
      watch: input.watch,
      spec,
      state,
      run,
      nextDue: unstarted && input.watch.nextDue !== null ? input.watch.nextDue : input.nextDue,
      order: walks.order,
      planned,
      status: walks.status,
      message: walks.message,
      calls: walks.calls,
      credits: walks.credits,
      endedAt: deps.clock.now(),
    };
    const outcome = settle(ended, await readForSettle(store, ended));
    await store.finishRun(outcome);
    await journal.close();
    await rm(input.journalPath, { force: true });
    return { status: walks.status, outcome, message: walks.message };
  } catch (error) {
    await journal.close().catch(() => undefined);
    throw error;
  }
}

/** a runner's identity in the project (the lock) and on its runs */
export function newToken(): string {
  return randomUUID();
}
