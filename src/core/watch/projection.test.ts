import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES } from '../../shared/api/pricing';
import { WatchOptions } from '../../shared/ipc/watch';
import { availability, postingRates, projectWatch, type ProjectionInput } from './projection';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 22);
const targets = Array.from({ length: 20 }, (_, i) => String(1000 + i));

function input(over: Partial<ProjectionInput>): ProjectionInput {
  return {
    kind: 'accounts',
    targets,
    strategy: 'full',
    everyMinutes: 60,
    options: WatchOptions.parse({}),
    rates: postingRates(targets, [], [], NOW),
    prices: DEFAULT_PRICES,
    largestPage: () => 0,
    ...over,
  };
}

describe('a watch’s projected cost', () => {
  it('states the page its caps assume: the largest seen live for replies, or the project’s own when larger', () => {
    const replies = projectWatch(input({ kind: 'replies', targets: ['1'] }));
    // the field notes' 38-post replies page at 15 credits a post
    expect(replies.pageBound).toEqual({ items: 38, credits: 570 });
    const bigger = projectWatch(input({ kind: 'replies', targets: ['1'], largestPage: () => 45 }));
    expect(bigger.pageBound).toEqual({ items: 45, credits: 675 });
    expect(projectWatch(input({})).pageBound).toEqual({ items: 20, credits: 300 });
  });

  it('full pages: every account’s newest page each run, billed per post on it (the issue’s $430 a month for 200)', () => {
    const p = projectWatch(input({}));
    // 20 accounts × 300 credits (20 posts × 15) × 24 runs a day
    expect(p.perRun).toBe(6_000);
    expect(p.perDay).toBe(144_000);
    expect(p.perMonth).toBe(4_320_000);
    expect(p.usdPerMonth).toBeCloseTo(43.2, 5);
    const many = Array.from({ length: 200 }, (_, i) => String(i + 1));
    expect(projectWatch(input({ targets: many, rates: postingRates(many, [], [], NOW) })).usdPerMonth).toBeCloseTo(
      432,
      5,
    );
  });

  it('a probe first: the batch lookup each run, and a page only where the count is likely to have moved', () => {
    const quiet = postingRates(
      targets,
      [],
      targets.map((id) => ({ id, statusesCount: 365, createdAt: NOW - 365 * DAY })),
      NOW,
    );
    const p = projectWatch(input({ strategy: 'probe', rates: quiet }));
    // 20 ids asked (< 100): 18 credits each; about one post a day each: ~4 % chance a run finds a change
    expect(p.parts[0]).toEqual({ label: 'the probe of 20', perDay: 20 * 18 * 24 });
    expect(p.perDay).toBeLessThan(projectWatch(input({ rates: quiet })).perDay / 4);
    expect(p.basis).toMatch(/20 from their lifetime averages/);
    // 200 quiet accounts hourly: the issue's $45–58 a month
    const many = Array.from({ length: 200 }, (_, i) => String(i + 1));
    const manyQuiet = postingRates(
      many,
      [],
      many.map((id) => ({ id, statusesCount: 365, createdAt: NOW - 365 * DAY })),
      NOW,
    );
    const m = projectWatch(input({ strategy: 'probe', targets: many, rates: manyQuiet }));
    expect(m.usdPerMonth).toBeGreaterThan(40);
    expect(m.usdPerMonth).toBeLessThan(70);
  });

  it('through one list: one list timeline a run (the issue’s $1–2 a month for 200)', () => {
    const many = Array.from({ length: 200 }, (_, i) => String(i + 1));
    const quiet = postingRates(
      many,
      [],
      many.map((id) => ({ id, statusesCount: 36, createdAt: NOW - 365 * DAY })),
      NOW,
    );
    const p = projectWatch(input({ strategy: 'list', targets: many, rates: quiet }));
    expect(p.perRun).toBe(150);
    expect(p.usdPerMonth).toBeCloseTo(1.08, 2);
    expect(availability('accounts', 'list', null)).toMatch(/list/);
    expect(availability('accounts', 'list', '123')).toBeNull();
    expect(availability('community', 'probe', null)).toMatch(/cannot be read this way/);
  });

  it('learns posting rates from the posts the project holds, else a profile, else says what it assumed', () => {
    const r = postingRates(
      ['1', '2', '3'],
      [{ author: '1', posts: 11, first: NOW - 5 * DAY, last: NOW }],
      [{ id: '2', statusesCount: 730, createdAt: NOW - 365 * DAY }],
      NOW,
    );
    expect(r.perTarget.get('1')).toBe(2);
    expect(r.perTarget.get('2')).toBe(2);
    expect(r.perTarget.get('3')).toBe(1);
    expect(r.from).toEqual({ recent: 1, lifetime: 1, assumed: 1 });
    expect(projectWatch(input({ targets: ['1', '2', '3'], rates: r })).basis).toMatch(
      /1 from their timelines this project holds; 1 from their lifetime averages; 1 assumed at 1 post a day/,
    );
  });

  it('a burst is not a rate: a short history gives way to the account’s own counters', () => {
    // 20 replies in 0.22 days became "19 posts a day" (the whole span counted as a day); the account posts ~2 a day
    const burst = { author: '1', posts: 20, first: NOW - 0.3 * DAY, last: NOW - 0.08 * DAY };
    const facts = [{ id: '1', statusesCount: 730, createdAt: NOW - 365 * DAY }];
    const r = postingRates(['1'], [burst], facts, NOW);
    expect(r.perTarget.get('1')).toBe(2);
    expect(r.from).toEqual({ recent: 0, lifetime: 1, assumed: 0 });
    // with no counters to go on, the burst is spread over the shortest history that counts
    const alone = postingRates(['1'], [burst], [], NOW);
    expect(alone.perTarget.get('1')).toBeCloseTo(19 / 3, 5);
    // a history of days is a rate
    expect(postingRates(['1'], [{ ...burst, first: NOW - 10 * DAY }], facts, NOW).perTarget.get('1')).toBeCloseTo(
      19 / 9.92,
      5,
    );
  });

  it('pages larger than 20, as the live service sends, make a page cost more', () => {
    expect(projectWatch(input({ largestPage: () => 38 })).perRun).toBe(20 * 38 * 15);
  });

  it('counters of recent posts re-read by id, once a day', () => {
    const p = projectWatch(input({ options: WatchOptions.parse({ trackDays: 7, trackEvery: 24 }) }));
    // 20 accounts × 1 post a day × 7 days = 140 posts: two batches, 15 credits a post
    expect(p.parts.at(-1)).toEqual({ label: 'counters of posts younger than 7 days', perDay: 140 * 15 });
  });
});

