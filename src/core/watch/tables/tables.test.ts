/**
 * The watch tables, on each store (a SQLite file and a PostgreSQL schema of a throwaway cluster, the archive's
 * testing/stores.ts): what a run's end settles (presence, counters, gaps), the reads the Watches view and the
 * tables export make, the one runner's row, and a project's copy carrying them, asserted alike on both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postFixture, userFixture } from '../../../shared/api/fixtures';
import { PARTS } from '../../compose/parts';
import type { IngestRecord } from '../../archive/answer';
import { ArchiveHost } from '../../archive/host';
import type { ProjectStore as Project } from '../../archive/store';
import { makeStores, STORES, type StoreUnderTest } from '../../archive/testing/stores';
import { sql, type Db } from '../../db';
import { csvLine } from './csv';
import { WATCH_PART_NAME } from './part';
import { runOutcome } from '../testing/outcome';
import type { DeltaKey, DeltaRecord } from './records';
import type { WatchTables } from './watch-tables';

const T = Date.UTC(2026, 10, 22, 6);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** a project's watch tables, as the archive's host serves them */
const tables = (p: Project): WatchTables => p.parts.get(WATCH_PART_NAME) as WatchTables;

async function aWatch(p: Project, name = 'w'): Promise<number> {
  return tables(p).createWatch({ name, kind: 'accounts', spec: `{"name":"${name}"}`, createdAt: T, nextDue: T });
}

async function aRun(p: Project, watch: number, at: number, token = 't'): Promise<number> {
  return tables(p).startRun({ watch, startedAt: at, scheduledFor: at, runner: 'test', token, journal: 'j', asked: '' });
}

