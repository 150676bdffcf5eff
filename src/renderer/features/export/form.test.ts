import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES } from '../../../shared/api/pricing';
import type { ExportJob } from '../../../shared/ipc/export';
import {
  clockWords,
  describeEstimate,
  describeJob,
  fileName,
  mediaPendingWords,
  offersKeepMedia,
  readCaps,
  sameSubject,
  sameView,
  unrecordedNotice,
  unrecordedWords,
  viewMediaWords,
  waitWords,
  withKeepMedia,
} from './form';
import { exportView } from './view-descriptor';

describe('export form', () => {
  it('reads caps: empty is no cap, numbers may carry separators, anything else is refused', () => {
    expect(readCaps({ maxPages: '', maxItems: ' 10,000 ', maxCredits: '' })).toEqual({
      ok: true,
      caps: { maxItems: 10000 },
    });
    expect(readCaps({ maxPages: '0', maxItems: '', maxCredits: '' })).toMatchObject({ ok: false, field: 'maxPages' });
    expect(readCaps({ maxPages: '', maxItems: '', maxCredits: '1.5' })).toMatchObject({
      ok: false,
      field: 'maxCredits',
    });
  });

  it('describes estimates and jobs in plain words', () => {
    expect(describeEstimate({ paged: true, remainingPages: 0, calls: 0, credits: 0, basis: '' })).toMatch(
      /No new calls/,
    );
    expect(
      describeEstimate({
        paged: true,
        remainingPages: 360,
        calls: 360,
        credits: 108_000,
        range: { calls: [76, 646], credits: [22_800, 193_800] },
        basis: '',
      }),
    ).toBe('About 360 calls (between 76 and 646), about 108,000 credits (between 22,800 and 193,800).');
    expect(describeEstimate({ paged: true, remainingPages: 500, calls: 500, credits: 150000, basis: '' })).toBe(
      'About 500 calls, about 150,000 credits.',
    );
    // with the price table, dollars beside every credit figure
    expect(
      describeEstimate({ paged: true, remainingPages: 500, calls: 500, credits: 150000, basis: '' }, DEFAULT_PRICES),
    ).toBe(`About 500 calls, about 150,000 credits ($${(150000 / DEFAULT_PRICES.creditsPerUsd).toFixed(2)}).`);
    // dollars read like money: cents, and "< $0.01" under a cent, never "$0.0045"
    expect(
      describeEstimate({ paged: true, remainingPages: 3, calls: 3, credits: 451, basis: '' }, DEFAULT_PRICES),
    ).toBe('About 3 calls, about 451 credits (< $0.01).');
    expect(
      describeEstimate({ paged: true, remainingPages: 3, calls: 3, credits: 4512, basis: '' }, DEFAULT_PRICES),
    ).toBe('About 3 calls, about 4,512 credits ($0.05).');
    expect(describeEstimate({ paged: true, remainingPages: null, calls: null, credits: null, basis: '' })).toMatch(
      /Unknown/,
    );
    // a lower bound is never presented as the estimate
    expect(
      describeEstimate({ paged: true, remainingPages: 72, calls: 72, credits: 21600, atLeast: true, basis: '' }),
    ).toBe('At least 72 calls, at least 21,600 credits (the true figure is higher: see below).');
    const job = {
      status: 'partial',
      stopReason: 'cap-pages',
      progress: { items: 2000, pages: 100, calls: 100, credits: 30000, fraction: 0.2 },
      error: null,
    } as unknown as ExportJob;
    expect(describeJob(job)).toBe(
      'Saved a partial export (stopped at the page cap): 2,000 items, 100 pages, 100 calls, ~30,000 credits.',
    );
    expect(fileName('C:\\Users\\a\\thread.json')).toBe('thread.json');
  });

  it('says how long a rate-limited job still waits, and nothing when it does not wait', () => {
    const job = {
      status: 'collecting',
      progress: { items: 0, pages: 0, calls: 0, credits: 0, fraction: null, waitingUntil: 100_000 },
    } as unknown as ExportJob;
    expect(waitWords(job, 58_500)).toBe('Rate limited by the service: going on by itself in 0:42.');
    expect(waitWords({ ...job, status: 'writing' }, 0)).toBeNull();
    expect(waitWords({ ...job, progress: { ...job.progress, waitingUntil: null } }, 0)).toBeNull();
    expect(clockWords(15 * 60_000)).toBe('15:00');
    expect(clockWords(3_600_000 + 61_000)).toBe('1:01:01');
    expect(clockWords(-5)).toBe('0:00');
  });

  it('finds a running job of the same view whatever it has loaded since', () => {
    const a = exportView('thread', { tweetId: '1', queryType: 'Latest' }, { pages: 1 });
    const b = exportView('thread', { queryType: 'Latest', tweetId: '1' }, { pages: 9, items: 180 });
    expect(sameView(a, b)).toBe(true);
    expect(sameView(a, exportView('thread', { tweetId: '2', queryType: 'Latest' }))).toBe(false);
    expect(sameView(a, exportView('directReplies', { tweetId: '1' }))).toBe(false);
    // two hydrations are two views: each names its own id list
    const list = (idsFrom: string) => ({ kind: 'postsByIds', operation: 'postsByIds', params: {}, idsFrom }) as const;
    expect(sameView(list('imp-aaaaaaaaaaaaaaaa'), list('imp-aaaaaaaaaaaaaaaa'))).toBe(true);
    expect(sameView(list('imp-aaaaaaaaaaaaaaaa'), list('imp-bbbbbbbbbbbbbbbb'))).toBe(false);
  });

  it("counts a thread's job as this view's whatever order it was exported in", () => {
    const screen = exportView('thread', { tweetId: '1', queryType: 'Relevance' }, { pages: 2 });
    expect(sameSubject(exportView('thread', { tweetId: '1', queryType: 'Latest' }), screen)).toBe(true);
    expect(sameSubject(exportView('thread', { tweetId: '2', queryType: 'Latest' }), screen)).toBe(false);
    expect(sameSubject(exportView('directReplies', { tweetId: '1' }), screen)).toBe(false);
  });

  it('builds a view descriptor from what the view has loaded', () => {
    expect(
      exportView(
        'thread',
        { tweetId: '1234567890123456789', queryType: 'Latest', cursor: 'x', extra: undefined },
        { pages: 3, items: 60, reachedEnd: false },
        { title: 'Thread', expectedItems: 10000 },
      ),
    ).toEqual({
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

describe('export choices', () => {
  it('exports replies in Latest order by default; a ranked order warns, and "loaded" needs the order on screen', async () => {
    const { exportOrder } = await import('./form');
    const shownRelevance = exportView(
      'thread',
      { tweetId: '1', queryType: 'Relevance' },
      { pages: 2, items: 40, reachedEnd: false },
    );
    const byDefault = exportOrder(shownRelevance, null);
    expect(byDefault).toMatchObject({ shown: 'Relevance', chosen: 'Latest', loadedAvailable: false, warning: null });
    expect(byDefault.view.params.queryType).toBe('Latest');
    expect(byDefault.view.loadedItems).toBeUndefined();
    const relevance = exportOrder(shownRelevance, 'Relevance');
    expect(relevance).toMatchObject({ loadedAvailable: true, view: shownRelevance });
    expect(relevance.warning).toMatch(/can leave replies out/);
    expect(exportOrder(exportView('quotes', { tweetId: '1' }), null)).toMatchObject({
      shown: null,
      warning: null,
      loadedAvailable: true,
    });
    // what is loaded keeps the order on screen unless another is chosen: the default export costs nothing
    expect(exportOrder(shownRelevance, null, 'loaded')).toMatchObject({
      chosen: 'Relevance',
      loadedAvailable: true,
      view: shownRelevance,
    });
    expect(exportOrder(shownRelevance, 'Latest', 'loaded')).toMatchObject({ chosen: 'Latest', loadedAvailable: false });
  });

  it('offers to keep media for views of posts only, and asks main for it only when ticked', () => {
    const posts = exportView('timeline', { userId: '7' }, { pages: 1 });
    const people = exportView('peopleSearch', { query: 'ada' }, { pages: 1 });
    expect(offersKeepMedia(posts)).toBe(true);
    expect(offersKeepMedia(people)).toBe(false);
    const input = { view: posts, format: 'jsonl', scope: 'loaded' as const };
    expect(withKeepMedia(input, true)).toEqual({ ...input, keepMedia: true });
    expect(withKeepMedia({ ...input, keepMedia: true }, false)).toEqual(input);
    // a view of accounts never asks, whatever the box said before the view changed
    expect(withKeepMedia({ ...input, view: people }, true)).toEqual({ ...input, view: people });
  });

  it('says what keeping the media of an export takes before it starts, and that more pages add theirs', () => {
    const e = { files: 3, alreadyKept: 0, knownBytes: 2_000_000, guessedBytes: 0, guessedFiles: 0, seconds: 4 };
    expect(viewMediaWords({ ...e, posts: 20, partial: false })).toMatch(
      /^Media of the 20 posts to export: 3 files to fetch, about 2(\.0)? MB, about .*No API credits/,
    );
    expect(viewMediaWords({ ...e, posts: 20, partial: true })).toMatch(
      /^Media of the 20 posts loaded so far: .* The pages still to fetch add their media, counted once they are fetched\.$/,
    );
    expect(viewMediaWords({ ...e, files: 0, posts: 0, partial: true })).toMatch(/^No posts are loaded yet/);
  });

  it('says what happens to the media of an export before their keeping starts', () => {
    const job = { keepMedia: true, status: 'collecting', progress: {} } as unknown as ExportJob;
    expect(mediaPendingWords(job)).toBe('Once the file is written, Skein keeps the photos and videos of its posts.');
    expect(mediaPendingWords({ ...job, status: 'cancelled' })).toBe('No file was written, so no media were kept.');
    expect(mediaPendingWords({ ...job, status: 'complete', collection: 3 })).toMatch(/project in use changed/);
    expect(mediaPendingWords({ ...job, status: 'complete', collection: 3, mediaJob: 'k' })).toBeNull();
    expect(mediaPendingWords({ ...job, keepMedia: false, status: 'complete' })).toBeNull();
    const unrecorded = { code: 'offline', message: 'Nothing answers at 127.0.0.1:5432.' } as const;
    expect(mediaPendingWords({ ...job, status: 'complete', unrecorded: { error: unrecorded } })).toBe(
      'Its photos and videos are kept once the project has kept this export.',
    );
  });

  it('says in the status bar which export the project could not keep, and where to keep it', () => {
    const job = {
      status: 'complete',
      progress: {},
      view: { kind: 'thread', operation: 'postRepliesV2', params: { tweetId: '1' }, title: 'Replies to @ada' },
    } as unknown as ExportJob;
    expect(unrecordedNotice(job)).toBeNull();
    expect(
      unrecordedNotice({
        ...job,
        unrecorded: { error: { code: 'offline', message: 'Nothing answers at 127.0.0.1:5432.' } },
      }),
    ).toBe(
      'The export “Replies to @ada” is written, but the project could not keep it as a collection: Nothing answers at 127.0.0.1:5432. Its Export… dialog keeps it later, at no cost.',
    );
  });

  it('says a written export the project could not keep, why, and that keeping it later costs nothing', () => {
    const job = { status: 'complete', progress: {} } as unknown as ExportJob;
    expect(unrecordedWords(job)).toBeNull();
    const words = unrecordedWords({
      ...job,
      unrecorded: {
        error: {
          code: 'offline',
          message: 'Nothing answers at 127.0.0.1:5432.',
          details: { action: 'Check that PostgreSQL runs there.' },
        },
        collection: 4,
      },
    });
    expect(words).toEqual({
      text: 'The file is written, but the project could not keep this export as a collection: Nothing answers at 127.0.0.1:5432.',
      action:
        'Check that PostgreSQL runs there. Its items wait on this computer: keeping it in the project makes no call and costs nothing.',
    });
  });
});
