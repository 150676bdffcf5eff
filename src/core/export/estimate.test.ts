import { describe, expect, it } from 'vitest';
import { estimateExport } from './estimate';

const thread = { kind: 'thread' as const, operation: 'postRepliesV2' as const, params: { tweetId: '1' } };

describe('the estimate a person reads before fetching everything', () => {
  it("a thread: the post's reply count counts direct replies, so the figures are lower bounds", () => {
    // the 10,000-reply thread of the issue: 1,460 direct replies announced, 20 per page seen
    const e = estimateExport({ ...thread, loadedPages: 1, loadedItems: 20, expectedItems: 1460 }, 'all');
    expect(e).toMatchObject({ atLeast: true, calls: 72 });
    expect(e.basis).toMatch(/direct replies; the whole conversation .* is larger/);
    expect(e.basis).toMatch(/Pages hold about 20 items \(from the 1 page loaded\)/);
    expect(e.credits).toBe(72 * 300);
  });

  it('learns the page size from the pages seen and refines as they arrive', () => {
    const early = estimateExport({ ...thread, loadedPages: 1, loadedItems: 20, expectedItems: 1000 }, 'all');
    const later = estimateExport({ ...thread, loadedPages: 10, loadedItems: 180, expectedItems: 1000 }, 'all');
    expect(later.calls!).toBeLessThan(early.calls!);
    expect(later.basis).toMatch(/about 18 items \(from the 10 pages loaded\)/);
  });

  it('once more replies are loaded than the post announces, says the rest is unknown rather than "0 calls"', () => {
    const e = estimateExport({ ...thread, loadedPages: 5, loadedItems: 100, expectedItems: 60 }, 'all');
    expect(e).toMatchObject({ calls: null, credits: null });
    expect(e.basis).toMatch(/more than the post's 60 direct replies/);
  });

  it('views whose total is the whole list stay "about"', () => {
    const e = estimateExport(
      {
        kind: 'quotes',
        operation: 'postQuotes',
        params: { tweetId: '1' },
        loadedPages: 1,
        loadedItems: 20,
        expectedItems: 100,
      },
      'all',
    );
    expect(e.atLeast).toBeUndefined();
    expect(e.calls).toBe(4);
  });

  it('a space is never kept, so exporting "what is loaded" says the call it makes', () => {
    const e = estimateExport(
      {
        kind: 'space',
        operation: 'spaceDetail',
        params: { space_id: '1OyKAZaYmEbJb' },
        loadedItems: 1,
        reachedEnd: true,
      },
      'loaded',
    );
    expect(e.calls).toBe(1);
    expect(e.credits).toBeGreaterThan(0);
  });
});
