import { describe, expect, it } from 'vitest';
import { pagedExportView } from './view-descriptor';

describe('pagedExportView', () => {
  it('is null until the first page is in (the button stays disabled)', () => {
    expect(pagedExportView('mentions', { userName: 'a' }, { data: undefined, hasNextPage: false }, 0)).toBeNull();
  });

  it('describes what the view holds: pages, items, whether it reached the end', () => {
    const view = pagedExportView(
      'timeline',
      { userId: '1', includeReplies: false, includeParentTweet: undefined, cursor: 'x' },
      { data: { pages: [{}, {}] }, hasNextPage: true },
      37,
      {
        title: 'Posts by @a',
        expectedItems: 120,
      },
    );
    expect(view).toEqual({
      kind: 'timeline',
      operation: 'userTimeline',
      params: { userId: '1', includeReplies: false },
      title: 'Posts by @a',
      loadedPages: 2,
      loadedItems: 37,
      reachedEnd: false,
      expectedItems: 120,
    });
    expect(
      pagedExportView('listFollowers', { list_id: '9' }, { data: { pages: [{}] }, hasNextPage: false }, 5)?.reachedEnd,
    ).toBe(true);
  });
});
