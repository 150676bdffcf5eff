import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { watchContract } from '../../shared/ipc/watch';
import { ArchiveProject } from '../archive/project';
import { PARTS } from '../compose/parts';
import { createWatchHandlers, type WatchHandlerDeps } from './handlers';
import type { WatchProject, WatchStore } from './store';
import type { WatchTables } from './tables/watch-tables';
import { runOutcome, watchWithRun } from './testing/outcome';

const T = Date.UTC(2026, 10, 22);
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('an item’s counters over time, across the bridge', () => {
  it('carries a metric this Skein does not know (a newer one kept it on a shared project) beside the known ones', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-watch-handlers-'));
    dirs.push(dir);
    const location = join(dir, 'p.skein');
    const project = await ArchiveProject.open(location, { name: 'p', kind: 'live', now: T }, Date.now, PARTS);
    try {
      const w = project.parts.get('watch') as WatchTables;
      const { watch, run } = await watchWithRun(w, T);
      const reading = (metric: string, k: number, value: number) => ({
        kind: 'post',
        id: '7',
        metric,
        at: T + k,
        value,
      });
      await w.finishRun(
        runOutcome(run, watch, T, {
          counters: [reading('likes', 0, 3), reading('saves_v2', 0, 10), reading('saves_v2', 1000, 12)],
        }),
      );
      // only what the counters page reads: the project and its store
      const open = { id: 'p', name: 'p', location, kind: 'live', store: w as unknown as WatchStore };
      const handlers = createWatchHandlers({
        project: async () => open as unknown as WatchProject,
      } as unknown as WatchHandlerDeps);

      const reply = await handlers.counters({ kind: 'post', id: '7' }, { senderId: 1 });
      // what main sends is checked against the contract before it crosses: a bug's words if it does not fit
      const parsed = watchContract.watch.counters.output.safeParse(reply);
      expect(parsed.success).toBe(true);
      expect(parsed.data?.metrics.map((m) => [m.metric, m.points.map((p) => p.value)])).toEqual(
        expect.arrayContaining([
          ['likes', [3]],
          ['saves_v2', [10, 12]],
        ]),
      );
    } finally {
      project.close();
    }
  });
});
