/**
 * A manifest lists every page of its collection (ten thousand at a million posts). Its page entries are made a slice
 * at a time so that main, which answers every window, is never held for all of them at once.
 */
import { describe, expect, it } from 'vitest';
import { PageLog, type PageRecord } from '../walk';
import { manifestPages, pageEntries } from './manifest';

const record = (i: number, extra: Partial<PageRecord> = {}): PageRecord => ({
  request: 0,
  cursor: i === 0 ? null : `c${i}`,
  nextCursor: `c${i + 1}`,
  hasNextPage: true,
  fetchedAt: Date.UTC(2026, 11, 4) + i * 1000,
  fromCache: false,
  httpStatus: 200,
  credits: 1500,
  attempts: 1,
  received: 100,
  kept: 99,
  duplicates: 1,
  dropped: [],
  notFound: [],
  stop: null,
  ...extra,
});

describe('manifestPages', () => {
  it("writes each page's entry, its fields in the manifest's order, a held batch and an answer's own time marked", async () => {
    const entries = [
      ...pageEntries([
        record(0),
        record(1, { fromProject: true, fromCache: true, credits: 0, attempts: 0 }),
        record(2, { snapshot: { asOf: Date.UTC(2026, 11, 4, 12), refreshIntervalMs: 300_000, place: null } }),
      ]),
    ];
    expect(JSON.stringify(entries[0])).toBe(
      '{"request":0,"cursor":null,"next_cursor":"c1","has_next_page":true,"fetched_at":"2026-12-04T00:00:00.000Z",' +
        '"from_cache":false,"http_status":200,"items_received":100,"items_kept":99,"credits":1500,"calls":1}',
    );
    expect(entries[1]).toMatchObject({ from_project: true, from_cache: true, credits: 0, calls: 0 });
    expect(Object.keys(entries[1] as object).indexOf('from_project')).toBe(6);
    expect(entries[2]?.snapshot).toEqual({
      as_of: '2026-12-04T12:00:00.000Z',
      refresh_interval_ms: 300_000,
      place: null,
    });
  });

  it('lets the event loop go between slices of a long collection, every page in order', async () => {
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const pages = Array.from({ length: 10_000 }, (_, i) => record(i));
    const { count: tallied } = await manifestPages(pages);
    counting = false;
    expect(tallied).toBe(10_000);
    expect([...pageEntries(pages)].map((e) => e.cursor)).toEqual(pages.map((p) => p.cursor));
    // ten slices of a thousand: the loop turned between each
    expect(turns).toBeGreaterThanOrEqual(9);
  });

  it('adds up what the pages say, the same from a page log as from their records', async () => {
    const pages = [
      record(0, { dropped: [{ index: 3, path: 'id', message: 'no id' }] }),
      record(1, { notFound: ['1700000000000000001', '1234567890123450000'] }),
      record(2, { snapshot: { asOf: 1, refreshIntervalMs: null, place: { name: 'Berlin', woeid: 638242 } } }),
      record(3, { stop: { reason: 'repeated-cursor', message: 'the same cursor again' }, hasNextPage: true }),
    ];
    const log = new PageLog();
    for (const page of pages) log.push(page);
    const fromRecords = await manifestPages(pages);
    const fromLog = await manifestPages(log);
    expect(fromLog).toEqual(fromRecords);
    expect(fromLog).toMatchObject({
      items: 4 * 99,
      duplicates: 4,
      calls: 4,
      credits: 4 * 1500,
      droppedTotal: 1,
      dropped: [{ page: 0, index: 3, path: 'id', message: 'no id' }],
      stops: [{ page: 3, reason: 'repeated-cursor', message: 'the same cursor again' }],
      notFound: ['1700000000000000001'],
      rounded: ['1234567890123450000'],
      snapshot: { asOf: 1, refreshIntervalMs: null, place: { name: 'Berlin', woeid: 638242 } },
    });
  });
});
