/** Tests' watch runs: a watch with a run begun, and a run's outcome with nothing in it but what is asked. */
import type { RunOutcome } from '../tables/records';
import type { WatchTables } from '../tables/watch-tables';

const HOUR = 3_600_000;

/** A run's outcome with nothing in it but what `o` says: done at `at`, 1 call for 15 credits, next due an hour on. */
export function runOutcome(run: number, watch: number, at: number, o: Partial<RunOutcome> = {}): RunOutcome {
  return {
    run: {
      id: run,
      status: 'done',
      endedAt: at,
      message: null,
      calls: 1,
      credits: 15,
      newItems: 0,
      seenItems: 0,
      rechecked: 0,
      gone: 0,
      returned: 0,
      asked: '',
    },
    seen: [],
    missing: [],
    rechecked: [],
    counters: [],
    gaps: { add: [], progress: [] },
    watch: { id: watch, state: '{}', nextDue: at + HOUR },
    ...o,
  };
}

/** A watch of accounts in `w`, created at `at`, with a run started then: their ids. */
export async function watchWithRun(
  w: Pick<WatchTables, 'createWatch' | 'startRun'>,
  at: number,
): Promise<{ watch: number; run: number }> {
  const watch = await w.createWatch({ name: 'w', kind: 'accounts', spec: '{}', createdAt: at, nextDue: at });
  const run = await w.startRun({
    watch,
    startedAt: at,
    scheduledFor: at,
    runner: 't',
    token: 't',
    journal: null,
    asked: '',
  });
  return { watch, run };
}
