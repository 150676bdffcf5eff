import { describe, expect, it } from 'vitest';
import type { PagesJob } from '../../../shared/ipc/pages';
import {
  pageRowWords,
  pagesEstimateSentence,
  pagesProgressSentence,
  pagesTimestampSentence,
  saveSentence,
  waczSentence,
} from './keep-pages';

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
  timestamp: null,
  ...over,
});

describe('the words of Keep linked pages', () => {
  it('a finished run says who timestamped its web archive and when, or plainly why nobody did', () => {
    const t = { authority: 'https://tsa.example:8443/tsr', genTime: Date.UTC(2026, 10, 1, 9, 30, 5), serial: '0a' };
    expect(pagesTimestampSentence({ ...t, reason: null })).toBe(
      'Timestamped by tsa.example:8443 at 2026-11-01 09:30:05 UTC: a token over this web archive’s hash is saved beside it.',
    );
    expect(
      pagesTimestampSentence({
        authority: null,
        genTime: null,
        serial: null,
        reason: 'no timestamp authority is set in Settings, so no trusted time was asked for',
      }),
    ).toBe('No timestamp authority is set in Settings, so no trusted time was asked for.');
  });

  it('the count says how many pages, from how many posts, and what is kept already', () => {
    expect(pagesEstimateSentence({ urls: 12, alreadyCaptured: 3, posts: 11, save: null })).toBe(
      '12 linked pages to fetch, from 11 posts. No API credits: pages come from their own sites. 3 linked pages already kept will not be fetched again.',
    );
    expect(pagesEstimateSentence({ urls: 0, alreadyCaptured: 1, posts: 1, save: null })).toMatch(/^Nothing to fetch/);
    expect(pagesEstimateSentence({ urls: 0, alreadyCaptured: 0, posts: 0, save: null })).toBe(
      'The posts of this collection link to no web pages.',
    );
    expect(pagesEstimateSentence({ urls: 2, alreadyCaptured: 0, posts: 2, save: null, damagedPosts: 1 })).toBe(
      '2 linked pages to fetch, from 2 posts. No API credits: pages come from their own sites. 1 post is kept damaged in the project, so its links cannot be read and is not counted; hydrating its id mends it.',
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

describe('the words of the web archive save service', () => {
  it('the count says how many pages go to the save service and about how long that takes at its pace', () => {
    expect(pagesEstimateSentence({ urls: 2, alreadyCaptured: 0, posts: 2, save: { urls: 60, paceSeconds: 10 } })).toBe(
      '2 linked pages to fetch, from 2 posts. No API credits: pages come from their own sites. 60 linked pages to send to the web archive’s save service, one every 10 s (about 10 min).',
    );
    expect(
      pagesEstimateSentence({ urls: 0, alreadyCaptured: 3, posts: 3, save: { urls: 0, paceSeconds: 10 } }),
    ).toMatch(/is kept\. .* Every one is saved at the web archive already\.$/);
  });

  it('says how far the sending is, then what was saved and why the rest was not', () => {
    const save = { total: 5, done: 2, saved: 1, failed: 1, reasons: { 'rate-limited': 1 }, alreadySaved: 0 };
    expect(saveSentence(job({ save: null }))).toBeNull();
    expect(saveSentence(job({ save }))).toBe(
      'Sending to the web archive: 2 of 5 linked pages. Not saved: 1 rate limited.',
    );
    expect(
      saveSentence(
        job({ state: 'done', save: { ...save, done: 5, saved: 3, failed: 2, reasons: { failed: 1, refused: 1 } } }),
      ),
    ).toBe('Saved at the web archive: 3 linked pages (0 were already saved). Not saved: 1 failed, 1 refused.');
  });

  it('a URL: kept or why not, and saved or why not, in words', () => {
    const row = {
      url: 'https://news.example/a',
      state: 'failed' as const,
      at: 0,
      reason: 'timed-out',
      message: 'it took longer than 120 s',
      save: { state: 'failed' as const, at: 0, captureUrl: null, reason: 'rate-limited', message: 'wait' },
    };
    expect(pageRowWords(row)).toEqual({
      kept: 'Not kept: timed out (it took longer than 120 s).',
      saved: 'Not saved at the web archive: rate limited (wait).',
    });
    expect(
      pageRowWords({
        ...row,
        state: 'captured',
        save: { ...row.save, state: 'saved', captureUrl: 'https://web.archive.org/web/1/x', reason: null },
      }),
    ).toEqual({ kept: 'Kept in this project’s web archive.', saved: 'Saved at the web archive:' });
    expect(pageRowWords({ ...row, save: null }).saved).toBeNull();
  });
});
