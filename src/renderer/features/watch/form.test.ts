import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES } from '../../../shared/api/pricing';
import type { WatchSpec } from '../../../shared/ipc/watch';
import {
  budgetOf,
  canSwitchOn,
  capsOf,
  capsProblem,
  chosenStrategy,
  createRequest,
  daysUntil,
  describeProblem,
  editFields,
  editProblem,
  estimateIsStale,
  newWatch,
  targetList,
  untilProblem,
  updatePatch,
  watchDraft,
  type NewWatchFields,
} from './form';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 22, 15, 30);
const prices = DEFAULT_PRICES;
const form = (change: Partial<NewWatchFields> = {}): NewWatchFields => ({ ...newWatch(NOW), ...change });
const proposed = { perRun: 3_000, perDay: 30_000, total: 150_000 };

describe('a new watch', () => {
  it('starts every two hours for a week, with the caps the estimate proposes (Skein’s own before one)', () => {
    expect(watchDraft(form(), NOW).everyMinutes).toBe(120);
    expect(form().until).toBe('2026-11-29');
    expect(watchDraft(form(), NOW).days).toBe(7);
    expect(capsOf(form(), null, prices)).toEqual({ perRun: 5_000, perDay: 20_000, total: 200_000 });
    expect(capsOf(form(), proposed, prices)).toEqual(proposed);
    // what the person typed wins; the budget is dollars, the total cap credits
    expect(capsOf(form({ perRun: 4_000, budgetUsd: 2.5 }), proposed, prices)).toEqual({
      perRun: 4_000,
      perDay: 30_000,
      total: 250_000,
    });
    expect(budgetOf(form(), proposed, prices)).toBe(1.5);
  });

  it('reads targets one per line, or separated by spaces or commas', () => {
    expect(targetList(' 12\n34, 56  78\n\n')).toEqual(['12', '34', '56', '78']);
    expect(targetList('   ')).toEqual([]);
  });

  it('says in words what is wrong with its caps and budget, naming the field', () => {
    expect(capsProblem({ perRun: 0, perDay: 10, total: 100 })).toBe('Every cap must be above zero.');
    expect(capsProblem({ perRun: Number.NaN, perDay: 10, total: 100 })).toBe('Every cap must be above zero.');
    expect(capsProblem({ perRun: 50, perDay: 10, total: 100 })).toBe(
      'A run’s cap cannot exceed the cap in any 24 hours.',
    );
    expect(capsProblem({ perRun: 5, perDay: 1000, total: 100 })).toMatch(/^Budget \(\$\) is below/);
    expect(capsProblem({ perRun: 5, perDay: 10, total: 0 })).toMatch(/^Budget \(\$\)/);
    expect(capsProblem({ perRun: 5, perDay: 10, total: 100 })).toBeNull();
  });

  it('says in words, naming the field, what main would otherwise refuse', () => {
    expect(describeProblem(form())).toBeNull();
    expect(describeProblem(form({ listId: 'my list' }))).toBe(
      'A list of these accounts: give the list’s numeric id, or leave it empty.',
    );
    expect(describeProblem(form({ every: 32, unit: 'days' }))).toBe('Run every: from 1 minute to 31 days.');
    expect(describeProblem(form({ trackDays: 400 }))).toBe('Counters of posts younger than (days): from 0 to 365.');
    const ready = form({ name: 'x', targets: '12', listId: 'my list' });
    expect(canSwitchOn(ready, 'full', capsOf(ready, proposed, prices), NOW)).toBe(false);
  });

  it('runs until a day after today, said in words when it is not one', () => {
    expect(daysUntil('2026-11-23', NOW)).toBe(1);
    expect(untilProblem('', NOW)).toBeNull();
    expect(untilProblem('2026-11-22', NOW)).toBe('Run until: give a day after today.');
    expect(untilProblem('soon', NOW)).toBe('Run until: give a day (year, month, day).');
    expect(watchDraft(form({ until: '' }), NOW).days).toBeNull();
  });

  it('cannot be switched on without a name, a way of collecting, with handles unresolved, or caps that do not fit', () => {
    const ready = form({ name: 'Election', targets: '12' });
    const caps = capsOf(ready, proposed, prices);
    expect(canSwitchOn(ready, 'full', caps, NOW)).toBe(true);
    expect(canSwitchOn({ ...ready, name: '  ' }, 'full', caps, NOW)).toBe(false);
    expect(canSwitchOn(ready, null, caps, NOW)).toBe(false);
    expect(canSwitchOn(ready, 'full', { ...caps, perRun: 40_000 }, NOW)).toBe(false);
    expect(canSwitchOn({ ...ready, targets: '12 @somebody' }, 'full', caps, NOW)).toBe(false);
    const resolved = { ...ready, targets: '12 @somebody', resolutions: { somebody: { id: '34' } } };
    expect(canSwitchOn(resolved, 'full', caps, NOW)).toBe(true);
    const nobody = { ...ready, targets: '12 @nobody', resolutions: { nobody: { missing: 'no such account' } } };
    expect(canSwitchOn(nobody, 'full', caps, NOW)).toBe(false);
  });

  it('asks for the estimate of what it describes, the handles to resolve counted in, and knows when it changed', () => {
    const described = form({ targets: '12 34 @x', every: 30, unit: 'minutes', trackDays: 7, listId: ' 99 ' });
    expect(watchDraft(described, NOW)).toEqual({
      kind: 'accounts',
      targets: ['12', '34'],
      unresolved: 1,
      listId: '99',
      everyMinutes: 30,
      days: 7,
      options: { trackDays: 7, trackEvery: 48 },
    });
    const asked = { ...described, estimated: watchDraft(described, NOW) };
    expect(estimateIsStale(asked, NOW)).toBe(false);
    expect(estimateIsStale({ ...asked, targets: '12 34 56' }, NOW)).toBe(true);
    expect(estimateIsStale({ ...asked, until: '2026-12-22' }, NOW)).toBe(true);
    expect(estimateIsStale(described, NOW)).toBe(false);
  });

  it('uses the way of collecting picked, else the cheapest', () => {
    expect(chosenStrategy(form(), 'list')).toBe('list');
    expect(chosenStrategy(form({ strategy: 'full' }), 'list')).toBe('full');
  });

  it('sends main the ids with the handles they were given as, its end, and the list id only when it reads through the list', () => {
    const fields = form({
      name: ' Election ',
      targets: '12\n@Somebody, https://x.com/somebody',
      resolutions: { somebody: { id: '34' } },
      every: 1,
      unit: 'days',
      listId: '99',
    });
    expect(createRequest(fields, 'full', proposed, NOW)).toEqual({
      name: 'Election',
      kind: 'accounts',
      targets: ['12', '34'],
      handles: { '34': 'Somebody' },
      strategy: 'full',
      listId: null,
      schedule: { everyMinutes: 1440, from: null, until: NOW + 7 * DAY },
      caps: proposed,
      options: { trackDays: 0, trackEvery: 1 },
    });
    expect(createRequest(fields, 'list', proposed, NOW).listId).toBe('99');
    // off unless ticked; ticked, main is asked to keep the media of new posts after each run
    expect(createRequest({ ...fields, keepMedia: true }, 'full', proposed, NOW).options).toEqual({
      trackDays: 0,
      trackEvery: 1,
      keepMedia: true,
    });
    expect(createRequest({ ...fields, kind: 'trends', keepMedia: true }, 'full', proposed, NOW).options).toEqual({
      trackDays: 0,
      trackEvery: 1,
    });
  });
});

