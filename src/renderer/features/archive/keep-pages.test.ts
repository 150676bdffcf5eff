import { describe, expect, it } from 'vitest';
import type { PagesJob } from '../../../shared/ipc/pages';
import { pagesEstimateSentence, pagesProgressSentence, waczSentence } from './keep-pages';

const job = (over: Partial<PagesJob>): PagesJob => ({
  id: 'j',
  collection: 1,
  state: 'running',
  total: 10,
  done: 4,
  captured: 3,
  bytes: 25_000,
  failed: 1,
  reasons: { gone: 1 },
  alreadyCaptured: 0,
  wacz: null,
  folder: null,
  message: null,
  save: null,
  ...over,
});

describe('the words of Keep linked pages', () => {
  it('the count says how many pages, from how many posts, and what is kept already', () => {
    expect(pagesEstimateSentence({ urls: 12, alreadyCaptured: 3, posts: 11 })).toBe(
      '12 linked pages to fetch, from 11 posts. No API credits: pages come from their own sites. 3 linked pages already kept will not be fetched again.',
    );
    expect(pagesEstimateSentence({ urls: 0, alreadyCaptured: 1, posts: 1 })).toMatch(/^Nothing to fetch/);
    expect(pagesEstimateSentence({ urls: 0, alreadyCaptured: 0, posts: 0 })).toBe(
      'The posts of this collection link to no web pages.',
    );
  });

  it('progress, then captured and failed with reasons in plain words, and where the archive is', () => {
    expect(pagesProgressSentence(job({}))).toBe('Keeping linked pages: 4 of 10 linked pages. Not kept: 1 gone.');
    const done = job({
      state: 'done',
      done: 10,
      captured: 7,
      failed: 3,
      reasons: { gone: 1, refused: 1, 'timed-out': 1 },
      wacz: '/home/r/Study.skein-pages/pages-20261101T000000Z-abcd1234.wacz',
    });
    expect(pagesProgressSentence(done)).toBe(
      'Kept 7 linked pages (25 kB; 0 were already kept). Not kept: 1 gone, 1 refused, 1 timed out.',
    );
    expect(waczSentence(done)).toContain('/home/r/Study.skein-pages/pages-20261101T000000Z-abcd1234.wacz');
    expect(waczSentence(job({ state: 'done', wacz: null }))).toBeNull();
    expect(pagesProgressSentence(job({ state: 'cancelled' }))).toMatch(/^Stopped after 4 linked pages/);
    expect(pagesProgressSentence(job({ state: 'failed', message: 'the disk is full' }))).toBe(
      'The linked pages could not be kept: the disk is full.',
    );
  });
});
