import { describe, expect, it } from 'vitest';
import { ArchiveQuery } from '../../shared/ipc/archive';
import { countsServe } from './counts';
import { activityWindow } from './results';

const utc = activityWindow('day', 0, Date.UTC(2026, 10, 1));

describe('which charts the counts answer', () => {
  it('answers a chart of all of a kind, in any order, from either project', () => {
    for (const q of [{}, { kind: 'user' as const }, { sort: 'engagement' as const }, { project: 'demo' as const }])
      expect(countsServe(ArchiveQuery.parse(q), utc)).toBe(true);
    expect(countsServe(ArchiveQuery.parse({ text: '   ', author: '', lang: '' }), utc)).toBe(true);
  });

  it('leaves every filtered chart to the items', () => {
    const filters: ArchiveQuery[] = [
      { text: 'heron' },
      { from: 0 },
      { to: 1 },
      { author: 'ada' },
      { lang: 'en' },
      { collection: 3 },
      { media: false },
      { reply: false },
      { quote: true },
      { retweet: false },
    ];
    for (const f of filters) expect(countsServe(ArchiveQuery.parse(f), utc), JSON.stringify(f)).toBe(false);
  });

  it('leaves a chart to the items when the query has a field it does not know, so a new filter is never ignored', () => {
    const q = { ...ArchiveQuery.parse({}), has: 'poll' } as ArchiveQuery & ReturnType<typeof ArchiveQuery.parse>;
    expect(countsServe(q, utc)).toBe(false);
  });

  it('leaves a time zone whose offset is not whole quarter hours to the items', () => {
    expect(countsServe(ArchiveQuery.parse({}), activityWindow('hour', 345, 0))).toBe(true);
    expect(countsServe(ArchiveQuery.parse({}), activityWindow('hour', 7, 0))).toBe(false);
  });
});
