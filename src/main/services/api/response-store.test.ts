import { describe, expect, it } from 'vitest';
import { STALE_TIME_MS } from '../../../shared/api';
import type { NormalizedPage } from './normalize/page';
import { ResponseStore, type StoredAnswer } from './response-store';

const page: NormalizedPage = { items: [], rawItems: [], rawCount: 0, dropped: [], data: null, rawData: undefined, paging: null };
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
});
