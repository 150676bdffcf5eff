import { describe, expect, it } from 'vitest';
import type { Post } from '../../../shared/api/schemas';
import { defaultScheduler, notifyManager, QueryClient } from '@tanstack/react-query';
import { heldPost, outlineOf, ThreadOutline } from './thread-outline';

const post = (id: string, parent: string | null = '0') =>
  ({ id, inReplyToId: parent, createdAt: 'Sun Nov 22 02:13:21 +0000 2026' }) as unknown as Post;
const page = (ids: string[], o: { dup?: number; stop?: string } = {}) => ({
  items: ids.map((id) => post(id, id === '0' ? null : '0')),
  report: { duplicatesRemoved: o.dup ?? 0, dropped: [], notFound: [] },
  paging: {
    hasNextPage: !o.stop,
    nextCursor: o.stop ? null : 'c',
    stop: o.stop ? { reason: 'empty-pages' as const, message: o.stop } : null,
  },
});

describe('ThreadOutline', () => {
  it('appends pages in order and keeps the focal post whole', () => {
    const o = new ThreadOutline('0');
    o.place(0, page(['0', '1', '2'], { dup: 1 }));
    o.place(1, page(['3', '4'], { dup: 2 }));
    expect(o.entries.map((e) => [e.id, e.page])).toEqual([
      ['0', 0],
      ['1', 0],
      ['2', 0],
      ['3', 1],
      ['4', 1],
    ]);
    expect(o.focal?.id).toBe('0');
    expect(o.pages).toBe(2);
    expect(o.duplicatesRemoved).toBe(3);
  });

  it('changes nothing when a page it holds comes back the same (the window moving)', () => {
    const o = new ThreadOutline('0');
    o.place(0, page(['0', '1']));
    o.place(1, page(['2']));
    o.publish();
    const before = o.getSnapshot();
    let told = 0;
    o.subscribe(() => told++);
    o.place(0, page(['0', '1']));
    o.place(1, page(['2']));
    o.publish();
    expect(o.getSnapshot()).toBe(before);
    expect(told).toBe(0);
    expect(o.entries).toHaveLength(3);
  });

  it('restarts from a page that now says something else (a refetch with new replies)', () => {
    const o = new ThreadOutline('0');
    o.place(0, page(['0', '1']));
    o.place(1, page(['2', '3']));
    o.place(2, page(['4']));
    o.place(1, page(['9', '2']));
    expect(o.entries.map((e) => e.id)).toEqual(['0', '1', '9', '2']);
    expect(o.pages).toBe(2);
  });

  it('ignores a page beyond the next one (nothing to hang it on)', () => {
    const o = new ThreadOutline('0');
    o.place(0, page(['0']));
    o.place(5, page(['7']));
    expect(o.entries.map((e) => e.id)).toEqual(['0']);
  });

  it('remembers why paging stopped', () => {
    const o = new ThreadOutline('0');
    o.place(0, page(['0'], { stop: 'stopped' }));
    expect(o.stop).toBe('stopped');
  });
});

describe('ThreadOutline tree', () => {
  it('grows with the pages and restarts with the outline', () => {
    const o = new ThreadOutline('0');
    o.place(0, page(['0', '1', '2']));
    o.place(1, page(['3']));
    expect(o.tree().size).toBe(3);
    expect(o.tree().focal?.id).toBe('0');
    o.place(1, page(['4', '5']));
    expect(o.tree().size).toBe(4);
    expect(o.tree().roots.map((n) => n.id)).toEqual(['1', '2', '4', '5']);
  });
});

describe('heldPost: a row finds its post in its own page of the window', () => {
  const p = (index: number) => ({ cursor: index ? `c${index}` : null, index, prev: null });
  it('finds the post when its page is in the window, and waits (null) when it is not', () => {
    const pages = [page(['4', '5']), page(['6', '7'])];
    const params = [p(2), p(3)];
    expect(heldPost(pages, params, '6', 3)).toBe(pages[1]!.items[0]);
    expect(heldPost(pages, params, '4', 2)?.id).toBe('4');
    expect(heldPost(pages, params, '1', 0)).toBeNull();
    expect(heldPost(pages, params, '8', 4)).toBeNull();
    // the id is not on the page the outline says
    expect(heldPost(pages, params, '6', 2)).toBeNull();
    expect(heldPost(undefined, undefined, '6', 3)).toBeNull();
    expect(heldPost(pages, params, '6', null)).toBeNull();
  });

  it('keeps the focal post of the page it last came on', () => {
    const o = new ThreadOutline('0');
    o.place(0, page(['1']));
    o.place(1, page(['0', '2']));
    expect(o.focalPage).toBe(1);
  });
});

describe('outline store', () => {
  it('publishes what was placed as a new snapshot to its subscribers, until they unsubscribe', () => {
    const o = new ThreadOutline('0');
    const before = o.getSnapshot();
    let told = 0;
    const unsubscribe = o.subscribe(() => told++);
    o.place(0, page(['0', '1']));
    expect(o.getSnapshot()).toBe(before);
    o.place(1, page(['2']));
    o.publish();
    expect(told).toBe(1);
    expect(o.getSnapshot()).not.toBe(before);
    expect(o.getSnapshot().outline.entries).toHaveLength(3);
    unsubscribe();
    o.place(2, page(['3']));
    o.publish();
    expect(told).toBe(1);
  });

  it('is published when its query’s data changes, in the batch that tells the query’s observers', () => {
    const client = new QueryClient();
    const key = ['post', 'thread', '0', 'Relevance', 'window'];
    client.setQueryData(key, { pages: [], pageParams: [] });
    const o = outlineOf(client, key, '0');
    const seen: Array<{ entries: number; pages: number }> = [];
    o.subscribe(() => {
      const data = client.getQueryData<{ pages: unknown[] }>(key);
      seen.push({ entries: o.getSnapshot().outline.entries.length, pages: data?.pages.length ?? 0 });
    });
    notifyManager.setScheduler((run) => run());
    try {
      o.place(0, page(['0', '1']));
      expect(seen).toEqual([]);
      client.setQueryData(key, { pages: [page(['0', '1'])], pageParams: [{ index: 0 }] });
      expect(seen).toEqual([{ entries: 2, pages: 1 }]);
    } finally {
      notifyManager.setScheduler(defaultScheduler);
    }
  });
});

describe('outlineOf', () => {
  it('is one outline per query in the cache, and a throwaway one without it', () => {
    const client = new QueryClient();
    const key = ['post', 'thread', '0', 'Relevance', 'window'];
    expect(outlineOf(client, key, '0')).not.toBe(outlineOf(client, key, '0'));
    client.setQueryData(key, { pages: [], pageParams: [] });
    const o = outlineOf(client, key, '0');
    expect(outlineOf(client, [...key], '0')).toBe(o);
    client.removeQueries({ queryKey: key });
    expect(outlineOf(client, key, '0')).not.toBe(o);
  });
});
