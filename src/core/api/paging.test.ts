import { describe, expect, it } from 'vitest';
import { PagingViews, type ApplyOptions } from './paging';

const page = (cursor: string | null, ids: string[], next: string, hasNext = true) => ({
  cursor,
  ids,
  hasNextPage: hasNext,
  nextCursor: next,
});

/** 5,000 pages of 20 ids each (100,000 ids) through one view */
function longWalk(v: PagingViews, viewKey: string, options?: ApplyOptions): void {
  for (let p = 0; p < 5000; p++) {
    const ids = Array.from({ length: 20 }, (_, i) => String(1_600_000_000_000_000_000n + BigInt(p * 20 + i)));
    v.apply(viewKey, page(p === 0 ? null : `c${p}`, ids, `c${p + 1}`), options);
  }
}

describe('PagingViews', () => {
  it('passes a normal walk through untouched', () => {
    const v = new PagingViews();
    const a = v.apply('view', page(null, ['1', '2'], 'c1'));
    const b = v.apply('view', page('c1', ['3', '4'], '', false));
    expect(a).toEqual({
      keep: [true, true],
      duplicatesRemoved: 0,
      paging: { hasNextPage: true, nextCursor: 'c1', stop: null },
    });
    expect(b.paging).toEqual({ hasNextPage: false, nextCursor: null, stop: null });
  });

  it('removes items seen on another page of the view, and within a page', () => {
    const v = new PagingViews();
    v.apply('view', page(null, ['1', '2', '3'], 'c1'));
    const b = v.apply('view', page('c1', ['3', '4', '4', '5'], 'c2'));
    expect(b.keep).toEqual([false, true, false, true]);
    expect(b.duplicatesRemoved).toBe(2);
  });

  it('never calls a page a duplicate of itself when it is read again', () => {
    const v = new PagingViews();
    v.apply('view', page(null, ['1', '2'], 'c1'));
    v.apply('view', page('c1', ['3'], 'c2'));
    const again = v.apply('view', page('c1', ['3'], 'c2'));
    expect(again.keep).toEqual([true]);
    expect(again.paging.stop).toBeNull();
  });

  it('tells duplicates apart across a long walk, each page read again still its own, ids of any shape', () => {
    const v = new PagingViews();
    const idOf = (n: number) => (n % 7 === 0 ? `user:${n}` : String(1_600_000_000_000_000_000n + BigInt(n) * 7919n));
    const cursorOf = (p: number) => (p === 0 ? null : `c${p}`);
    // 2,000 pages of 20: each repeats the last item of the page before it
    for (let p = 0; p < 2000; p++) {
      const ids = Array.from({ length: 20 }, (_, i) => idOf(p * 20 + i));
      if (p > 0) ids.unshift(idOf(p * 20 - 1));
      const d = v.apply('walk', page(cursorOf(p), ids, `c${p + 1}`));
      expect(d.duplicatesRemoved).toBe(p > 0 ? 1 : 0);
    }
    // an early page and a late one read again (the response store): nothing in them is a duplicate of itself
    for (const p of [1, 1500]) {
      const ids = [idOf(p * 20 - 1), ...Array.from({ length: 20 }, (_, i) => idOf(p * 20 + i))];
      expect(v.apply('walk', page(cursorOf(p), ids, `c${p + 1}`)).keep).toEqual([
        false,
        ...ids.slice(1).map(() => true),
      ]);
    }
  });

  it("gives a view's memory back when it is let go, not at the next full collection", () => {
    const v = new PagingViews(1);
    longWalk(v, 'big');
    const before = process.memoryUsage().arrayBuffers;
    // a second view pushes the first out (one view kept)
    v.apply('small', page(null, ['1'], 'c1'));
    // 100,000 ids: a table of 2^18 slots at 12 bytes
    expect(before - process.memoryUsage().arrayBuffers).toBeGreaterThanOrEqual(12 * 2 ** 18);
    expect(v.apply('big', page(null, ['1600000000000000000'], 'c1')).keep).toEqual([true]);
  });

  it('forgets a view it is told to, and takes its pages afresh after', () => {
    const v = new PagingViews();
    v.apply('walk', page(null, ['1', '2'], 'c1'));
    v.apply('other', page(null, ['1'], 'c1'));
    v.forget('walk');
    // a later page of it is a new view's: nothing in it is a duplicate of what the forgotten view saw
    expect(v.apply('walk', page('c1', ['2', '3'], 'c2')).keep).toEqual([true, true]);
    expect(v.apply('other', page('c1', ['1', '4'], 'c2')).keep).toEqual([false, true]);
  });

  it('starts afresh on a page without cursor', () => {
    const v = new PagingViews();
    v.apply('view', page(null, ['1'], 'c1'));
    v.apply('view', page('c1', ['2'], 'c2'));
    expect(v.apply('view', page(null, ['1'], 'c1')).keep).toEqual([true]);
    expect(v.apply('view', page('c1', ['2'], 'c2')).keep).toEqual([true]);
  });

  it('keeps views apart', () => {
    const v = new PagingViews();
    v.apply('a', page(null, ['1'], 'c1'));
    expect(v.apply('b', page(null, ['1'], 'c1')).keep).toEqual([true]);
  });

  it('stops on a cursor that loops back (self or another page’s)', () => {
    const v = new PagingViews();
    v.apply('view', page(null, ['1'], 'c1'));
    expect(v.apply('view', page('c1', ['2'], 'c1')).paging.stop?.reason).toBe('repeated-cursor');
    const w = new PagingViews();
    w.apply('view', page(null, ['1'], 'c1'));
    w.apply('view', page('c1', ['2'], 'c2'));
    expect(w.apply('view', page('c2', ['3'], 'c1')).paging).toMatchObject({
      hasNextPage: false,
      nextCursor: null,
      stop: { reason: 'repeated-cursor' },
    });
  });

  it('stops on has_next_page without a cursor', () => {
    const v = new PagingViews();
    expect(v.apply('view', page(null, ['1'], '')).paging.stop?.reason).toBe('missing-cursor');
  });

  it('stops on the second page in a row that brings nothing new, not the first', () => {
    const v = new PagingViews();
    v.apply('view', page(null, ['1'], 'c1'));
    expect(v.apply('view', page('c1', [], 'c2')).paging.stop).toBeNull();
    expect(v.apply('view', page('c2', ['1'], 'c3')).paging.stop?.reason).toBe('empty-pages');
  });

  it('an empty last page is simply the end', () => {
    const v = new PagingViews();
    v.apply('view', page(null, ['1'], 'c1'));
    v.apply('view', page('c1', [], 'c2'));
    expect(v.apply('view', page('c2', [], '', false)).paging).toEqual({
      hasNextPage: false,
      nextCursor: null,
      stop: null,
    });
  });

  it('keeps items without an id', () => {
    const v = new PagingViews();
    expect(
      v.apply('view', { cursor: null, ids: [undefined, undefined], hasNextPage: false, nextCursor: '' }).keep,
    ).toEqual([true, true]);
  });

  describe('applied without its ids (its caller de-duplicates)', () => {
    const bare = { ids: false };

    it('keeps every item, repeats too, and counts a page of repeats as bringing something', () => {
      const v = new PagingViews();
      expect(v.apply('walk', page(null, ['1', '2'], 'c1'), bare).keep).toEqual([true, true]);
      const again = v.apply('walk', page('c1', ['1', '1'], 'c2'), bare);
      expect(again).toMatchObject({ keep: [true, true], duplicatesRemoved: 0, paging: { stop: null } });
      expect(v.apply('walk', page('c2', ['2'], 'c3'), bare).paging.stop).toBeNull();
    });

    it('still stops on a cursor that loops, on a missing cursor, and on two pages in a row with no items', () => {
      const v = new PagingViews();
      v.apply('walk', page(null, ['1'], 'c1'), bare);
      expect(v.apply('walk', page('c1', ['2'], 'c1'), bare).paging.stop?.reason).toBe('repeated-cursor');
      expect(v.apply('other', page(null, ['1'], ''), bare).paging.stop?.reason).toBe('missing-cursor');
      const w = new PagingViews();
      w.apply('walk', page(null, ['1'], 'c1'), bare);
      expect(w.apply('walk', page('c1', [], 'c2'), bare).paging.stop).toBeNull();
      expect(w.apply('walk', page('c2', [], 'c3'), bare).paging.stop?.reason).toBe('empty-pages');
    });

    it('holds none of its ids: a long walk leaves no table behind', () => {
      const v = new PagingViews();
      const before = process.memoryUsage().arrayBuffers;
      longWalk(v, 'walk', bare);
      // 100,000 ids held would be a table of 2^18 slots at 8 bytes or more
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(2 ** 18);
    });
  });
});
