import { describe, expect, it } from 'vitest';
import { userFixture } from '../../shared/api/fixtures';
import { summarizeEntryPages } from './entry-pages';

const page = (items: unknown[], extra: { fromCache?: boolean; stop?: string } = {}) => ({
  items,
  paging: {
    hasNextPage: true,
    nextCursor: 'c',
    stop: extra.stop ? { reason: 'repeated-cursor' as const, message: extra.stop } : null,
  },
  report: { duplicatesRemoved: 0, dropped: [], notFound: [] },
  meta: {
    callId: 'x',
    fromCache: extra.fromCache ?? false,
    fetchedAt: 0,
    httpStatus: 200,
    credits: 150,
    durationMs: 1,
    attempts: 1,
  },
});

describe('summarizeEntryPages', () => {
  it('shows users as users, other entries as fields, and nobody twice', () => {
    const s = summarizeEntryPages([
      page([userFixture, { note: 'x' }]),
      page([userFixture, { id: '7', screen_name: 'g' }, { note: 'x' }]),
    ]);
    expect(s.items.map((r) => [r.key, r.view.kind])).toEqual([
      [`u${userFixture.id}`, 'user'],
      ['p0-1', 'fields'],
      ['u7', 'userLike'],
      ['p1-2', 'fields'],
    ]);
    expect(s.duplicatesRemoved).toBe(1);
    expect(s.fromCache).toBe(false);
    expect(s.pages).toBe(2);
  });

  it('reports a paging stop and pages that all came from cache', () => {
    const s = summarizeEntryPages([page([], { fromCache: true, stop: 'The same cursor came back.' })]);
    expect(s.items).toEqual([]);
    expect(s.stop).toBe('The same cursor came back.');
    expect(s.fromCache).toBe(true);
    expect(summarizeEntryPages(undefined).pages).toBe(0);
  });
});
