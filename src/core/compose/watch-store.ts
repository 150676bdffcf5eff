/**
 * The watch area's `WatchStore` over the archive's worker (issue 35): each call is the archive's
 * `watch_<name>` on the project of the mode in use, and `flush` writes the answers the client has queued.
 */
import type { ArchiveThread, Projects } from '../archive';
import type { Mode } from '../../shared/ipc/app';
import type { WatchProject, WatchStore } from '../watch';

function storeOver(thread: ArchiveThread, handle: 'current' | 'demo'): WatchStore {
  const c = thread.call;
  return {
    createWatch: (w) => c('watch_createWatch', handle, w),
    updateWatch: (id, patch) => c('watch_updateWatch', handle, id, patch),
    watches: () => c('watch_watches', handle),
    watch: (id) => c('watch_watch', handle, id),
    startRun: (r) => c('watch_startRun', handle, r),
    progressRun: (id, p) => c('watch_progressRun', handle, id, p),
    finishRun: (o) => c('watch_finishRun', handle, o),
    runs: (watch, limit) => c('watch_runs', handle, watch, limit),
    openRuns: () => c('watch_openRuns', handle),
    spent: (watch, now, exceptRun) => c('watch_spent', handle, watch, now, exceptRun),
    stats: (watch, now) => c('watch_stats', handle, watch, now),
    gaps: (watch, openOnly) => c('watch_gaps', handle, watch, openOnly),
    addGap: (g) => c('watch_addGap', handle, g),
    known: (watch, kind, ids, before) => c('watch_known', handle, watch, kind, ids, before),
    presenceOf: (watch, q) => c('watch_presenceOf', handle, watch, q),
    attrition: (q) => c('watch_attrition', handle, q),
    counters: (kind, id) => c('watch_counters', handle, kind, id),
    deltas: (q) => c('watch_deltas', handle, q),
    attritionPage: (q) => c('watch_attritionPage', handle, q),
    postingHistory: (authors, since) => c('watch_postingHistory', handle, authors, since),
    accountFacts: (ids) => c('watch_accountFacts', handle, ids),
    largestPage: (operation) => c('watch_largestPage', handle, operation),
    runner: () => c('watch_runner', handle),
    takeRunner: (next, expected) => c('watch_takeRunner', handle, next, expected),
    heartbeat: (token, now) => c('watch_heartbeat', handle, token, now),
    releaseRunner: (token, now) => c('watch_releaseRunner', handle, token, now),
    lastRunner: () => c('watch_lastRunner', handle),
    // the client posts each answer after a hop of promises: let them run, then write the queue
    flush: async () => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      await c('flush');
    },
  };
}

/** The project the mode in use keeps its watches in, or null when it cannot be opened. */
export function watchProject(
  projects: Projects,
  thread: Promise<ArchiveThread>,
  mode: () => Mode,
): () => Promise<WatchProject | null> {
  return async () => {
    const which = mode() === 'demo' ? 'demo' : 'current';
    try {
      const handle = await projects.handleFor(which);
      const ref = projects.ref(which);
      return { ...ref, store: storeOver(await thread, handle) };
    } catch {
      return null;
    }
  };
}
