/**
 * A draw's strata by day over all of a kind's items come from the counts ingest keeps (counts.ts), not a pass over
 * the items: on each store the days and their counts must be the pass's own, as posts arrive, move to another day,
 * and when some have no date, or one before 1970, which the counts cannot name and leave to the items.
 */
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchiveQuery } from '../../shared/ipc/archive';
import { sqliteExecutor } from '../db';
import type { OpenInit } from './host';
import { dayCounts } from './counts';
import { post, rec, repliesAnswer } from './testing/answers';
import { makeStores } from './testing/stores';
import type { ProjectStore } from './store';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** a time as the API writes it: `Wed Oct 10 20:19:24 +0000 2018` */
function apiDate(ms: number): string {
  const d = new Date(ms);
  const hms = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())} ${hms} +0000 ${d.getUTCFullYear()}`;
}

const START = Date.UTC(2026, 2, 1);
const HOUR = 3_600_000;
/** posts over five days, the first and last second of a day among them */
const TIMES = [
  ...Array.from({ length: 40 }, (_, i) => START + i * 3 * HOUR),
  START + 86_400_000 - 1_000,
  START + 2 * 86_400_000,
];

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** the strata a person would count by hand: each day's posts, most first, then by day */
function expected(times: ReadonlyArray<number | null>): Array<{ value: string; count: number }> {
  const counts = new Map<string, number>();
  for (const t of times) {
    const key = t === null ? '(none)' : dayOf(t);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1));
}

describe.each(makeStores().map((s) => ({ s, name: s.name })))('strata by day on $name', ({ s }) => {
  let p: ProjectStore;
  let init: OpenInit;
  const run = s.skip ? it.skip : it;
  beforeAll(async () => {
    if (s.skip) return;
    await s.setup();
    init = s.fresh();
    p = await s.open(init);
  }, 120_000);
  /** whether the counts answered the days themselves (a project file's, read beside the store) */
  const fromCounts = async (): Promise<boolean | null> => {
    if (init.store === 'postgres') return null;
    const db = new DatabaseSync(init.path, { readOnly: true });
    try {
      return (await dayCounts(sqliteExecutor(db), 'post')) !== null;
    } finally {
      db.close();
    }
  };
  afterAll(async () => {
    if (s.skip) return;
    await p.close();
    s.teardown();
  });

  const all = ArchiveQuery.parse({ kind: 'post' });
  // the same posts through a pass over the items: a filter every post here passes
  const passed = ArchiveQuery.parse({ kind: 'post', text: 'post' });
  const strata = async (q: ArchiveQuery) => {
    const c = await p.groupCounts(ArchiveQuery.parse(q), 'day', Number.MAX_SAFE_INTEGER);
    return { total: c.total, groups: c.groups };
  };

  run(`are the items' own as posts arrive, move and lose their dates (${s.skip ?? 'running'})`, async () => {
    const times: Array<number | null> = [...TIMES];
    await p.ingest([
      rec(repliesAnswer(TIMES.map((t, i) => post(String(100 + i), 'a post', { createdAt: apiDate(t) })))),
    ]);
    expect(await strata(all)).toEqual({ total: times.length, groups: expected(times) });
    expect(await strata(all)).toEqual(await strata(passed));
    expect(await fromCounts()).not.toBe(false);

    // a later answer moves two posts a day on, and one to a day of its own
    times[0] = TIMES[0]! + 86_400_000;
    times[1] = TIMES[1]! + 86_400_000;
    times[2] = Date.UTC(2026, 5, 30, 23, 59, 59);
    await p.ingest([
      rec(repliesAnswer([0, 1, 2].map((i) => post(String(100 + i), 'a post', { createdAt: apiDate(times[i]!) }))), {
        at: 2_000,
      }),
    ]);
    expect(await strata(all)).toEqual({ total: times.length, groups: expected(times) });
    expect(await strata(all)).toEqual(await strata(passed));
    expect(await fromCounts()).not.toBe(false);

    // a post without a date, and one from 1969: named by the items, as before
    const before1970 = Date.UTC(1969, 11, 31, 12);
    times.push(null, before1970);
    await p.ingest([
      rec(
        repliesAnswer([
          post('900', 'a post', { createdAt: 'not a date' }),
          post('901', 'a post', { createdAt: apiDate(before1970) }),
        ]),
        { at: 3_000 },
      ),
    ]);
    expect(await strata(all)).toEqual({ total: times.length, groups: expected(times) });
    expect(await strata(all)).toEqual(await strata(passed));
    expect(await fromCounts()).not.toBe(true);
  });
});
