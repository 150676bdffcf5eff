import { describe, expect, it } from 'vitest';
import type { ExportJob } from '../../../../shared/ipc/export';
import { DEFAULT_PRICES } from '../../../../shared/api/pricing';
import { jobLine, pace } from './ListPanel';

const job = (items: number, fraction: number | null): ExportJob =>
  ({ startedAt: 0, progress: { items, pages: 0, calls: 0, credits: 0, fraction } }) as unknown as ExportJob;

describe('pace', () => {
  it('gives the share done, the rate and the time left', () => {
    expect(pace(job(3000, 0.25), 10_000)).toBe(' (25%) · 300 found/s · about 30 s left');
    expect(pace(job(0, 0), 1000)).toBe(' (0%)');
  });
  it('lets the time left grow while a slow batch is out, rather than promise a second', () => {
    // two thirds done after 3 s; the last batch is slow: 20 s on, the estimate has grown with the wait
    expect(pace(job(200, 2 / 3), 3_000)).toMatch(/about 2 s left$/);
    expect(pace(job(200, 2 / 3), 20_000)).toMatch(/about 10 s left$/);
  });
  it('says nothing it cannot know', () => {
    expect(pace(job(10, null), 1000)).toBe('');
  });
});

describe('a hydration’s line', () => {
  it('says what came back, in how many calls, and what was spent with its dollars', () => {
    const done = {
      startedAt: 0,
      status: 'complete',
      files: ['/tmp/posts.jsonl'],
      progress: { items: 230, pages: 3, calls: 3, credits: 3450, fraction: 1 },
    } as unknown as ExportJob;
    // dollars to the cent, as money reads
    expect(jobLine(done, DEFAULT_PRICES, 1000)).toBe(
      'Done: 230 found in 3 calls (3,450 credits ($0.03) spent), written to /tmp/posts.jsonl',
    );
  });
});