describe("a watch's edit", () => {
  const until = Date.UTC(2026, 11, 1, 9, 15);
  const spec = {
    name: 'Election',
    kind: 'trends',
    schedule: { everyMinutes: 60, from: null, until },
    caps: { perRun: 100, perDay: 1_000, total: 10_000 },
    options: {},
  } as WatchSpec;

  it('starts from what the watch is: its last day, and its total cap as a budget in dollars', () => {
    expect(editFields(spec, prices)).toEqual({
      name: 'Election',
      every: 60,
      until: '2026-12-01',
      perRun: 100,
      perDay: 1_000,
      budgetUsd: 0.1,
      keepMedia: false,
    });
  });

  it('switches keeping media after each run on and off for a watch of posts only', () => {
    const posts = { ...spec, kind: 'accounts', options: { ...spec.options, keepMedia: true } } as WatchSpec;
    expect(editFields(posts, prices).keepMedia).toBe(true);
    expect(updatePatch(posts, { ...editFields(posts, prices), keepMedia: false }, prices, NOW).options).toEqual({
      keepMedia: false,
    });
    // trends carry no posts: nothing to switch
    expect(updatePatch(spec, { ...editFields(spec, prices), keepMedia: true }, prices, NOW).options).toBeUndefined();
  });

  it('says in words what is wrong, naming the field', () => {
    expect(editProblem({ ...editFields(spec, prices), perDay: 50 }, prices, NOW)).toMatch(/run’s cap cannot exceed/);
    expect(editProblem({ ...editFields(spec, prices), budgetUsd: 0 }, prices, NOW)).toMatch(/^Budget \(\$\)/);
    expect(editProblem({ ...editFields(spec, prices), perRun: Number.NaN }, prices, NOW)).toMatch(/above zero/);
    expect(editProblem({ ...editFields(spec, prices), until: '2026-11-01' }, prices, NOW)).toMatch(/^Run until/);
    expect(editProblem({ ...editFields(spec, prices), every: 0 }, prices, NOW)).toMatch(/^Run every \(minutes\)/);
    expect(editProblem(editFields(spec, prices), prices, NOW)).toBeNull();
  });

  it('sends the new name, schedule and caps, keeping the end’s time of day when its day did not change', () => {
    expect(
      updatePatch(spec, { ...editFields(spec, prices), name: 'Vote', every: 30, budgetUsd: 0.2 }, prices, NOW),
    ).toEqual({
      name: 'Vote',
      schedule: { everyMinutes: 30, from: null, until },
      caps: { perRun: 100, perDay: 1_000, total: 20_000 },
    });
    expect(updatePatch(spec, { ...editFields(spec, prices), until: '2026-11-25' }, prices, NOW).schedule?.until).toBe(
      NOW + 3 * DAY,
    );
    expect(updatePatch(spec, { ...editFields(spec, prices), until: '' }, prices, NOW).schedule?.until).toBeNull();
  });
});
