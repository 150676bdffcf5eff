import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { STALE_TIME_MS } from '../../shared/api';
import type { NormalizedPage } from '../../shared/api/normalize/page';
import { ResponseStore, type StoredAnswer } from './response-store';

const page: NormalizedPage = {
  items: [],
  rawItems: [],
  rawCount: 0,
  dropped: [],
  data: null,
  rawData: undefined,
  paging: null,
};
const answer = (cursor: string | null, fetchedAt: number, bytes = 100, paramsKey = 'p'): StoredAnswer => ({
  operation: 'postQuotes',
  paramsKey,
  cursor,
  fetchedAt,
  httpStatus: 200,
  body: { cursor },
  page,
  bytes,
});

describe('ResponseStore', () => {
  it('serves a first page while fresh, not after', () => {
    const s = new ResponseStore();
    s.put(answer(null, 0));
    expect(s.get('postQuotes', 'p', null, STALE_TIME_MS.postQuotes - 1)).toBeDefined();
    expect(s.get('postQuotes', 'p', null, STALE_TIME_MS.postQuotes)).toBeUndefined();
  });

  it('keeps later pages of the current snapshot however old', () => {
    const s = new ResponseStore();
    s.put(answer(null, 0));
    s.put(answer('c1', 0));
    expect(s.get('postQuotes', 'p', 'c1', 10 * STALE_TIME_MS.postQuotes)).toBeDefined();
  });

  it('drops the later pages of a view when its first page is fetched again', () => {
    const s = new ResponseStore();
    s.put(answer(null, 0));
    s.put(answer('c1', 0));
    s.put(answer('c1', 0, 100, 'other'));
    s.put(answer('c1', 5)); // replaced, still indexed
    s.put(answer(null, 10));
    expect(s.get('postQuotes', 'p', 'c1', 10)).toBeUndefined();
    expect(s.get('postQuotes', 'other', 'c1', 10)).toBeDefined();
  });

  it('keeps the snapshot when its first page is asked again by a list that let it go', () => {
    const s = new ResponseStore();
    s.put(answer(null, 0));
    s.put(answer('c1', 0));
    s.put(answer(null, 5), { sameSnapshot: true });
    expect(s.get('postQuotes', 'p', 'c1', 10)).toBeDefined();
  });

  it('stays within its byte budget, dropping the least recently used', () => {
    const s = new ResponseStore(1_000);
    for (let i = 0; i < 20; i++) s.put(answer(`c${i}`, 0, 100));
    expect(s.size).toBe(10);
    expect(s.get('postQuotes', 'p', 'c0', 0)).toBeUndefined();
    expect(s.get('postQuotes', 'p', 'c19', 0)).toBeDefined();
  });

  it('clears and says how many answers it dropped', () => {
    const s = new ResponseStore();
    s.put(answer(null, 0));
    s.put(answer('c1', 0));
    expect(s.clear()).toBe(2);
    expect(s.size).toBe(0);
  });

  describe('with a spill folder', () => {
    const dirs: string[] = [];
    const spillDir = () => {
      const d = mkdtempSync(join(tmpdir(), 'skein-spill-'));
      dirs.push(d);
      return join(d, 'pages');
    };
    afterEach(() => {
      for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    });

    it('sends what runs out of room to disk and serves it back from there', () => {
      const dir = spillDir();
      const s = new ResponseStore(250, { dir });
      s.put(answer(null, 0));
      s.put(answer('c1', 0));
      s.put(answer('c2', 0));
      expect(readdirSync(dir).length).toBeGreaterThan(0);
      expect(s.size).toBe(3);
      expect(s.get('postQuotes', 'p', 'c1', 10 * STALE_TIME_MS.postQuotes)?.body).toEqual({ cursor: 'c1' });
      expect(s.peek('postQuotes', 'p', null)?.body).toEqual({ cursor: null });
      expect(s.get('postQuotes', 'p', 'c2', 0)?.body).toEqual({ cursor: 'c2' });
    });

    it('drops spilled later pages with their snapshot, and everything on clear', () => {
      const dir = spillDir();
      const s = new ResponseStore(150, { dir });
      s.put(answer(null, 0));
      s.put(answer('c1', 0));
      s.put(answer('c2', 0, 100, 'other'));
      s.put(answer(null, 10));
      expect(s.get('postQuotes', 'p', 'c1', 10)).toBeUndefined();
      expect(s.peek('postQuotes', 'other', 'c2')).toBeDefined();
      expect(s.clear()).toBeGreaterThan(0);
      expect(readdirSync(dir)).toEqual([]);
    });

    it('keeps the disk within its own budget, oldest out first', () => {
      const dir = spillDir();
      const s = new ResponseStore(100, { dir, maxBytes: 1 });
      s.put(answer('c1', 0));
      s.put(answer('c2', 0));
      s.put(answer('c3', 0));
      expect(readdirSync(dir).length).toBeLessThanOrEqual(1);
      expect(s.peek('postQuotes', 'p', 'c1')).toBeUndefined();
    });
  });
});