function watchTests(s: StoreUnderTest): void {
  it('keeps watches: made, changed, paused and removed', async () => {
    const p = await s.open();
    const a = await aWatch(p, 'a \u0000 <b>');
    const b = await aWatch(p, 'b');
    await tables(p).updateWatch(a, { paused: true, pausedAt: T + 1, state: '{"x":1}', nextDue: null });
    await tables(p).updateWatch(b, { removedAt: T + 2 });
    await tables(p).updateWatch(b, {});
    expect(await tables(p).watches()).toEqual([
      {
        id: a,
        name: 'a \u0000 <b>',
        kind: 'accounts',
        spec: '{"name":"a \u0000 <b>"}',
        createdAt: T,
        paused: true,
        pausedAt: T + 1,
        removedAt: null,
        nextDue: null,
        state: '{"x":1}',
      },
    ]);
    expect(await tables(p).watch(b)).toMatchObject({ id: b, removedAt: T + 2, paused: false });
    expect(await tables(p).watch(b + 10)).toBeNull();
    await p.close();
  });

  it('settles a run’s end in one go: what was seen, missed, asked again, gone and back', async () => {
    const p = await s.open();
    const w = await aWatch(p);
    const r1 = await aRun(p, w, T);
    await tables(p).progressRun(r1, { calls: 3, credits: 45, asked: 'a' });
    expect(await tables(p).openRuns()).toEqual([
      expect.objectContaining({ id: r1, calls: 3, credits: 45, status: 'running' }),
    ]);
    await tables(p).finishRun(
      runOutcome(r1, w, T, {
        seen: [
          { kind: 'post', id: 'A', target: null, createdAt: T - HOUR, at: T, baseline: true },
          { kind: 'post', id: 'B', target: 'u', createdAt: T - 2 * HOUR, at: T, baseline: true },
          { kind: 'post', id: 'C', target: 'u', createdAt: null, at: T, baseline: false },
          // the same item twice in one run: the later sighting fills what the first lacked
          { kind: 'post', id: 'A', target: 'u', createdAt: T - 3 * HOUR, at: T + 5, baseline: false },
        ],
        // not held yet: nothing to mark missing
        missing: [{ kind: 'post', id: 'Z', at: T, reason: 'not in the listing' }],
        watch: { id: w, state: '{"u":{"posts":3}}', nextDue: T + HOUR },
      }),
    );
    expect(await tables(p).openRuns()).toEqual([]);
    expect(await tables(p).watch(w)).toMatchObject({ state: '{"u":{"posts":3}}', nextDue: T + HOUR });
    const present = await tables(p).presenceOf(w, {});
    // newest first by creation (an item without a time last), then by id
    expect(present.map((x) => x.id)).toEqual(['A', 'B', 'C']);
    expect(present[0]).toEqual({
      watch: w,
      kind: 'post',
      id: 'A',
      target: 'u',
      createdAt: T - HOUR,
      firstSeen: T,
      lastSeen: T + 5,
      firstRun: r1,
      baseline: true,
      firstMissingAt: null,
      rechecks: 0,
      status: 'present',
      reason: null,
      statusAt: T,
      nextCheck: null,
    });

    // run 2: B missing, C missing; run 3: B asked again and not found (gone), C found (present again)
    const r2 = await aRun(p, w, T + HOUR);
    await tables(p).finishRun(
      runOutcome(r2, w, T + HOUR, {
        missing: [
          { kind: 'post', id: 'B', at: T + HOUR, reason: 'not in the listing' },
          { kind: 'post', id: 'C', at: T + HOUR, reason: 'not in the listing' },
        ],
      }),
    );
    expect(await tables(p).presenceOf(w, { statuses: ['missing'], dueBy: T + HOUR })).toEqual([
      expect.objectContaining({ id: 'B', status: 'missing', firstMissingAt: T + HOUR, nextCheck: T + HOUR }),
      expect.objectContaining({ id: 'C', status: 'missing' }),
    ]);
    const r3 = await aRun(p, w, T + 2 * HOUR);
    await tables(p).finishRun(
      runOutcome(r3, w, T + 2 * HOUR, {
        rechecked: [
          { kind: 'post', id: 'B', at: T + 2 * HOUR, found: false, reason: 'not found by id', nextCheck: T + DAY },
          { kind: 'post', id: 'C', at: T + 2 * HOUR, found: true, reason: 'found by id', nextCheck: null },
          { kind: 'post', id: 'nope', at: T + 2 * HOUR, found: false, reason: 'never held', nextCheck: null },
        ],
      }),
    );
    const b = (await tables(p).presenceOf(w, { statuses: ['gone'] }))[0];
    expect(b).toMatchObject({ id: 'B', status: 'gone', statusAt: T + 2 * HOUR, firstMissingAt: T + HOUR, rechecks: 1 });
    expect(b?.nextCheck).toBe(T + DAY);
    expect((await tables(p).presenceOf(w, { targets: ['u'], statuses: ['present'] })).map((x) => x.id)).toEqual([
      'A',
      'C',
    ]);
    // asked again, still gone: when it went stays; then seen in a listing: back
    const r4 = await aRun(p, w, T + DAY);
    await tables(p).finishRun(
      runOutcome(r4, w, T + DAY, {
        rechecked: [
          { kind: 'post', id: 'B', at: T + DAY, found: false, reason: 'still not found', nextCheck: T + 7 * DAY },
        ],
      }),
    );
    expect((await tables(p).presenceOf(w, { statuses: ['gone'] }))[0]).toMatchObject({
      statusAt: T + 2 * HOUR,
      rechecks: 2,
    });
    const r5 = await aRun(p, w, T + 2 * DAY);
    await tables(p).finishRun(
      runOutcome(r5, w, T + 2 * DAY, {
        seen: [{ kind: 'post', id: 'B', target: 'u', createdAt: T - 2 * HOUR, at: T + 2 * DAY, baseline: false }],
      }),
    );
    expect(
      (await tables(p).presenceOf(w, { kind: 'post', createdSince: T - 2 * HOUR })).map((x) => [x.id, x.status]),
    ).toEqual([
      ['A', 'present'],
      ['B', 'returned'],
    ]);
    expect((await tables(p).stats(w, T + 2 * DAY)).attrition).toEqual({
      present: 2,
      missing: 0,
      gone: 0,
      returned: 1,
      other: 0,
    });
    // a status a newer Skein wrote (a shared project), one named like an object's own key among them, is counted
    // apart: never as a key of its own, never lost
    const db = (tables(p) as unknown as { db: Db }).db;
    await db.run(sql`UPDATE watch_presence SET status = '__proto__' WHERE watch = ${w} AND id = 'A'`);
    await db.run(sql`UPDATE watch_presence SET status = 'hidden' WHERE watch = ${w} AND id = 'B'`);
    expect((await tables(p).stats(w, T + 2 * DAY)).attrition).toEqual({
      present: 1,
      missing: 0,
      gone: 0,
      returned: 0,
      other: 2,
    });
    await db.run(sql`UPDATE watch_presence SET status = 'present' WHERE watch = ${w} AND id = 'A'`);
    await db.run(sql`UPDATE watch_presence SET status = 'returned' WHERE watch = ${w} AND id = 'B'`);
    // the attrition table: gone, missing, back, then the rest; its pages by key
    // (C's status changed after A's: the later first)
    expect((await tables(p).attrition({ watch: w, offset: 0, limit: 10 })).map((x) => x.id)).toEqual(['B', 'C', 'A']);
    expect((await tables(p).attrition({ status: 'returned', offset: 0, limit: 10 })).map((x) => x.id)).toEqual(['B']);
    const first = await tables(p).attritionPage({ watch: w, after: null, limit: 2 });
    const last = first[first.length - 1];
    const next = await tables(p).attritionPage({
      after: last ? { watch: w, kind: last.kind, id: last.id } : null,
      limit: 2,
    });
    expect([...first, ...next].map((x) => x.id)).toEqual(['A', 'B', 'C']);
    await p.close();
  });

  /** a project holding these counters, each item's values one after another an hour apart (the same value again: its last sighting later) */
  async function withCounters(
    values: ReadonlyArray<{ kind: string; id: string; metric: string; values: number[]; at?: number[] }>,
  ) {
    const p = await s.open();
    const w = await aWatch(p);
    const counters = values.flatMap((c) =>
      c.values.map((value, k) => ({ kind: c.kind, id: c.id, metric: c.metric, at: c.at?.[k] ?? T + k * HOUR, value })),
    );
    await tables(p).finishRun(runOutcome(await aRun(p, w, T), w, T, { counters }));
    return p;
  }

  /** the line the export made of a row before its pages were made in the store: what they must match, byte for byte */
  const rowLine = (d: DeltaRecord): string =>
    csvLine([
      d.id,
      d.metric,
      new Date(d.at).toISOString(),
      d.value,
      d.previous,
      d.previous === null ? null : d.value - d.previous,
      d.kind,
      d.previousSeenAt === null ? '' : new Date(d.previousSeenAt).toISOString(),
    ]);

  /** a page's bytes as text, failing on any that are not UTF-8 (so equal text is equal bytes) */
  const utf8 = (bytes: Uint8Array): string => new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);

  /** the deltas table's lines as the export wrote them before the store made them: rows read, lines made here */
  async function linesFromRows(p: Project): Promise<{ text: string; rows: number }> {
    let text = '';
    let rows = 0;
    let after: DeltaKey | null = null;
    for (;;) {
      const page = await tables(p).deltas({ after, limit: 1_000 });
      text += page.map(rowLine).join('');
      rows += page.length;
      // as the file held them (written as UTF-8: half a surrogate pair as U+FFFD)
      if (page.length < 1_000) return { text: utf8(Buffer.from(text)), rows };
      after = page.at(-1) ?? null;
    }
  }

  /** the same table made by the store, pages of `limit` rows */
  async function linesFromStore(p: Project, limit: number): Promise<{ text: string; rows: number }> {
    let text = '';
    let rows = 0;
    let after: DeltaKey | null = null;
    for (;;) {
      const page = await tables(p).deltaPage({ after, limit });
      text += utf8(page.text);
      rows += page.rows;
      if (page.rows < limit) return { text, rows };
      after = page.last;
    }
  }

  it('makes the deltas table in the store, byte for byte as the export made it from rows, hostile text and all', async () => {
    const odd = [
      'a,b',
      'say "hi"',
      'two\nlines',
      'cr\rlf\r\n',
      'cr\ronly',
      '東京:#トレンド',
      '',
      ' spaced ',
      '""',
      ',',
    ];
    odd.push('nul\u0000in', 'mark\u0001', 'half \uD800 a pair');
    // what PostgreSQL's COPY text escapes or means: a tab, a backslash, its null's spelling, a backslash at the end
    odd.push('tab\there', 'back\\slash', '\\N', 'ends\\', '\\t\\n', 'ü\u00a0\u2028');
    // increasing (an older reading is kept out): the first and last milliseconds of four-digit years, and 1970's edges
    const far = [-62_135_596_800_000, -62_135_596_799_999, -1_001, -999, -1, 0, 999, 253_402_300_799_999];
    const p = await withCounters([
      ...odd.map((id, i) => ({
        kind: 'trend',
        id,
        metric: odd[(i + 1) % odd.length] ?? 'rank',
        values: [1, 2, 2, -3],
      })),
      { kind: 'post,x', id: '1', metric: 'likes', values: [-4_503_599_627_370_495, 4_503_599_627_370_495, 0, -7] },
      { kind: 'post', id: '2', metric: 'views', values: far.map((_, k) => k * 1_000 - 3), at: far },
      ...Array.from({ length: 40 }, (_, i) => ({
        kind: 'post',
        id: String(1e18 + i * 1_000),
        metric: 'likes',
        values: [i, i + 1, i * 3],
      })),
    ]);
    const expected = await linesFromRows(p);
    expect(expected.rows).toBe(odd.length * 3 + 4 + far.length + 40 * 3);
    expect(expected.text).toContain('"say ""hi""",');
    expect(expected.text).toContain('0001-01-01T00:00:00.000Z,-3,,,post,');
    expect(expected.text).toContain('9999-12-31T23:59:59.999Z');
    // pages cut anywhere, the value before a page's first row carried across
    for (const limit of [1, 2, 7, 5_000]) expect(await linesFromStore(p, limit)).toEqual(expected);
    await p.close();
  });

  it('makes the deltas table right when exports are left halfway, cross, and a run lands between their pages', async () => {
    const p = await withCounters(
      Array.from({ length: 30 }, (_, i) => ({
        kind: 'post',
        id: `19${String(i).padStart(17, '0')}`,
        metric: i % 2 ? 'likes' : 'views',
        values: [i, i + 1, i + 3],
      })),
    );
    const expected = await linesFromRows(p);
    // one export left after its first page (its rows still being read, on a team project), then another whole
    const first = await tables(p).deltaPage({ after: null, limit: 7 });
    expect(await linesFromStore(p, 7)).toEqual(expected);
    // the first goes on where it stood
    let text = utf8(first.text);
    let after = first.last;
    for (;;) {
      const page = await tables(p).deltaPage({ after, limit: 7 });
      text += utf8(page.text);
      if (page.rows < 7) break;
      after = page.last;
    }
    expect(text).toBe(expected.text);
    // two exports a page each in turn: an item's and the whole table's
    const item = { kind: 'post', id: `19${String(1).padStart(17, '0')}` };
    const whole = await tables(p).deltaPage({ after: null, limit: 10 });
    const itemPage = await tables(p).deltaPage({ item, after: null, limit: 2 });
    const wholeNext = await tables(p).deltaPage({ after: whole.last, limit: 10 });
    const itemNext = await tables(p).deltaPage({ item, after: itemPage.last, limit: 2 });
    expect(utf8(whole.text) + utf8(wholeNext.text)).toBe(`${expected.text.split('\n').slice(0, 20).join('\n')}\n`);
    expect(utf8(itemPage.text) + utf8(itemNext.text)).toBe(
      (await tables(p).deltas({ item, after: null, limit: 100 })).map(rowLine).join(''),
    );
    expect(itemPage.rows + itemNext.rows).toBe(3);
    // a run lands between two pages: the export finishes, and the table read afresh holds the run's new values
    const page = await tables(p).deltaPage({ after: null, limit: 50 });
    const w = (await tables(p).watches())[0]!.id;
    const r = await aRun(p, w, T + 10 * HOUR);
    await tables(p).finishRun(
      runOutcome(r, w, T + 10 * HOUR, {
        counters: [
          { kind: 'post', id: `19${String(29).padStart(17, '0')}`, metric: 'likes', at: T + 10 * HOUR, value: 99 },
        ],
      }),
    );
    let rows = page.rows;
    for (let next = page.last; next;) {
      const more = await tables(p).deltaPage({ after: next, limit: 50 });
      rows += more.rows;
      next = more.rows < 50 ? null : more.last;
    }
    expect(rows).toBeGreaterThanOrEqual(expected.rows);
    expect((await linesFromStore(p, 50)).text).toContain(',likes,');
    expect((await linesFromStore(p, 50)).rows).toBe(expected.rows + 1);
    // closing the project while a page is held waits for nothing
    await tables(p).deltaPage({ after: null, limit: 5 });
    await p.close();
  });

  if (s.name === 'postgres')
    it('says so when the team’s server goes away mid-table, and goes on from the last page once it is back', async () => {
      // more rows than the connection and the socket buffer between them (15 MB), so the server is missed mid-stream
      const p = await withCounters(
        Array.from({ length: 60_000 }, (_, i) => ({
          kind: 'post',
          id: `19${String(i).padStart(17, '0')}`,
          metric: 'likes',
          values: [i, i + 1, i + 3],
        })),
      );
      const expected = await linesFromRows(p);
      let text = '';
      let after: DeltaKey | null = null;
      const page = (limit: number) => tables(p).deltaPage({ after, limit });
      const first = await page(1_000);
      text += utf8(first.text);
      after = first.last;
      s.cluster!().pause();
      let failure: unknown = null;
      try {
        for (;;) {
          const next = await page(1_000);
          text += utf8(next.text);
          after = next.last;
          if (next.rows < 1_000) break;
        }
      } catch (e) {
        failure = e;
      } finally {
        s.cluster!().resume();
      }
      expect(String(failure)).toMatch(/Nothing answers at|lost|server/i);
      for (;;) {
        const next = await page(1_000);
        text += utf8(next.text);
        after = next.last;
        if (next.rows < 1_000) break;
      }
      expect(text).toBe(expected.text);
      await p.close();
    }, 180_000);

  it('writes times past four-digit years and counters past 2^52 or not whole as the export did', async () => {
    const p = await withCounters([
      {
        kind: 'post',
        id: 'a',
        metric: 'likes',
        values: [4_503_599_627_370_496, -4_503_599_627_370_497, 1.5, 1e21, -0, 3],
      },
      {
        kind: 'post',
        id: 'b',
        metric: 'likes',
        values: [1, 2, 3, 4],
        at: [-62_135_596_800_001, -62_135_596_800_000, 253_402_300_800_000, 8.64e15],
      },
      { kind: 'post', id: 'f', metric: 'likes', values: [5, 6] },
    ]);
    const expected = await linesFromRows(p);
    expect(expected.text).toContain('+275760-09-13T00:00:00.000Z');
    expect(expected.text).toContain(',1e+21,');
    for (const limit of [1, 3, 5_000]) expect(await linesFromStore(p, limit)).toEqual(expected);
    await p.close();
  });

  it('keeps counters as values over time, and reads the deltas table a page at a time by key', async () => {
    const p = await s.open();
    const w = await aWatch(p);
    const r1 = await aRun(p, w, T);
    const c = (id: string, metric: string, at: number, value: number) => ({ kind: 'post', id, metric, at, value });
    await tables(p).finishRun(
      runOutcome(r1, w, T, {
        seen: [{ kind: 'post', id: 'A', target: null, createdAt: T, at: T, baseline: true }],
        counters: [
          c('A', 'likes', T, 1),
          c('A', 'likes', T + 10, 1), // the same value: stretches its last sighting
          c('A', 'likes', T + 20, 3),
          c('A', 'likes', T + 15, 2), // older than the value held was last seen: left out
          c('A', 'views', T, 10),
          c('B', 'likes', T, 7), // an item another watch saw
        ],
      }),
    );
    const r2 = await aRun(p, w, T + HOUR);
    await tables(p).finishRun(
      runOutcome(r2, w, T + HOUR, { counters: [c('A', 'likes', T + HOUR, 3), c('A', 'views', T + HOUR, 1.5e15)] }),
    );
    expect(await tables(p).counters('post', 'A')).toEqual([
      { kind: 'post', id: 'A', metric: 'likes', at: T, value: 1, lastAt: T + 10 },
      { kind: 'post', id: 'A', metric: 'likes', at: T + 20, value: 3, lastAt: T + HOUR },
      { kind: 'post', id: 'A', metric: 'views', at: T, value: 10, lastAt: T },
      { kind: 'post', id: 'A', metric: 'views', at: T + HOUR, value: 1.5e15, lastAt: T + HOUR },
    ]);
    const all = await tables(p).deltas({ after: null, limit: 100 });
    expect(all.map((d) => [d.id, d.metric, d.value, d.previous, d.previousSeenAt])).toEqual([
      ['A', 'likes', 1, null, null],
      ['A', 'likes', 3, 1, T + 10],
      ['A', 'views', 10, null, null],
      ['A', 'views', 1.5e15, 10, T],
      ['B', 'likes', 7, null, null],
    ]);
    // a watch's: only the items it saw; an item's; page by page, the value before carried across a page's edge
    expect((await tables(p).deltas({ watch: w, after: null, limit: 100 })).map((d) => d.id)).toEqual([
      'A',
      'A',
      'A',
      'A',
    ]);
    expect(await tables(p).deltas({ item: { kind: 'post', id: 'B' }, after: null, limit: 100 })).toHaveLength(1);
    const paged = [];
    let after: { kind: string; id: string; metric: string; at: number } | null = null;
    for (;;) {
      const page = await tables(p).deltas({ after, limit: 2 });
      paged.push(...page);
      const end = page[page.length - 1];
      if (!end || page.length < 2) break;
      after = { kind: end.kind, id: end.id, metric: end.metric, at: end.at };
    }
    expect(paged).toEqual(all);
    await p.close();
  });

  it('settles a large run (thousands of items and counter readings) in one transaction', async () => {
    const p = await s.open();
    const w = await aWatch(p);
    const r = await aRun(p, w, T);
    const seen = Array.from({ length: 3_000 }, (_, i) => ({
      kind: 'post' as const,
      id: String(1_000_000_000_000 + i),
      target: null,
      createdAt: T,
      at: T,
      baseline: false,
    }));
    const counters = seen.flatMap((x, i) =>
      ['likes', 'views'].flatMap((metric) =>
        [0, 1, 2].map((k) => ({ kind: 'post', id: x.id, metric, at: T + k, value: i + k })),
      ),
    );
    const started = performance.now();
    await tables(p).finishRun(runOutcome(r, w, T, { seen, counters }));
    const tookMs = performance.now() - started;
    expect((await tables(p).stats(w, T)).attrition.present).toBe(3_000);
    expect(await tables(p).deltas({ after: null, limit: 100_000 })).toHaveLength(18_000);
    // a few statements, not one round trip per row (measured well under a second on either store)
    expect(tookMs).toBeLessThan(20_000);
    await p.close();
  });

  it('records gaps as found and as filled, and counts a watch’s runs, spend and gaps', async () => {
    const p = await s.open();
    const w = await aWatch(p);
    const g1 = await tables(p).addGap({
      watch: w,
      from: T - 2 * HOUR,
      to: T - HOUR,
      reason: 'closed',
      detail: 'Skein was closed',
      recordedAt: T,
      pending: ['u', 'v'],
    });
    const r1 = await aRun(p, w, T - 2 * DAY);
    await tables(p).finishRun(
      runOutcome(r1, w, T - 2 * DAY, { run: { ...runOutcome(r1, w, 0).run, endedAt: T - 2 * DAY, credits: 100 } }),
    );
    const r2 = await aRun(p, w, T);
    await tables(p).finishRun(
      runOutcome(r2, w, T, {
        run: { ...runOutcome(r2, w, T).run, credits: 30, newItems: 4 },
        gaps: {
          add: [
            { watch: w, from: T - HOUR, to: T, reason: 'cap', detail: 'the daily cap', recordedAt: T, pending: [] },
            { watch: w, from: T, to: T + 1, reason: 'failed', detail: 'a 500', recordedAt: T, pending: ['u'] },
          ],
          progress: [{ id: g1, pending: ['v'] }],
        },
      }),
    );
    expect((await tables(p).gaps(w, true)).map((g) => [g.reason, g.pending, g.filledAt])).toEqual([
      ['failed', ['u'], null],
      ['closed', ['v'], null],
    ]);
    const r3 = await aRun(p, w, T + HOUR);
    await tables(p).finishRun(runOutcome(r3, w, T + HOUR, { gaps: { add: [], progress: [{ id: g1, pending: [] }] } }));
    const gaps = await tables(p).gaps(w, false);
    expect(gaps.find((g) => g.id === g1)).toMatchObject({ pending: [], filledAt: T + HOUR, filledBy: r3 });
    expect(gaps.find((g) => g.reason === 'cap')).toMatchObject({ filledAt: T, filledBy: r2 });
    expect(await tables(p).spent(w, T + HOUR, null)).toEqual({ lastDay: 45, total: 145 });
    expect(await tables(p).spent(w, T + HOUR, r3)).toEqual({ lastDay: 30, total: 130 });
    const r4 = await aRun(p, w, T + 2 * HOUR);
    const stats = await tables(p).stats(w, T + 2 * HOUR);
    expect(stats).toMatchObject({
      runs: 4,
      newItems: 4,
      spentLastDay: 45,
      spentTotal: 145,
      firstRunAt: T - 2 * DAY,
      running: true,
      gaps: { open: 1, filled: 2 },
    });
    expect(stats.lastRun?.id).toBe(r4);
    expect((await tables(p).runs(w, 2)).map((r) => r.id)).toEqual([r4, r3]);
    await p.close();
  });

  it('says which ids the project held before a run or the watch has seen, and what its projections read', async () => {
    const p = await s.open();
    const w = await aWatch(p);
    const posts = [
      {
        ...postFixture,
        id: '11',
        author: { ...postFixture.author, id: '500' },
        createdAt: 'Sun Nov 22 05:00:00 +0000 2026',
        quoted_tweet: null,
      },
      {
        ...postFixture,
        id: '12',
        author: { ...postFixture.author, id: '500' },
        createdAt: 'Sun Nov 22 05:30:00 +0000 2026',
        quoted_tweet: null,
      },
      {
        ...postFixture,
        id: '13',
        author: { ...postFixture.author, id: '\u0000' },
        createdAt: 'Sun Nov 22 05:30:00 +0000 2026',
        quoted_tweet: null,
      },
    ];
    const answer = (over: Partial<IngestRecord>): IngestRecord => ({
      operation: 'postsByIds',
      params: '{"tweet_ids":"11,12"}',
      cursor: null,
      at: T - HOUR,
      baseUrl: 'https://api.example',
      httpStatus: 200,
      text: JSON.stringify({ tweets: posts, status: 'success', message: '' }),
      ...over,
    });
    await p.ingest([
      answer({}),
      answer({
        operation: 'usersByIds',
        params: '{"userIds":"500"}',
        at: T + HOUR,
        text: JSON.stringify({
          users: [
            { ...userFixture, id: '500', statusesCount: 1234 },
            { ...userFixture, id: '501', statusesCount: 'many' },
          ],
          status: 'success',
          message: '',
        }),
      }),
    ]);
    const r = await aRun(p, w, T);
    await tables(p).finishRun(
      runOutcome(r, w, T, {
        seen: [{ kind: 'post', id: '99', target: null, createdAt: null, at: T, baseline: false }],
      }),
    );
    expect((await tables(p).known(w, 'post', ['11', '99', '98', "11' OR 1=1"], T)).sort()).toEqual(['11', '99']);
    expect(await tables(p).known(w, 'user', ['500'], T)).toEqual([]);
    expect(await tables(p).known(w, 'user', ['500'], T + 2 * HOUR)).toEqual(['500']);
    // posts read by id (as from a conversation) are where an account was active, not its posting rate
    expect(await tables(p).postingHistory(['500'], T - 2 * HOUR)).toEqual([]);
    await p.ingest([answer({ operation: 'userTimeline', params: '{"userId":"500"}', at: T + 2 * HOUR })]);
    // post 13's author id is U+0000: it reads on neither store as one of these
    expect(await tables(p).postingHistory(['500', '404'], T - 2 * HOUR)).toEqual([
      { author: '500', posts: 2, first: Date.parse('2026-11-22T05:00:00Z'), last: Date.parse('2026-11-22T05:30:00Z') },
    ]);
    expect(await tables(p).postingHistory(['500'], T)).toEqual([]);
    const facts = await tables(p).accountFacts(['500', '501', '502']);
    expect(facts.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: '500', statusesCount: 1234, createdAt: expect.any(Number) as number },
      { id: '501', statusesCount: null, createdAt: expect.any(Number) as number },
    ]);
    // an account seen only as an author (its replies in a conversation): its newest post's copy of its profile
    const by600 = (id: string, statusesCount: number) => ({
      ...postFixture,
      id,
      author: { ...postFixture.author, id: '600', statusesCount, createdAt: 'Sun Nov 01 00:00:00 +0000 2026' },
      quoted_tweet: null,
    });
    await p.ingest([
      answer({ at: T + 3 * HOUR, text: JSON.stringify({ tweets: [by600('21', 70)], status: 'success', message: '' }) }),
      answer({ at: T + 4 * HOUR, text: JSON.stringify({ tweets: [by600('22', 71)], status: 'success', message: '' }) }),
    ]);
    expect(await tables(p).accountFacts(['600', '500'])).toEqual([
      { id: '500', statusesCount: 1234, createdAt: expect.any(Number) as number },
      { id: '600', statusesCount: 71, createdAt: Date.parse('2026-11-01T00:00:00Z') },
    ]);
    expect(await tables(p).largestPage('postsByIds')).toBe(3);
    expect(await tables(p).largestPage('userSearch')).toBe(0);
    await p.close();
  });

  it('lets one runner hold the project: compare and set, a heartbeat, a clean release, and who stopped last', async () => {
    const p = await s.open();
    const me = { token: 'me', who: 'app', host: 'lab-1', pid: 11, since: T, heartbeat: T };
    const you = { token: 'you', who: 'headless', host: 'lab-2', pid: 22, since: T + 5, heartbeat: T + 5 };
    expect(await tables(p).runner()).toBeNull();
    expect(await tables(p).lastRunner()).toBeNull();
    expect(await tables(p).takeRunner(me, null)).toBe(true);
    // a second taker that thinks nobody holds it loses
    expect(await tables(p).takeRunner(you, null)).toBe(false);
    expect(await tables(p).heartbeat('me', T + 1)).toBe(true);
    expect(await tables(p).heartbeat('you', T + 1)).toBe(false);
    expect(await tables(p).runner()).toEqual({ ...me, heartbeat: T + 1 });
    await tables(p).releaseRunner('you', T + 2); // not the holder: nothing happens
    expect(await tables(p).runner()).toMatchObject({ token: 'me' });
    await tables(p).releaseRunner('me', T + 3);
    expect(await tables(p).runner()).toBeNull();
    expect(await tables(p).lastRunner()).toEqual({ who: 'app', host: 'lab-1', pid: 11, at: T + 3, clean: true });
    expect(await tables(p).heartbeat('me', T + 4)).toBe(false);
    await p.close();
  });
}

