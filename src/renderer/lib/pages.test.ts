import { describe, expect, it } from 'vitest';
import { FIRST_PAGE, itemsById, nextCursor, nextPageParam, previousPageParam, summarizePages } from './pages';

const page = (
  ids: string[],
  o: { next?: string | null; stop?: string; dup?: number; dropped?: number; cache?: boolean } = {},
) => ({
  items: ids.map((id) => ({ id })),
  paging: {
    hasNextPage: o.next !== undefined && o.next !== null ? true : Boolean(o.stop),
    nextCursor: o.next ?? null,
    stop: o.stop ? { reason: 'empty-pages' as const, message: o.stop } : null,
  },
  report: {
    duplicatesRemoved: o.dup ?? 0,
    dropped: Array.from({ length: o.dropped ?? 0 }, (_, i) => ({ index: i, path: 'x', message: 'bad' })),
    notFound: [],
  },
  meta: {
    callId: 'c',
    fromCache: o.cache ?? false,
    fetchedAt: 0,
    httpStatus: 200,
    credits: 0,
    durationMs: 0,
    attempts: 1,
  },
});

describe('itemsById', () => {
  it('indexes a page once, the first of a repeated id winning', () => {
    const p = {
      items: [
        { id: 'a', n: 1 },
        { id: 'b', n: 2 },
        { id: 'a', n: 3 },
      ],
    };
    const index = itemsById(p);
    expect(index.get('a')).toBe(p.items[0]);
    expect(index.size).toBe(2);
    expect(itemsById(p)).toBe(index);
  });
});

describe('summarizePages', () => {
  it('joins pages, removes repeats and counts them with the ones main removed', () => {
    const s = summarizePages([page(['1', '2'], { next: 'a', dup: 2 }), page(['2', '3'], { dropped: 1 })]);
    expect(s.items.map((i) => i.id)).toEqual(['1', '2', '3']);
    expect(s).toMatchObject({ duplicatesRemoved: 3, dropped: 1, stop: null, pages: 2, fromCache: false });
  });
  it('reports why a paging guard stopped', () => {
    expect(
      summarizePages([page([], { stop: 'the API reported more pages but sent an empty page — stopped' })]).stop,
    ).toMatch(/stopped/);
  });
  it('says it came from cache only when every page did', () => {
    expect(summarizePages([page(['1'], { cache: true })]).fromCache).toBe(true);
    expect(summarizePages([page(['1'], { cache: true }), page(['2'])]).fromCache).toBe(false);
    expect(summarizePages(undefined)).toMatchObject({ items: [], pages: 0, fromCache: false });
  });
});

describe('nextCursor', () => {
  it('gives the cursor while there are pages, undefined at the end or after a stop', () => {
    expect(nextCursor(page([], { next: 'abc' }))).toBe('abc');
    expect(nextCursor(page([]))).toBeUndefined();
    expect(nextCursor(page([], { stop: 'x' }))).toBeUndefined();
    expect(nextCursor({ paging: null })).toBeUndefined();
  });
});

describe('page params', () => {
  it('chain forward from the first page and back again', () => {
    const second = nextPageParam(page(['1'], { next: 'a' }), FIRST_PAGE)!;
    const third = nextPageParam(page(['2'], { next: 'b' }), second)!;
    expect(second).toMatchObject({ cursor: 'a', index: 1 });
    expect(third).toMatchObject({ cursor: 'b', index: 2 });
    expect(previousPageParam(third)).toEqual({ ...second, reread: true });
    expect(previousPageParam(second)).toEqual({ ...FIRST_PAGE, reread: true });
    expect(previousPageParam(FIRST_PAGE)).toBeUndefined();
  });
  it('end where paging ends', () => {
    expect(nextPageParam(page(['1']), FIRST_PAGE)).toBeUndefined();
  });
});
