import { describe, expect, it } from 'vitest';
import { PagingViews } from './paging';

const page = (cursor: string | null, ids: string[], next: string, hasNext = true) => ({
  cursor,
  ids,
  hasNextPage: hasNext,
  nextCursor: next,
});

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
});
