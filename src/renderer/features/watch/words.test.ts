import { describe, expect, it } from 'vitest';
import type { WatchSummary } from '../../../shared/ipc/watch';
import { against, everyWords, gapWords, mediaWords, metricWords, metricsOf, runWords, steps } from './words';

describe('the Watches view’s words', () => {
  it('says a schedule in the largest whole unit', () => {
    expect(everyWords(1)).toBe('every minute');
    expect(everyWords(45)).toBe('every 45 minutes');
    expect(everyWords(60)).toBe('every hour');
    expect(everyWords(120)).toBe('every 2 hours');
    expect(everyWords(1440)).toBe('every day');
    expect(everyWords(4320)).toBe('every 3 days');
  });

  it('draws a counter as steps: each value from when it was first seen to when it was last seen', () => {
    const series = {
      kind: 'post' as const,
      id: '1',
      metrics: [
        { metric: 'views' as const, points: [{ at: 1, value: 5, lastAt: 1 }] },
        {
          metric: 'likes' as const,
          points: [
            { at: 10, value: 3, lastAt: 30 },
            { at: 40, value: 7, lastAt: 40 },
          ],
        },
      ],
    };
    expect(steps(series, 'likes')).toEqual([
      { x: 10, y: 3 },
      { x: 30, y: 3 },
      { x: 40, y: 7 },
    ]);
    expect(steps(series, 'followers')).toEqual([]);
    expect(metricsOf(series)).toEqual(['likes', 'views']);
  });

  it('shows a metric this Skein does not know by the name it was kept under, after the known ones', () => {
    const series = {
      kind: 'post' as const,
      id: '1',
      metrics: [
        { metric: 'saves_v2', points: [{ at: 1, value: 5, lastAt: 1 }] },
        { metric: 'likes', points: [{ at: 1, value: 2, lastAt: 1 }] },
        { metric: 'constructor', points: [{ at: 1, value: 1, lastAt: 1 }] },
      ],
    };
    expect(metricsOf(series)).toEqual(['likes', 'constructor', 'saves_v2']);
    expect(metricWords('likes')).toBe('Likes');
    expect(metricWords('saves_v2')).toBe('saves_v2');
    // a name that is also an object's own key is still only a name
    expect(metricWords('constructor')).toBe('constructor');
    expect(metricWords(' ')).toBe('A metric with no name');
    expect(steps(series, 'saves_v2')).toEqual([{ x: 1, y: 5 }]);
  });

  it('says a run’s status and a gap’s reason; one a newer Skein kept, as written', () => {
    expect(runWords('capped')).toBe('stopped at a cap');
    expect(runWords('partial')).toBe('partial');
    expect(runWords('toString')).toBe('toString');
    expect(runWords('')).toBe('no status');
    expect(gapWords('busy')).toBe('runs were late');
    expect(gapWords('maintenance')).toBe('maintenance');
    expect(gapWords('__proto__')).toBe('__proto__');
    expect(gapWords('  ')).toBe('no reason given');
  });

  it('puts a spend against its cap, never past a full meter', () => {
    expect(against(5010, 20000)).toEqual({ words: '5,010 of 20,000 credits', share: 0.2505 });
    expect(against(30, 20).share).toBe(1);
  });
});

describe('a watch card’s media line', () => {
  const spec = (keepMedia?: boolean) => ({ options: { keepMedia } }) as unknown as WatchSummary['spec'];
  it('says how many files were kept for the watch, or the last failure in words', () => {
    expect(mediaWords({ spec: spec(), media: null })).toBeNull();
    expect(mediaWords({ spec: spec(true), media: null })).toMatch(/^No media kept yet/);
    expect(mediaWords({ spec: spec(true), media: { files: 12, at: 1, failure: null } })).toBe(
      '12 media files kept for this watch.',
    );
    expect(mediaWords({ spec: spec(true), media: { files: 1, at: 1, failure: '2 files were not kept' } })).toBe(
      '1 media file kept for this watch. The last keeping: 2 files were not kept.',
    );
    expect(mediaWords({ spec: spec(false), media: { files: 3, at: 1, failure: null } })).toBe(
      '3 media files kept for this watch (no longer kept after each run).',
    );
  });
});
