/**
 * Runs a project's watches on schedule: in the app while it is open, or in the headless runner on a server
 * (the same code; `identity.who` tells them apart). One runner per project: it takes the project's runner row
 * (compare and set, in the project itself) and keeps it alive with a heartbeat; another runner that finds it
 * held by a live runner stays out, politely. A tick every `tickMs`: runs that a runner left unfinished are
 * picked up from their journals; each due watch runs once — missed runs are not replayed, the one run reads
 * back to what the project holds, and the missed period is recorded as a gap (the app was closed, the machine
 * asleep, the runner stopped) with its reason. Caps are checked before a run starts and before every page.
 */
import { existsSync } from 'node:fs';
import type { PriceTable } from '../../shared/api/pricing';
import type { GapReason, RunnerState, WatchEvent, WatchSpec } from '../../shared/ipc/watch';
import type { RunRecord, RunnerRecord, WatchRecord } from './tables/records';
import type { PageSource } from '../walk';
import type { Clock } from '../ports';
import { executeRun, journalPathFor, newToken, type RunResult } from './run';
import { fmt, isoMinute, nextSlot, readSpec, readState } from './state';
import { keepRunMedia, type KeepWatchMedia } from './media';
import type { WatchProject, WatchStore } from './store';

/** a runner whose heartbeat is older than this has stopped (its project may be taken) */
const STALE_MS = 2 * 60_000;
const HEARTBEAT_MS = 5_000;

export interface RunnerIdentity {
  who: 'app' | 'headless';
  host: string;
  pid: number;
}

export interface SchedulerDeps {
  /** the project of the mode in use (the headless runner's: the one it was given); null when none opens */
  project: () => Promise<WatchProject | null>;
  source: PageSource;
  clock: Clock;
  prices: () => PriceTable;
  identity: RunnerIdentity;
  /** how often the scheduler looks for due watches (30 s in the app) */
  tickMs: number;
  emit?: (event: WatchEvent) => void;
  /** a line per run (and per page, `verbose`): what the headless runner prints */
  progress?: (line: string) => void;
  verbose?: boolean;
  warn?: (message: string, error?: unknown) => void;
  /** whether a process of this host is alive (a runner killed without letting go is not) */
  alive?: (pid: number) => boolean;
  /** keeps the media of a watch's collection (core/media, fitted by the composition); absent: `keepMedia` does nothing */
  keepMedia?: KeepWatchMedia;
}

export class RunnerBusy extends Error {
  constructor(readonly holder: RunnerRecord) {
    super(
      `These watches are already run by ${holder.who === 'app' ? 'Skein' : 'the headless runner'} on ${holder.host} (process ${holder.pid}, since ${new Date(holder.since).toISOString()}). Only one runner runs a project's watches: stop that one first, or leave them to it.`,
    );
    this.name = 'RunnerBusy';
  }
}

const processAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * A watch this runner runs when due: switched on, with a next run, and a spec this Skein reads. One a newer Skein
 * made (a team's project) is neither run, paused nor a reason to claim the project's runner: it is left as it is,
 * and while it is due this runner lets the project go between its own runs (`awaitsAnother`).
 */
const runnable = (w: WatchRecord): boolean => !w.paused && w.nextDue !== null && readSpec(w) !== null;

/**
 * a switched-on watch this Skein cannot read, due: another Skein's to run. A spec that is not JSON at all is damaged,
 * not a newer Skein's: no Skein runs it, so it is no reason to let the project go.
 */
const awaitsAnother = (w: WatchRecord, now: number): boolean =>
  !w.paused && w.nextDue !== null && w.nextDue <= now && readSpec(w) === null && isJson(w.spec);

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

const NO_RUNNER: RunnerState = { holder: 'none', who: null, host: null, pid: null, since: null, heartbeat: null };

/** a runner's row as the Watches view shows who holds the project */
export const runnerState = ({ token: _token, ...r }: RunnerRecord, holder: RunnerState['holder']): RunnerState => ({
  ...r,
  holder,
});

export class WatchScheduler {
  private readonly token = newToken();
  private held: { projectId: string; store: WatchStore; lastBeat: number } | null = null;
  private absence: { reason: GapReason; since: number; who: string } | null = null;
  private absenceUsed = new Set<number>();
  private lastTick: number | null = null;
  private timer: (() => void) | null = null;
  private ticking: Promise<void> | null = null;
  private stopping = false;
  private stopRun = new AbortController();
  private readonly requested = new Set<number>();
  /** the watches this Skein cannot read that the runner has said it leaves alone (once each) */
  private readonly leftAlone = new Set<number>();
  private current: { watch: number; run: number } | null = null;
  private holder: RunnerState = NO_RUNNER;

  constructor(private readonly deps: SchedulerDeps) {}

  /** whether this scheduler ticks on its own: one never started (a core that only makes watches) is never kicked */
  private started = false;

  /** starts ticking (the app: ticks do nothing until a watch is active) */
  start(): void {
    this.started = true;
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopping) return;
    this.timer?.();
    this.timer = this.deps.clock.setTimer(ms, () => {
      this.timer = null;
      void this.tick().finally(() => this.schedule(this.deps.tickMs));
    });
  }

  /** a tick soon (a watch was created, resumed, asked to run now) */
  kick(): void {
    if (this.started && !this.ticking) this.schedule(0);
  }

  runNow(watchId: number): void {
    this.requested.add(watchId);
    this.kick();
  }

  isRunning(watchId: number): boolean {
    return this.current?.watch === watchId;
  }

  state(): RunnerState {
    return this.holder;
  }

  /**
   * One pass: serialized (a tick never overlaps another). `only`: this watch's run alone (a saved watch job run
   * headless runs its own watch, not the others the project holds); runs left unfinished are picked up either way.
   */
  tick(only?: number): Promise<void> {
    if (this.ticking) return this.ticking;
    this.ticking = this.pass(only)
      .catch((e: unknown) => this.deps.warn?.('a watch tick failed', e))
      .finally(() => {
        this.ticking = null;
      });
    return this.ticking;
  }

  /**
   * Takes the project for this runner, or says who holds it (`RunnerBusy`). The headless runner calls it
   * first, so a second runner refuses before it does anything.
   */
  async claim(project: WatchProject): Promise<void> {
    if (this.held?.projectId === project.id) return;
    const now = this.deps.clock.now();
    const holder = await project.store.runner();
    const mine: RunnerRecord = { token: this.token, ...this.deps.identity, since: now, heartbeat: now };
    if (holder && holder.token !== this.token && !this.stale(holder, now)) {
      this.setHolder(holder, 'other');
      throw new RunnerBusy(holder);
    }
    const last = holder ? null : await project.store.lastRunner();
    if (!(await project.store.takeRunner(mine, holder?.token ?? null))) {
      const now2 = await project.store.runner();
      if (now2) {
        this.setHolder(now2, 'other');
        throw new RunnerBusy(now2);
      }
      throw new Error('the project’s runner changed while Skein took it; try again');
    }
    this.held = { projectId: project.id, store: project.store, lastBeat: now };
    this.absenceUsed = new Set();
    this.absence = holder
      ? { reason: 'stopped', since: holder.heartbeat, who: describeRunner(holder) }
      : last
        ? { reason: last.clean ? 'closed' : 'stopped', since: last.at, who: describeRunner(last) }
        : null;
    this.setHolder(mine, 'self');
    this.deps.emit?.({ watchId: null, what: 'runner' });
  }

  /** Takes the project of the mode in use (the headless runner's first step); `RunnerBusy` when another runner has it. */
  async claimProject(): Promise<WatchProject> {
    const project = await this.deps.project();
    if (!project) throw new Error('the project could not be opened');
    await this.claim(project);
    return project;
  }

  private stale(holder: RunnerRecord, now: number): boolean {
    if (holder.host === this.deps.identity.host && !(this.deps.alive ?? processAlive)(holder.pid)) return true;
    return now - holder.heartbeat > STALE_MS;
  }

  private setHolder(r: RunnerRecord | null, who: RunnerState['holder']): void {
    this.holder = r ? runnerState(r, who) : NO_RUNNER;
  }

  /** whoever holds the project now, as the store says */
  private async readHolder(store: WatchStore): Promise<void> {
    const holder = await store.runner();
    this.setHolder(holder, holder ? 'other' : 'none');
  }

  private async release(): Promise<void> {
    const held = this.held;
    this.held = null;
    if (!held) return;
    await held.store.releaseRunner(this.token, this.deps.clock.now()).catch(() => undefined);
    this.setHolder(null, 'none');
    this.deps.emit?.({ watchId: null, what: 'runner' });
  }

  /** Starts again after `stop` (the app switched projects: the new one's watches run). */
  restart(): void {
    this.stopping = false;
    this.stopRun = new AbortController();
    this.lastTick = null;
    this.start();
  }

  /** Stops: the run under way keeps its page in flight, ends `stopped` (a gap), and the project is let go. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.timer?.();
    this.timer = null;
    this.stopRun.abort(new Error('stopped'));
    await this.ticking?.catch(() => undefined);
    await this.release();
  }

  private async pass(only?: number): Promise<void> {
    if (this.stopping) return;
    const now = this.deps.clock.now();
    const asleepSince =
      this.lastTick !== null && now - this.lastTick > Math.max(3 * this.deps.tickMs, 60_000) ? this.lastTick : null;
    this.lastTick = now;
    const project = await this.deps.project();
    if (this.held && this.held.projectId !== project?.id) await this.release();
    if (!project) return;
    const store = project.store;
    const all = await store.watches();
    const watches = all.filter((w) => only === undefined || w.id === only);
    const active = watches.filter(runnable);
    this.sayLeftAlone(watches, now);
    // a due watch only another Skein reads (a newer one, on a team's project) waits for a runner that reads it:
    // this one then holds the project only while it has something to run, so that runner can take it between
    const yielding = all.some((w) => awaitsAnother(w, now));
    if (!this.held) {
      const open =
        (yielding ? active.some((w) => (w.nextDue ?? Infinity) <= now) : active.length > 0) ||
        this.requested.size > 0 ||
        (await store.openRuns()).length > 0;
      if (!open) return this.readHolder(store);
      try {
        await this.claim(project);
      } catch (e) {
        if (e instanceof RunnerBusy) return;
        throw e;
      }
    } else if (now - this.held.lastBeat >= HEARTBEAT_MS) {
      if (!(await store.heartbeat(this.token, now))) {
        // another runner took the project (it found this one stale): let it
        this.held = null;
        return this.readHolder(store);
      }
      this.held.lastBeat = now;
    }
    // runs a runner left unfinished: picked up from their journals (each moves its watch's next run on)
    const open = await store.openRuns();
    for (const run of open) {
      if (this.stopping) return;
      await this.resume(project, run);
    }
    const due = open.length
      ? (await store.watches()).filter((w) => runnable(w) && (only === undefined || w.id === only))
      : active;
    for (const w of [...due].sort((a, b) => (a.nextDue ?? 0) - (b.nextDue ?? 0))) {
      if (this.stopping) return;
      const asked = this.requested.has(w.id);
      if (!asked && (w.nextDue ?? Infinity) > this.deps.clock.now()) continue;
      this.requested.delete(w.id);
      await this.runWatch(project, w, asked, asleepSince);
    }
    for (const id of this.requested) if (!active.some((w) => w.id === id)) this.requested.delete(id);
    if ((yielding || active.length === 0) && (await store.openRuns()).length === 0) await this.release();
  }

  /** A switched-on watch this Skein cannot read is never run here: the headless runner's output says so, once. */
  private sayLeftAlone(watches: readonly WatchRecord[], now: number): void {
    for (const w of watches) {
      if (w.paused || w.nextDue === null || this.leftAlone.has(w.id) || readSpec(w) !== null) continue;
      this.leftAlone.add(w.id);
      this.deps.progress?.(
        isJson(w.spec)
          ? `${isoMinute(now)}  watch ${w.id} “${w.name}” (${w.kind}): this Skein cannot read it (a newer Skein made it); it is left as it is and not run here, and while it is due this runner holds the project only during its own runs`
          : `${isoMinute(now)}  watch ${w.id} “${w.name}” (${w.kind}): its record is damaged; it is left as it is and not run here`,
      );
    }
  }

  private async runWatch(
    project: WatchProject,
    w: WatchRecord,
    asked: boolean,
    asleepSince: number | null,
  ): Promise<void> {
    const { store } = project;
    const spec = readSpec(w);
    const now = this.deps.clock.now();
    // never due here (`runnable`): a watch only a newer Skein reads is that Skein’s to run
    if (!spec) return;
    const state = readState(w.state);
    const { schedule, caps } = spec;
    const every = schedule.everyMinutes * 60_000;
    /** the watch runs no more: why, kept in its state */
    const end = async (ended: string) => {
      await store.updateWatch(w.id, { nextDue: null, state: JSON.stringify({ ...state, ended }) });
      this.deps.emit?.({ watchId: w.id, what: 'changed' });
    };
    if (schedule.until !== null && now > schedule.until) return end('its window is over');
    if (schedule.from !== null && now < schedule.from) {
      await store.updateWatch(w.id, { nextDue: schedule.from });
      return;
    }
    const scheduledFor = w.nextDue ?? now;
    const nextDue = asked && scheduledFor > now ? scheduledFor : nextSlot(scheduledFor, schedule.everyMinutes, now);
    const spent = await store.spent(w.id, now, null);
    const least = this.deps.prices().minimumPerCall * 4;
    if (spent.total + least > caps.total) {
      const ended = `its total cap of ${fmt(caps.total)} credits is spent`;
      this.deps.progress?.(`${isoMinute(now)}  watch ${w.id} “${spec.name}” ended: ${ended}`);
      return end(ended);
    }
    if (spent.lastDay + least > caps.perDay) {
      await store.addGap({
        watch: w.id,
        from: scheduledFor,
        to: nextDue,
        reason: 'cap',
        detail: `The daily cap was reached (${fmt(spent.lastDay)} of ${fmt(caps.perDay)} credits in the last 24 hours): the run due at ${isoMinute(scheduledFor)} was skipped. A later run reads back to what the project holds.`,
        recordedAt: now,
        pending: [...spec.targets],
      });
      await store.updateWatch(w.id, { nextDue });
      this.deps.progress?.(`${isoMinute(now)}  watch ${w.id} “${spec.name}”: skipped, its daily cap is reached`);
      this.deps.emit?.({ watchId: w.id, what: 'changed' });
      return;
    }
    // missed runs: not replayed; this one reads back, and the missed period is a gap with its reason
    const missed = Math.floor((now - scheduledFor) / every);
    const absent = this.absence && !this.absenceUsed.has(w.id) && this.absence.since < now ? this.absence : null;
    if (missed >= 1) {
      this.absenceUsed.add(w.id);
      const reason: GapReason = absent ? absent.reason : asleepSince !== null ? 'asleep' : 'busy';
      const runs = `${missed} scheduled run${missed === 1 ? '' : 's'} missed`;
      const why =
        reason === 'closed'
          ? `No runner was running (${absent?.who ?? 'Skein'} was closed at ${isoMinute(absent?.since ?? scheduledFor)})`
          : reason === 'stopped'
            ? `The runner (${absent?.who ?? 'Skein'}) stopped unexpectedly; last seen at ${isoMinute(absent?.since ?? scheduledFor)}`
            : reason === 'asleep'
              ? `The computer was asleep, or Skein suspended, from ${isoMinute(asleepSince ?? scheduledFor)}`
              : 'Runs were late (an earlier run took long)';
      await store.addGap({
        watch: w.id,
        from: scheduledFor,
        to: now,
        reason,
        detail: `${why}; ${runs}. The next run reads back to what the project holds, within its cap.`,
        recordedAt: now,
        pending: [...spec.targets],
      });
    }
    const start = {
      watch: w.id,
      startedAt: now,
      scheduledFor,
      runner: describeRunner(this.deps.identity),
      token: this.token,
      journal: null,
      asked: '',
    };
    const run: RunRecord = {
      ...start,
      id: await store.startRun(start),
      endedAt: null,
      status: 'running',
      calls: 0,
      credits: 0,
      newItems: 0,
      seenItems: 0,
      rechecked: 0,
      gone: 0,
      returned: 0,
      resumed: false,
      message: null,
    };
    await this.execute(project, w, spec, run, false, spent, nextDue);
  }

  private async resume(project: WatchProject, run: RunRecord): Promise<void> {
    const { store } = project;
    const w = await store.watch(run.watch);
    const spec = w ? readSpec(w) : null;
    const now = this.deps.clock.now();
    const journal = journalPathFor(project.location, run.id);
    if (!w || !spec || !existsSync(journal)) {
      // nothing to pick up from: the run's record is kept, closed as interrupted, and its period is a gap
      await store.finishRun({
        run: {
          ...run,
          status: 'interrupted',
          endedAt: now,
          message: `Its runner (${run.runner}) stopped, and its journal is not on this computer: it stopped before its first page was kept, or (a team project) it ran on another computer.`,
        },
        seen: [],
        missing: [],
        rechecked: [],
        counters: [],
        gaps: {
          add: spec
            ? [
                {
                  watch: run.watch,
                  from: run.scheduledFor ?? run.startedAt,
                  to: now,
                  reason: 'stopped',
                  detail: `The runner (${run.runner}) stopped during a run; the next run reads back to what the project holds.`,
                  recordedAt: now,
                  pending: [...spec.targets],
                },
              ]
            : [],
          progress: [],
        },
        watch: { id: run.watch, state: w?.state ?? '{}', nextDue: w?.nextDue ?? null },
      });
      return;
    }
    await store.progressRun(run.id, { token: this.token, resumed: true });
    const spent = await store.spent(w.id, run.startedAt, run.id);
    // the run it picks up counts as the one due then: the next is on the schedule after now
    const nextDue = w.nextDue === null ? null : nextSlot(w.nextDue, spec.schedule.everyMinutes, now);
    this.deps.progress?.(
      `${isoMinute(now)}  watch ${w.id} “${spec.name}”: picking up run ${run.id} (started ${isoMinute(run.startedAt)} by ${run.runner}) from its journal`,
    );
    await this.execute(project, w, spec, { ...run, token: this.token, resumed: true }, true, spent, nextDue);
  }

  private async execute(
    project: WatchProject,
    w: WatchRecord,
    spec: WatchSpec,
    run: RunRecord,
    resumed: boolean,
    spentBefore: { lastDay: number; total: number },
    nextDue: number | null,
  ): Promise<void> {
    this.current = { watch: w.id, run: run.id };
    this.deps.emit?.({ watchId: w.id, what: 'run-started' });
    let result: RunResult;
    try {
      result = await executeRun(
        {
          watch: w,
          spec,
          state: readState(w.state),
          run,
          resumed,
          journalPath: journalPathFor(project.location, run.id),
          spentBefore,
          nextDue,
        },
        {
          project,
          source: this.deps.source,
          clock: this.deps.clock,
          prices: this.deps.prices(),
          stop: this.stopRun.signal,
          onPage: (p) => {
            if (this.deps.verbose)
              this.deps.progress?.(
                `${isoMinute(this.deps.clock.now())}  watch ${w.id} run ${run.id}: ${p.walk} — ${p.items} items, ${fmt(p.credits)} credits (run ${fmt(p.runCredits)})`,
              );
            this.deps.emit?.({ watchId: w.id, what: 'run-progress' });
          },
        },
      );
    } finally {
      this.current = null;
    }
    const r = result.outcome.run;
    const after = await project.store.spent(w.id, this.deps.clock.now(), null);
    this.deps.progress?.(
      `${isoMinute(r.endedAt)}  watch ${w.id} “${spec.name}” run ${run.id}${resumed ? ' (picked up again)' : ''} ${r.status}: ${r.asked} — ${r.calls} calls, ${fmt(r.credits)} credits; ${r.newItems} new, ${r.gone} gone${r.returned ? `, ${r.returned} back` : ''}; last 24 h ${fmt(after.lastDay)}/${fmt(spec.caps.perDay)}, total ${fmt(after.total)}/${fmt(spec.caps.total)}${nextDue !== null ? `; next ${isoMinute(nextDue)}` : ''}${result.message ? ` — ${result.message}` : ''}`,
    );
    this.deps.emit?.({ watchId: w.id, what: 'run-ended' });
    // the run is settled: its new posts' media now, whose failure is noted, never the run's
    if (spec.options.keepMedia && this.deps.keepMedia) {
      const line = await keepRunMedia(
        project,
        w,
        r,
        this.deps.keepMedia,
        () => this.deps.clock.now(),
        this.stopRun.signal,
      );
      if (line !== null) {
        this.deps.progress?.(`${isoMinute(this.deps.clock.now())}  watch ${w.id} “${spec.name}” run ${run.id} ${line}`);
        this.deps.emit?.({ watchId: w.id, what: 'changed' });
      }
    }
  }
}

function describeRunner(r: { who: string; host: string; pid: number }): string {
  return `${r.who === 'app' ? 'Skein' : 'the headless runner'} on ${r.host} (process ${r.pid})`;
}