/**
 * PostgreSQL only: two Skeins (two projects open on one schema, as on two machines) and the runner's row. A
 * holder the other takes for stale is not displaced while its Skein lives (its session lock); once its Skein is
 * gone (its connection closed, without letting go), the other takes over and records that it stopped.
 */
function runnerAcrossMachinesTests(s: StoreUnderTest): void {
  it('keeps one runner across two Skeins: a live holder is never displaced, a vanished one is replaced', async () => {
    const init = s.fresh();
    const a = await s.open(init);
    const b = await s.open(init);
    const ra = { token: 'a', who: 'app', host: 'same-name', pid: 1, since: T, heartbeat: T };
    const rb = { token: 'b', who: 'headless', host: 'same-name', pid: 2, since: T + 1, heartbeat: T + 10 * DAY };
    // both decide at once that nobody holds it: exactly one wins
    const won = await Promise.all([tables(a).takeRunner(ra, null), tables(b).takeRunner(rb, null)]);
    expect(won.filter(Boolean)).toHaveLength(1);
    const [holder, other, theirs] = won[0] ? [a, b, rb] : [b, a, ra];
    const held = (await tables(holder).runner())?.token;
    // the other judges the holder stale (its clock is days ahead, its host name the same): compare and set on
    // the row would let it in, the holder's session lock does not
    expect(await tables(other).takeRunner(theirs, held ?? null)).toBe(false);
    expect(await tables(holder).heartbeat(held ?? '', T + 2)).toBe(true);
    // the holder's Skein goes away without letting go (its connection closes)
    await holder.close();
    expect(await tables(other).takeRunner(theirs, held ?? null)).toBe(true);
    expect(await tables(other).runner()).toMatchObject({ token: theirs.token });
    expect(await tables(other).lastRunner()).toMatchObject({ clean: false, at: T + 2 });
    // the old holder, back, is not the holder any more
    const back = await s.open(init);
    expect(await tables(back).heartbeat(held ?? '', T + 3)).toBe(false);
    expect(await tables(back).takeRunner({ ...ra, token: 'again' }, theirs.token)).toBe(false);
    await tables(other).releaseRunner(theirs.token, T + 4);
    expect(await tables(back).takeRunner({ ...ra, token: 'again' }, null)).toBe(true);
    await back.close();
    await other.close();
  });
}

