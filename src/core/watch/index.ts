/**
 * Watchlists: the `watch` handlers and the scheduler that runs a project's watches (in the app while it is open,
 * or headless on a server), the tables it keeps in every project (`WATCH_PART`, from the tables face
 * `tables/part.ts`, hosted by the archive's worker), and the ports it declares: the project it keeps them in
 * (`WatchStore`, its tables' methods, reached through core/compose). The pages it reads come through core/walk's
 * `PageSource`.
 */
import { createWatchHandlers, type WatchHandlerDeps, type WatchHandlers } from './handlers';
import { WatchScheduler, type SchedulerDeps } from './scheduler';

export { RunnerBusy } from './scheduler';
export type { WatchProject, WatchStore } from './store';
export { WATCH_PART_NAME } from './tables/part';
export type { WatchTables } from './tables/watch-tables';

/** what the scheduler and the handlers take, together: one object serves both */
export type WatchFeatureDeps = SchedulerDeps & Omit<WatchHandlerDeps, 'scheduler'>;

export interface WatchFeature {
  handlers: Pick<WatchHandlers, 'watch'>;
  scheduler: WatchScheduler;
  dispose: () => Promise<void>;
}

export function createWatchFeature(deps: WatchFeatureDeps): WatchFeature {
  const scheduler = new WatchScheduler(deps);
  const handlers = createWatchHandlers({ ...deps, scheduler });
  return { handlers: { watch: handlers }, scheduler, dispose: () => scheduler.stop() };
}