describe('the whole watch’s cost, first read included', () => {
  const quiet = postingRates(
    targets.slice(0, 10),
    [],
    targets.slice(0, 10).map((id) => ({ id, statusesCount: 365, createdAt: NOW - 365 * DAY })),
    NOW,
  );
  const ten = (over: Partial<ProjectionInput>) =>
    projectWatch(input({ targets: targets.slice(0, 10), rates: quiet, everyMinutes: 120, ...over }));

  it('prices the first run’s read of every account’s starting point, far above a probed run', () => {
    const p = ten({ strategy: 'probe' });
    // the probe of 10 (18 each) and each account's first page at its largest (20 posts × 15)
    expect(p.firstRun).toBe(10 * 18 + 10 * 300);
    expect(p.perRun).toBeLessThan(1_000);
    expect(p.basis).toMatch(/The first run reads each account id’s starting point \(1 page each/);
    // two first pages each: twice the listings
    expect(ten({ strategy: 'probe', options: WatchOptions.parse({ firstPages: 2 }) }).firstRun).toBe(180 + 6_000);
  });

  it('over its days: the first run, then the others, and the handles still to resolve (a people search each)', () => {
    const p = ten({ strategy: 'probe', days: 7 });
    expect(p.whole?.runs).toBe(84);
    // the full read every 24 runs is made three times after the first read (runs 24, 48 and 72), not a share of each
    const fullPerDay = p.parts.find((x) => x.label.startsWith('a full read'))?.perDay ?? 0;
    const full = (fullPerDay * 24) / p.runsPerDay;
    expect(full).toBeGreaterThan(0);
    expect(p.whole?.credits).toBeCloseTo((p.firstRun ?? 0) + 83 * (p.perRun - full / 24) + 3 * full, 6);
    // a week at two runs a day reaches none: its runs are the probe and what it finds moved
    const week = ten({ strategy: 'probe', days: 7, everyMinutes: 720 });
    const weekFull = ((week.parts.find((x) => x.label.startsWith('a full read'))?.perDay ?? 0) * 24) / week.runsPerDay;
    expect(week.whole?.runs).toBe(14);
    expect(week.whole?.credits).toBeCloseTo((week.firstRun ?? 0) + 13 * (week.perRun - weekFull / 24), 6);
    expect(p.whole?.usd).toBeCloseTo((p.whole?.credits ?? 0) / 100_000, 9);
    const withHandles = ten({ strategy: 'probe', days: 7, targets: targets.slice(0, 7), unresolved: 3 });
    // the three handles are read as accounts (the assumed rate) and each resolved by one people search (20 × 18)
    expect(withHandles.resolving).toBe(3 * 360);
    expect(withHandles.firstRun).toBe(10 * 18 + 10 * 300);
    // every handle unresolved: their rates are said as assumed, not an empty list
    const allHandles = ten({
      strategy: 'probe',
      days: 7,
      targets: [],
      unresolved: 10,
      rates: postingRates([], [], [], NOW),
    });
    expect(allHandles.basis).toContain('Posting rates: 10 assumed at');
    expect(allHandles.basis).not.toMatch(/Posting rates: \./);
    expect(ten({ strategy: 'probe' }).whole).toBeUndefined();
  });

  it('proposes a run’s cap that covers the first read, and a total that covers the whole watch', () => {
    for (const strategy of ['probe', 'full'] as const) {
      const p = ten({ strategy, days: 7 });
      const caps = p.caps as NonNullable<typeof p.caps>;
      expect(caps.perRun).toBeGreaterThanOrEqual(p.firstRun ?? Infinity);
      expect(caps.perDay).toBeGreaterThanOrEqual(caps.perRun);
      expect(caps.perDay).toBeGreaterThanOrEqual((p.firstRun ?? 0) + p.perDay);
      expect(caps.total).toBeGreaterThanOrEqual(p.whole?.credits ?? Infinity);
    }
  });
});
