import { describe, expect, it } from 'vitest';
import { WatchSpec } from '../../shared/ipc/watch';
import { KINDS } from './kinds';
import type { Observed } from './observe';
import { planner } from './plan';
import type { WatchState } from './state';

const spec = (targets: string[], strategy: 'full' | 'probe' = 'full') =>
  WatchSpec.parse({
    name: 'Accounts',
    kind: 'accounts',
    targets,
    strategy,
    schedule: { everyMinutes: 60 },
    caps: { perRun: 1_000, perDay: 10_000, total: 100_000 },
    options: { firstPages: 3 },
  });

const fresh: WatchState = { runs: 0, targets: {}, names: {} };

describe('planner', () => {
  it('a target read for the first time reads its starting point, at most the first pages', () => {
    const [w] = planner(spec(['11']), fresh, KINDS.accounts).fetch([]);
    expect(w).toMatchObject({
      key: 'tl:11',
      phase: 'fetch',
      target: '11',
      startCursor: null,
      first: true,
      maxPages: 3,
    });
  });

  it('a later read goes until what is held, and never further back than the first read went', () => {
    const state: WatchState = { runs: 4, targets: { '11': { baselineAt: 1, floor: 500 } }, names: {} };
    const [w] = planner(spec(['11']), state, KINDS.accounts).fetch([]);
    expect(w).toMatchObject({ first: false, maxPages: null, floor: 500, rule: 'until-known' });
  });

  it('a hole an earlier run left is read back from where it stopped, never as a first read', () => {
    const state: WatchState = {
      runs: 1,
      targets: { '11': { hole: { cursor: 'c7', since: 1 } } },
      names: {},
    };
    const [w] = planner(spec(['11']), state, KINDS.accounts).backfill();
    expect(w).toMatchObject({ key: 'bf:11', phase: 'backfill', startCursor: 'c7', first: false, maxPages: null });
  });

  it('asks for ids in batches of at most 100, one page each', () => {
    const ids = Array.from({ length: 250 }, (_, i) => String(1000 + i));
    const walks = planner(spec(ids, 'probe'), fresh, KINDS.accounts).probe();
    expect(walks.map((w) => w.asked?.ids.length)).toEqual([100, 100, 50]);
    expect(walks.every((w) => w.rule === 'single' && w.operation === 'usersByIds')).toBe(true);
  });

  it('a probe reads the listings of the targets whose count changed, and not of those it did not find', () => {
    const state: WatchState = {
      runs: 1,
      targets: { '11': { count: 5, baselineAt: 1 }, '12': { count: 9, baselineAt: 1 }, '13': { count: 1 } },
      names: {},
    };
    const probed = [
      { id: '11', counts: { statusesCount: 6 } },
      { id: '12', counts: { statusesCount: 9 } },
    ] as Observed[];
    const walks = planner(spec(['11', '12', '13'], 'probe'), state, KINDS.accounts).fetch(probed);
    expect(walks.map((w) => w.target)).toEqual(['11']);
  });
});
