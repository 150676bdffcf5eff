/**
 * A walk's page records held compactly: what comes back is what was pushed (after the journal's JSON too), the
 * paging guards' questions answer as a set of the cursors would, and fifty thousand pages hold a fraction of the heap
 * their records would.
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import type { PageRecord } from './journal';
import { PageLog } from './page-log';

const page = (i: number, extra: Partial<PageRecord> = {}): PageRecord => ({
  request: 0,
  cursor: i === 0 ? null : `cursor-${i}`,
  nextCursor: `cursor-${i + 1}`,
  hasNextPage: true,
  fetchedAt: Date.UTC(2026, 11, 4) + i * 1234,
  fromCache: false,
  httpStatus: 200,
  credits: 1.5 * i,
  attempts: 1,
  received: 20,
  kept: 19,
  duplicates: 1,
  dropped: [],
  notFound: [],
  stop: null,
  ...extra,
});

const logOf = (pages: readonly PageRecord[]) => {
  const log = new PageLog();
  for (const p of pages) log.push(p);
  return log;
};

describe('PageLog', () => {
  it('gives back every record as pushed, whatever it says', () => {
    const pages: PageRecord[] = [
      page(0),
      page(1, { fromCache: true, fromProject: true, credits: 0, attempts: 0 }),
      page(2, { fromProject: false, cursor: 'not the previous next: 日本 ☃', nextCursor: '' }),
      page(3, { cursor: '', hasNextPage: false, nextCursor: null }),
      page(4, { hasNextPage: null, cursor: null, nextCursor: null, request: 7, httpStatus: 404 }),
      page(5, {
        dropped: [{ index: 2, id: '17', path: 'text', message: 'not a string' }],
        notFound: ['1', '2'],
        stop: { reason: 'repeated-cursor', message: 'again' },
        foreign: ['99'],
        snapshot: { asOf: null, refreshIntervalMs: 300_000, place: { name: 'Lagos', woeid: 1398823 } },
        note: { walk: 'search', at: [1, 2] },
      }),
      page(6, { received: 0, kept: 0, duplicates: 0, fetchedAt: 1.5e12 + 0.25 }),
    ];
    const log = logOf(pages);
    expect(log.length).toBe(pages.length);
    expect([...log]).toEqual(pages);
    pages.forEach((p, i) => expect(log.at(i)).toEqual(p));
    expect(log.at(-1)).toEqual(pages.at(-1));
    expect(log.at(pages.length)).toBeUndefined();
    expect(log.at(-pages.length - 1)).toBeUndefined();
    // as a resumed walk reads them back from its journal
    const replayed = logOf(pages.map((p) => JSON.parse(JSON.stringify(p)) as PageRecord));
    expect([...replayed]).toEqual([...log]);
  });

  it("answers whether a request's pages were asked with a cursor, as a set of them would", () => {
    const log = new PageLog();
    const asked = new Map<number, Set<string | null>>();
    const last = new Map<number, PageRecord>();
    let seed = 7;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let i = 0; i < 20_000; i++) {
      const request = Math.floor(random() * 3);
      const cursor = random() < 0.01 ? null : `c${Math.floor(random() * 30_000)}`;
      const hasNextPage = random() < 0.1 ? null : random() < 0.2 ? false : true;
      const p = page(i, { request, cursor, hasNextPage, kept: random() < 0.3 ? 0 : 19 });
      if (i % 100 === 0) {
        for (let r = 0; r < 4; r++) {
          for (const c of [null, 'c1', `c${Math.floor(random() * 30_000)}`]) {
            expect(log.askedWith(r, c)).toBe(asked.get(r)?.has(c) ?? false);
          }
          const previous = last.get(r);
          expect(log.lastBroughtNothing(r)).toBe(!!previous && previous.kept === 0 && previous.hasNextPage === true);
        }
      }
      log.push(p);
      if (p.hasNextPage !== null) {
        if (!asked.has(request)) asked.set(request, new Set());
        asked.get(request)!.add(cursor);
        last.set(request, p);
      }
    }
    expect(log.askedWith(3, 'c1')).toBe(false);
  });

  it('holds fifty thousand pages in a fraction of the heap their records take', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // cursors as long as the service's
    const make = (i: number) => page(i, { cursor: `DAABCgABGRElMJcAJxAKAAIZESUwlv_Y8AgAAwAAAAEAAA-${i}` });
    const heapWith = (hold: () => unknown) => {
      gc();
      const before = process.memoryUsage().heapUsed;
      const held = hold();
      gc();
      const grown = process.memoryUsage().heapUsed - before;
      expect(held).toBeTruthy();
      return grown;
    };
    const asRecords = heapWith(() => Array.from({ length: 50_000 }, (_, i) => make(i)));
    const asLog = heapWith(() => {
      const log = new PageLog();
      for (let i = 0; i < 50_000; i++) log.push(make(i));
      return log;
    });
    expect(asRecords).toBeGreaterThan(10e6);
    expect(asLog).toBeLessThan(asRecords / 10);
  });
});