/** The watch tables of the host's `current` project, each call by name as main's proxy makes it. */
const served = (host: ArchiveHost): WatchTables =>
  new Proxy({} as WatchTables, {
    get: (_, method) =>
      method === 'then'
        ? undefined
        : (...args: unknown[]) => host.api.part('current', WATCH_PART_NAME, String(method), args),
  });

function copyTests(s: StoreUnderTest): void {
  it('travel with a project copied into an empty one of either store, without the runner', async () => {
    const host = new ArchiveHost(() => undefined, PARTS);
    await host.api.open('current', s.fresh());
    const w = served(host);
    const watch = await w.createWatch({ name: 'W', kind: 'accounts', spec: '{}', createdAt: 1, nextDue: 2 });
    const runId = await w.startRun({
      watch,
      startedAt: 1,
      scheduledFor: 1,
      runner: 'r',
      token: 't',
      journal: null,
      asked: '',
    });
    await w.finishRun(
      runOutcome(runId, watch, 3, {
        seen: [{ kind: 'post', id: '1000000001', target: null, createdAt: 1, at: 3, baseline: true }],
        counters: [{ kind: 'post', id: '1000000001', metric: 'likes', at: 3, value: 9 }],
      }),
    );
    await w.takeRunner({ token: 'x', who: 'app', host: 'h', pid: 1, since: 1, heartbeat: 1 }, null);
    // each store of its own (a cluster of its own for PostgreSQL)
    for (const target of makeStores().filter((t) => !t.skip)) {
      await target.setup();
      try {
        const into = target.fresh();
        const report = await host.api.copy('current', into);
        const names = PARTS.find((p) => p.name === WATCH_PART_NAME)?.tables.map((t) => t.name) ?? [];
        expect(report.tables.map((t) => t.name)).toEqual(expect.arrayContaining(names));
        for (const t of report.tables) expect(t.copied, t.name).toBe(t.source);
        const copy = await target.open(into);
        expect(await tables(copy).watches()).toEqual(await w.watches());
        expect(await tables(copy).runs(watch, 5)).toEqual(await w.runs(watch, 5));
        expect(await tables(copy).deltas({ after: null, limit: 10 })).toEqual(
          await w.deltas({ after: null, limit: 10 }),
        );
        // who runs the source's watches is not the copy's business
        expect(await tables(copy).runner()).toBeNull();
        // new rows are numbered after the copied ones
        expect(
          await tables(copy).createWatch({ name: 'N', kind: 'accounts', spec: '{}', createdAt: 1, nextDue: null }),
        ).toBe(watch + 1);
        await copy.close();
      } finally {
        target.teardown();
      }
    }
    await host.dispose();
  }, 120_000);
}

describe.each(STORES)('the watch tables on $name', (s) => {
  beforeAll(() => s.setup(), 120_000);
  afterAll(() => s.teardown());
  const run = s.skip ? describe.skip : describe;

  run(`(${s.skip ?? 'running'})`, () => {
    watchTests(s);
    if (s.name === 'postgres') runnerAcrossMachinesTests(s);
    copyTests(s);
  });
});
