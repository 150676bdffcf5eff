/**
 * Watchlists: the `watch` handlers and the scheduler that runs a project's watches (in the app while it is open,
 * or headless on a server), the tables it keeps in every project (`WATCH_PART`, hosted by the archive's worker),
 * and the ports it declares: the project it keeps them in (`WatchStore`, its tables' methods, reached through
 * core/compose). The pages it reads come through core/walk's `PageSource`.
 */
import type { PriceTable } from '../../shared/api/pricing';
import type { Mode } from '../../shared/ipc/app';
import type { WatchEvent } from '../../shared/ipc/watch';
import type { PageSource } from '../walk';
import type { ChooseSavePath, Clock, Confirm } from '../ports';
import { createWatchHandlers, type WatchHandlers } from './handlers';
import { WatchScheduler, type RunnerIdentity } from './scheduler';
import type { WatchProject } from './store';

export { RunnerBusy, type RunnerIdentity } from './scheduler';
export type { WatchProject, WatchStore } from './store';
export { WATCH_PART, WATCH_PART_NAME } from './tables/part';
export type { WatchTables } from './tables/watch-tables';

export interface WatchFeatureDeps {
  project: () => Promise<WatchProject | null>;
  source: PageSource;
  clock: Clock;
  prices: () => PriceTable;
  mode: () => Mode;
  identity: RunnerIdentity;
  /** how often the scheduler looks for due watches (30 s in the app) */
  tickMs: number;
  confirm?: Confirm;
  chooseSavePath: ChooseSavePath;
  emit?: (event: WatchEvent) => void;
  progress?: (line: string) => void;
  verbose?: boolean;
  warn?: (message: string, error?: unknown) => void;
  appName: string;
}

export interface WatchFeature {
  handlers: Pick<WatchHandlers, 'watch'>;
  scheduler: WatchScheduler;
  dispose: () => Promise<void>;
}

export function createWatchFeature(deps: WatchFeatureDeps): WatchFeature {
  const scheduler = new WatchScheduler({
    project: deps.project,
    source: deps.source,
    clock: deps.clock,
    prices: deps.prices,
    identity: deps.identity,
    tickMs: deps.tickMs,
    emit: deps.emit,
    progress: deps.progress,
    verbose: deps.verbose,
    warn: deps.warn,
  });
  const handlers = createWatchHandlers({
    project: deps.project,
    scheduler,
    clock: deps.clock,
    prices: deps.prices,
    mode: deps.mode,
    confirm: deps.confirm,
    chooseSavePath: deps.chooseSavePath,
    emit: deps.emit,
    appName: deps.appName,
  });
  return { handlers: { watch: handlers }, scheduler, dispose: () => scheduler.stop() };
}
