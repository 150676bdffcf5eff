import { describe, expect, it } from 'vitest';
import type { WatchSpec } from '../../../shared/ipc/watch';
import {
  canSwitchOn,
  capsProblem,
  chosenStrategy,
  createRequest,
  editFields,
  editProblem,
  estimateIsStale,
  NEW_WATCH,
  targetList,
  updatePatch,
  watchDraft,
  type NewWatchFields,
} from './form';

const form = (change: Partial<NewWatchFields> = {}): NewWatchFields => ({ ...NEW_WATCH, ...change });

describe('a new watch', () => {
  it('starts every two hours, with caps of 5,000 a run, 20,000 a day and 200,000 in all', () => {
    expect(watchDraft(form()).everyMinutes).toBe(120);
    expect(createRequest(form({ name: 'x', targets: '1' }), 'full').caps).toEqual({
      perRun: 5_000,
      perDay: 20_000,
      total: 200_000,
    });
  });

  it('reads targets one per line, or separated by spaces or commas', () => {
    expect(targetList(' 12\n34, 56  78\n\n')).toEqual(['12', '34', '56', '78']);
    expect(targetList('   ')).toEqual([]);
  });

  it('says in words what is wrong with its caps', () => {
    expect(capsProblem({ perRun: 0, perDay: 10, total: 100 })).toBe('Every cap must be above zero.');
    expect(capsProblem({ perRun: 50, perDay: 10, total: 100 })).toBe(
      'A run’s cap cannot exceed the daily cap, nor the daily cap the total.',
    );
    expect(capsProblem({ perRun: 5, perDay: 1000, total: 100 })).toMatch(/nor the daily cap the total/);
    expect(capsProblem({ perRun: 5, perDay: 10, total: 100 })).toBeNull();
  });

  it('cannot be switched on without a name, a way of collecting, or with caps that do not fit', () => {
    const ready = form({ name: 'Election', targets: '12' });
    expect(canSwitchOn(ready, 'full')).toBe(true);
    expect(canSwitchOn({ ...ready, name: '  ' }, 'full')).toBe(false);
    expect(canSwitchOn(ready, null)).toBe(false);
    expect(canSwitchOn({ ...ready, perRun: 30_000 }, 'full')).toBe(false);
  });

  it('asks for the estimate of what it describes, and knows when the form changed since', () => {
    const described = form({ targets: '12 34', every: 30, unit: 'minutes', trackDays: 7, listId: ' 99 ' });
    expect(watchDraft(described)).toEqual({
      kind: 'accounts',
      targets: ['12', '34'],
      listId: '99',
      everyMinutes: 30,
      options: { trackDays: 7, trackEvery: 48 },
    });
    const asked = { ...described, estimated: watchDraft(described) };
    expect(estimateIsStale(asked)).toBe(false);
    expect(estimateIsStale({ ...asked, targets: '12 34 56' })).toBe(true);
    expect(estimateIsStale(described)).toBe(false);
  });

  it('uses the way of collecting picked, else the cheapest', () => {
    expect(chosenStrategy(form(), 'list')).toBe('list');
    expect(chosenStrategy(form({ strategy: 'full' }), 'list')).toBe('full');
  });

  it('sends main the watch described, the list id only when it reads through the list', () => {
    const fields = form({ name: ' Election ', targets: '12\n34', every: 1, unit: 'days', listId: '99' });
    expect(createRequest(fields, 'full')).toEqual({
      name: 'Election',
      kind: 'accounts',
      targets: ['12', '34'],
      strategy: 'full',
      listId: null,
      schedule: { everyMinutes: 1440 },
      caps: { perRun: 5_000, perDay: 20_000, total: 200_000 },
      options: { trackDays: 0, trackEvery: 1 },
    });
    expect(createRequest(fields, 'list').listId).toBe('99');
  });
});

describe("a watch's edit", () => {
  const spec = {
    name: 'Election',
    schedule: { everyMinutes: 60, from: null, until: 1_900_000_000_000 },
    caps: { perRun: 100, perDay: 1_000, total: 10_000 },
  } as WatchSpec;

  it('starts from what the watch is', () => {
    expect(editFields(spec)).toEqual({ name: 'Election', every: 60, perRun: 100, perDay: 1_000, total: 10_000 });
  });

  it('says in words what is wrong with its caps', () => {
    const message = 'A run’s cap cannot exceed the daily cap, nor the daily cap the total; each must be above zero.';
    expect(editProblem({ ...editFields(spec), perDay: 50 })).toBe(message);
    expect(editProblem({ ...editFields(spec), total: 0 })).toBe(message);
    expect(editProblem({ ...editFields(spec), perRun: Number.NaN })).toBe(message);
    expect(editProblem(editFields(spec))).toBeNull();
  });

  it('sends the new name, schedule and caps, keeping the rest of the schedule', () => {
    expect(updatePatch(spec, { ...editFields(spec), name: 'Vote', every: 30, total: 20_000 })).toEqual({
      name: 'Vote',
      schedule: { everyMinutes: 30, from: null, until: 1_900_000_000_000 },
      caps: { perRun: 100, perDay: 1_000, total: 20_000 },
    });
  });
});
