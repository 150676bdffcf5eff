import { describe, expect, it } from 'vitest';
import type { ExportJob } from '../../../shared/ipc/export';
import { describeEstimate, describeJob, fileName, readCaps } from './form';
import { exportView } from './view-descriptor';

describe('export form', () => {
  it('reads caps: empty is no cap, numbers may carry separators, anything else is refused', () => {
    expect(readCaps({ maxPages: '', maxItems: ' 10,000 ', maxCredits: '' })).toEqual({ ok: true, caps: { maxItems: 10000 } });
    expect(readCaps({ maxPages: '0', maxItems: '', maxCredits: '' })).toMatchObject({ ok: false, field: 'maxPages' });
    expect(readCaps({ maxPages: '', maxItems: '', maxCredits: '1.5' })).toMatchObject({ ok: false, field: 'maxCredits' });
  });

  it('describes estimates and jobs in plain words', () => {
    expect(describeEstimate({ paged: true, remainingPages: 0, calls: 0, credits: 0, basis: '' })).toMatch(/No new calls/);
    expect(describeEstimate({ paged: true, remainingPages: 500, calls: 500, credits: 150000, basis: '' })).toBe('About 500 calls, about 150,000 credits.');
    expect(describeEstimate({ paged: true, remainingPages: null, calls: null, credits: null, basis: '' })).toMatch(/Unknown/);
    const job = {
      status: 'partial',
      stopReason: 'cap-pages',
      progress: { items: 2000, pages: 100, calls: 100, credits: 30000, fraction: 0.2 },
      error: null,
    } as unknown as ExportJob;
    expect(describeJob(job)).toBe('Saved a partial export (stopped at the page cap): 2,000 items, 100 pages, 100 calls, ~30,000 credits.');
    expect(fileName('C:\\Users\\a\\thread.json')).toBe('thread.json');
  });

  it('builds a view descriptor from what the view has loaded', () => {
    expect(exportView('thread', { tweetId: '1234567890123456789', queryType: 'Latest', cursor: 'x', extra: undefined }, { pages: 3, items: 60, reachedEnd: false }, { title: 'Thread', expectedItems: 10000 })).toEqual({
      kind: 'thread',
      operation: 'postRepliesV2',
      params: { tweetId: '1234567890123456789', queryType: 'Latest' },
      title: 'Thread',
      loadedPages: 3,
      loadedItems: 60,
      reachedEnd: false,
      expectedItems: 10000,
    });
  });
});
