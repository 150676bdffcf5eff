import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PRICES, type PriceTable } from '../../../shared/api';
import type { Mode } from '../../../shared/ipc';
import type { AttemptRecord } from '../../api/client';
import { createUsageMeter, paramsDigest } from './usage-meter';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'skein-usage-'));
  dirs.push(d);
  return d;
};

const rec = (r: Partial<AttemptRecord>): AttemptRecord => ({
  operation: 'postQuotes',
  paramsKey: '[]',
  cursor: null,
  at: 1,
  httpStatus: 200,
  items: 20,
  fromCache: false,
  ...r,
});

function meter(opts: { dir?: string; prices?: PriceTable; mode?: Mode; now?: () => number } = {}) {
  return createUsageMeter({
    dir: opts.dir,
    prices: () => opts.prices ?? DEFAULT_PRICES,
    mode: () => opts.mode ?? 'live',
    ...(opts.now ? { now: opts.now } : {}),
  });
}

describe('usage meter', () => {
  it('prices each request with the shared table: per post, minimum, 501 and cache free', () => {
    const m = meter();
    expect(m.record(rec({ items: 20 }))).toBe(300);
    expect(m.record(rec({ items: 0 }))).toBe(15);
    expect(m.record(rec({ operation: 'article', httpStatus: 501, items: 0 }))).toBe(0);
    expect(m.record(rec({ fromCache: true }))).toBe(0);
    expect(m.record(rec({ operation: 'usersByIds', items: 100, idsAsked: 100 }))).toBe(1_000);
    const s = m.snapshot();
    expect(s.session).toEqual({ calls: 4, credits: 1_315, usd: 1_315 / 100_000 });
    expect(s.recent).toHaveLength(5);
    expect(s.recent[1]).toMatchObject({ fromCache: true, charged: false, credits: 0 });
    expect(s.recent.find((c) => c.httpStatus === 501)).toMatchObject({ charged: false, credits: 0 });
    expect(s.byOperation[0]).toEqual({ operation: 'usersByIds', calls: 1, credits: 1_000 });
  });

  it('follows an edited price table', () => {
    const m = meter({ prices: { ...DEFAULT_PRICES, perPost: 1, minimumPerCall: 0 } });
    expect(m.record(rec({ items: 20 }))).toBe(20);
  });

  it('keeps lifetime totals of live requests across restarts; reset zeroes the session only', () => {
    const dir = tempDir();
    const a = meter({ dir });
    a.record(rec({ items: 2 }));
    meter({ dir, mode: 'demo' }).record(rec({ items: 2 }));
    const b = meter({ dir });
    expect(b.snapshot().lifetime).toMatchObject({ calls: 1, credits: 30 });
    b.record(rec({ items: 1 }));
    expect(b.reset()).toMatchObject({
      session: { calls: 0, credits: 0 },
      lifetime: { calls: 2, credits: 45 },
      recent: [],
      byOperation: [],
    });
  });

  it('keeps a newer Skein’s history and totals: its kinds of change shown by their words, nothing written over', () => {
    const dir = tempDir();
    const history = [
      { at: 1_764_000_300_000, kind: 'key', detail: 'The API key was replaced.', by: 'a newer Skein' },
      { at: 1_764_000_200_000, kind: 'budget', detail: 'Hourly budget 50,000 credits.' },
      { at: 'yesterday', kind: 'reset' },
      { at: 1e300, kind: 'pace', detail: 'Pace 3/s.' },
    ];
    writeFileSync(
      join(dir, 'usage.json'),
      JSON.stringify({ lifetime: { calls: 7, credits: 105 }, history, monthly: { '2026-11': 105 } }),
    );
    const m = meter({ dir });
    expect(m.snapshot()).toMatchObject({
      lifetime: { calls: 7, credits: 105 },
      history: [
        { at: 1_764_000_300_000, kind: 'other', detail: 'The API key was replaced.' },
        { at: 1_764_000_200_000, kind: 'budget', detail: 'Hourly budget 50,000 credits.' },
      ],
      historyUnread: 2,
    });
    m.record(rec({ items: 1 }));
    m.note('pace', 'Pace 1/s.');
    const written = JSON.parse(readFileSync(join(dir, 'usage.json'), 'utf8')) as Record<string, unknown>;
    expect(written).toMatchObject({
      lifetime: { calls: 8, credits: 120 },
      history: [expect.objectContaining({ kind: 'pace', detail: 'Pace 1/s.' }), ...history],
      monthly: { '2026-11': 105 },
    });
  });

  it('sets damaged lifetime totals aside, as they were, and says from when the totals count again', () => {
    const dir = tempDir();
    const file = join(dir, 'usage.json');
    writeFileSync(file, JSON.stringify({ lifetime: { calls: -3, credits: 'many' } }));
    let t = 1_764_000_000_000;
    const m = meter({ dir, now: () => t });
    expect(m.snapshot()).toMatchObject({ lifetime: { calls: 0, credits: 0 }, lifetimeSince: 1_764_000_000_000 });
    m.record(rec({ items: 1 }));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      lifetime: { calls: 1, credits: 15 },
      lifetimeUnread: { value: { calls: -3, credits: 'many' }, since: 1_764_000_000_000 },
    });
    // a later start counts on from the same time, with the damaged totals still kept
    t += 86_400_000;
    const again = meter({ dir, now: () => t });
    expect(again.snapshot()).toMatchObject({ lifetime: { calls: 1, credits: 15 }, lifetimeSince: 1_764_000_000_000 });
    again.record(rec({ items: 1 }));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      lifetime: { calls: 2, credits: 30 },
      lifetimeUnread: { value: { calls: -3, credits: 'many' } },
    });
  });

  it('keeps the totals set aside before when the totals are damaged again, and what a newer Skein wrote beside them', () => {
    const dir = tempDir();
    const file = join(dir, 'usage.json');
    const before = { value: { calls: -3 }, since: 1_700_000_000_000, by: 'a newer Skein' };
    writeFileSync(file, JSON.stringify({ lifetime: { calls: 'x' }, lifetimeUnread: before }));
    const m = meter({ dir, now: () => 1_764_000_000_000 });
    expect(m.snapshot()).toMatchObject({ lifetime: { calls: 0, credits: 0 }, lifetimeSince: 1_764_000_000_000 });
    m.record(rec({ items: 1 }));
    const kept = { value: { calls: 'x' }, since: 1_764_000_000_000, earlier: before };
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ lifetime: { calls: 1 }, lifetimeUnread: kept });
    // read again at a later start, all of it is written back as it was
    meter({ dir, now: () => 1_765_000_000_000 }).record(rec({ items: 1 }));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ lifetime: { calls: 2 }, lifetimeUnread: kept });
    // a set-aside record this Skein cannot read at all is kept too when the totals are damaged again
    writeFileSync(file, JSON.stringify({ lifetime: null, lifetimeUnread: 'cut' }));
    meter({ dir, now: () => 1_766_000_000_000 }).record(rec({ items: 1 }));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      lifetime: { calls: 1 },
      lifetimeUnread: { value: null, since: 1_766_000_000_000, earlier: 'cut' },
    });
  });

  it('keeps what a newer Skein counts beside the lifetime totals', () => {
    const dir = tempDir();
    const file = join(dir, 'usage.json');
    writeFileSync(file, JSON.stringify({ lifetime: { calls: 2, credits: 30, byMonth: { '2026-11': 30 } } }));
    const m = meter({ dir });
    expect(m.snapshot().lifetimeSince).toBeUndefined();
    m.record(rec({ items: 1 }));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      lifetime: { calls: 3, credits: 45, byMonth: { '2026-11': 30 } },
      history: [],
    });
  });

  it('digests params without showing them', () => {
    const m = meter();
    m.record(rec({ paramsKey: '[["tweetId","123"]]', cursor: 'c' }));
    const d = m.snapshot().recent[0]!.paramsDigest;
    expect(d).toMatch(/^[0-9a-f]{12}$/);
    expect(d).not.toContain('123');
    expect(d).toBe(paramsDigest('postQuotes', '[["tweetId","123"]]', 'c'));
  });

  it('lists the most recent calls first, up to recentMax, each digested once and the same in every snapshot', () => {
    const m = createUsageMeter({ prices: () => DEFAULT_PRICES, mode: () => 'live', recentMax: 3 });
    for (let i = 0; i < 5; i++) m.record(rec({ cursor: `c${i}`, at: i }));
    const first = m.snapshot().recent;
    expect(first.map((c) => c.at)).toEqual([4, 3, 2]);
    expect(first.map((c) => c.paramsDigest)).toEqual([4, 3, 2].map((i) => paramsDigest('postQuotes', '[]', `c${i}`)));
    m.record(rec({ cursor: 'c5', at: 5 }));
    const second = m.snapshot().recent;
    expect(second.map((c) => c.at)).toEqual([5, 4, 3]);
    expect(second[1]).toEqual(first[0]);
  });
});
