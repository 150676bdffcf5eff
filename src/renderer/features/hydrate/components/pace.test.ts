import { describe, expect, it } from 'vitest';
import type { ExportJob } from '../../../../shared/ipc/export';
import { pace } from './ListPanel';

const job = (items: number, fraction: number | null): ExportJob =>
  ({ startedAt: 0, progress: { items, pages: 0, calls: 0, credits: 0, fraction } }) as unknown as ExportJob;

describe('pace', () => {
  it('gives the share done, the rate and the time left', () => {
    expect(pace(job(3000, 0.25), 10_000)).toBe(' (25%) · 300 found/s · about 30 s left');
    expect(pace(job(0, 0), 1000)).toBe(' (0%)');
  });
  it('says nothing it cannot know', () => {
    expect(pace(job(10, null), 1000)).toBe('');
  });
});
