import { describe, expect, it } from 'vitest';
import type { MediaJob } from '../../../shared/ipc/media';
import {
  checkSentence,
  estimateSentence,
  evidenceSentence,
  mismatchSentence,
  pagesCheckSentence,
  pagesTokensSentence,
  progressSentence,
  timestampSentence,
  tokenProblemSentence,
  tokensSentence,
  waczProblemSentence,
} from './keep-media';

const NO_PAGES = {
  checked: 0,
  matched: 0,
  unrecorded: 0,
  problems: [],
  folder: '/p/study-pages',
  tokens: 0,
  tokenProblems: [],
};

const job = (over: Partial<MediaJob>): MediaJob => ({
  id: 'j',
  collection: 1,
  state: 'running',
  total: 10,
  done: 4,
  kept: 4,
  storedBytes: 2_500_000,
  failed: 0,
  reasons: {},
  alreadyKept: 0,
  message: null,
  timestamp: null,
  ...over,
});

describe('the words of Keep media', () => {
  it('an estimate says what is known and what is a guess', () => {
    expect(
      estimateSentence({
        files: 12,
        alreadyKept: 3,
        knownBytes: 4_000_000,
        guessedBytes: 2_700_000,
        guessedFiles: 9,
        seconds: 7,
      }),
    ).toBe(
      '12 files to fetch, about 6.7 MB (4 MB known from the videos; 2.7 MB a guess for 9 files whose size the posts do not give), about 7 s. No API credits: media come from their servers. 3 files already kept will not be fetched again.',
    );
    expect(
      estimateSentence({ files: 0, alreadyKept: 5, knownBytes: 0, guessedBytes: 0, guessedFiles: 0, seconds: 0 }),
    ).toMatch(/^Nothing to fetch/);
    // posts kept damaged in the project: their media are not counted, and the estimate says so
    const none = { files: 0, alreadyKept: 0, knownBytes: 0, guessedBytes: 0, guessedFiles: 0, seconds: 0 };
    expect(estimateSentence({ ...none, files: 1, knownBytes: 1e6, seconds: 1, damagedPosts: 2 })).toBe(
      '1 file to fetch, about 1 MB, about 1 s. No API credits: media come from their servers. 2 posts are kept damaged in the project, so their media cannot be read and are not counted; hydrating their ids mends them.',
    );
    expect(estimateSentence({ ...none, damagedPosts: 1 })).toBe(
      'Nothing to fetch: every photo and video of this collection is kept. 1 post is kept damaged in the project, so its media cannot be read and is not counted; hydrating its id mends it.',
    );
  });

  it('progress names failures by reason in plain words', () => {
    expect(progressSentence(job({}))).toBe('Keeping media: 4 of 10 files, 2.5 MB new.');
    expect(
      progressSentence(
        job({ state: 'done', kept: 8, failed: 2, reasons: { gone: 1, 'wrong-type': 1 }, alreadyKept: 3 }),
      ),
    ).toBe('Kept 8 files (2.5 MB new; 3 were already kept). Not kept: 1 gone, 1 not a photo or video.');
    expect(progressSentence(job({ state: 'cancelled' }))).toMatch(/Keep media again to go on/);
  });

  it('a check says all match with their size, or how many no longer do', () => {
    expect(
      checkSentence({
        checked: 214,
        bytes: 38_200_000,
        matched: 214,
        mismatches: [],
        tokens: 0,
        tokenProblems: [],
        pages: NO_PAGES,
      }),
    ).toBe('All 214 kept files match what was kept (38.2 MB).');
    expect(
      checkSentence({
        checked: 214,
        bytes: 38_200_000,
        matched: 212,
        mismatches: [],
        tokens: 0,
        tokenProblems: [],
        pages: NO_PAGES,
      }),
    ).toBe('2 of 214 kept files no longer match what was kept:');
    expect(
      checkSentence({
        checked: 0,
        bytes: 0,
        matched: 0,
        mismatches: [],
        tokens: 0,
        tokenProblems: [],
        pages: NO_PAGES,
      }),
    ).toMatch(/no kept files/);
  });

  it('a file that no longer matches is named by its posts and when it was kept (UTC)', () => {
    const m = {
      name: `${'a'.repeat(64)}.mp4`,
      expected: 'a'.repeat(64),
      found: null,
      size: 10,
      keptAt: Date.UTC(2026, 10, 1, 9, 30),
      uses: [
        { postId: '17', mediaKey: '7_1', url: 'https://video.example/1.mp4' },
        { postId: '18', mediaKey: '7_1', url: 'https://video.example/1.mp4' },
      ],
    };
    expect(mismatchSentence(m)).toBe(
      'The video of posts 17, 18, kept 2026-11-01 09:30 UTC, is missing from the media folder.',
    );
    expect(
      mismatchSentence({ ...m, name: 'b.jpg', found: 'b'.repeat(64), uses: [m.uses[0] as (typeof m.uses)[0]] }),
    ).toBe('The photo of post 17, kept 2026-11-01 09:30 UTC, has changed: its bytes no longer hash to what was kept.');
  });

  it('a finished keeping says who timestamped its files and when, or plainly why nobody did', () => {
    const t = {
      files: 8,
      authority: 'https://tsa.example:8443/tsr',
      genTime: Date.UTC(2026, 10, 1, 9, 30, 5),
      serial: '2a',
      reason: null,
    };
    expect(timestampSentence(t)).toBe(
      'Timestamped by tsa.example:8443 at 2026-11-01 09:30:05 UTC: a token over the hashes of the 8 files kept this time is saved beside them.',
    );
    expect(
      timestampSentence({
        ...t,
        authority: null,
        genTime: null,
        serial: null,
        reason: 'no timestamp authority is set in Settings, so no trusted time was asked for',
      }),
    ).toBe('No timestamp authority is set in Settings, so no trusted time was asked for.');
  });

  it('a check counts the timestamp tokens, and names each that no longer proves its files', () => {
    const c = { checked: 3, bytes: 10, matched: 3, mismatches: [], tokens: 2, tokenProblems: [], pages: NO_PAGES };
    expect(tokensSentence(c)).toBe('All 2 timestamp tokens checked still prove their files.');
    expect(tokensSentence({ ...c, tokens: 0 })).toBe('No timestamp tokens to check yet.');
    const problem = {
      manifest: 'timestamps/a.manifest',
      authority: 'https://tsa.example/tsr',
      genTime: Date.UTC(2026, 10, 1, 9, 30, 5),
      problem: 'the token changed after it was kept',
    };
    expect(tokensSentence({ ...c, tokenProblems: [problem] })).toBe(
      '1 of 2 timestamp tokens checked no longer proves its files:',
    );
    expect(tokenProblemSentence(problem)).toBe(
      'The token from tsa.example of 2026-11-01 09:30:05 UTC: the token changed after it was kept.',
    );
  });

  it('an evidence package says what it holds, what was left out, and the trusted time over its manifest', () => {
    const e = {
      path: '/home/r/study-Profile.evidence.zip',
      posts: 400,
      damaged: 0,
      media: 31,
      files: 29,
      bytes: 247_700,
      changed: 0,
      tokens: 2,
      pages: 0,
      pagesCaptured: 0,
      manifestToken: { authority: 'tsa.example', genTime: Date.UTC(2026, 10, 1, 9, 30, 5) },
      manifestTokenReason: null,
    };
    expect(evidenceSentence(e)).toBe(
      'Evidence package written to /home/r/study-Profile.evidence.zip: 400 posts, 29 files (247.7 kB) and 2 timestamp tokens. Its manifest is timestamped by tsa.example at 2026-11-01 09:30:05 UTC.',
    );
    expect(
      evidenceSentence({
        ...e,
        pages: 12,
        pagesCaptured: 9,
      }),
    ).toBe(
      'Evidence package written to /home/r/study-Profile.evidence.zip: 400 posts, 29 files (247.7 kB), 9 of the 12 linked pages as captured and 2 timestamp tokens. Its manifest is timestamped by tsa.example at 2026-11-01 09:30:05 UTC.',
    );
    expect(
      evidenceSentence({
        ...e,
        changed: 1,
        files: 28,
        manifestToken: null,
        manifestTokenReason: 'no timestamp authority is set in Settings',
      }),
    ).toBe(
      'Evidence package written to /home/r/study-Profile.evidence.zip: 400 posts, 28 files (247.7 kB) and 2 timestamp tokens. 1 file no longer matches its hash and was left out, named in its manifest. Its manifest has no trusted time: no timestamp authority is set in Settings.',
    );
    expect(evidenceSentence({ ...e, posts: 398, damaged: 2 })).toBe(
      'Evidence package written to /home/r/study-Profile.evidence.zip: 398 posts, 29 files (247.7 kB) and 2 timestamp tokens. 2 posts of the collection were left out, named in its manifest: their kept copy in the project is damaged. Hydrating their ids mends them. Its manifest is timestamped by tsa.example at 2026-11-01 09:30:05 UTC.',
    );
  });

  it('a check counts the capture runs’ timestamp tokens, and says when one no longer holds', () => {
    expect(pagesTokensSentence(NO_PAGES)).toBeNull();
    expect(pagesTokensSentence({ ...NO_PAGES, tokens: 1 })).toBe(
      'The one timestamp token of captured pages still proves its web archive.',
    );
    const problem = {
      manifest: 'timestamps/a.manifest',
      token: 'timestamps/a.tsr',
      authority: 'https://tsa.example/tsr',
      genTime: 0,
      problem: '1 of the files it names is no longer kept unchanged',
    };
    expect(pagesTokensSentence({ ...NO_PAGES, tokens: 2, tokenProblems: [problem] })).toBe(
      '1 of 2 timestamp tokens of captured pages no longer proves its web archive:',
    );
  });

  it('a check of the captured pages says they match, or names each file that changed or went missing', () => {
    expect(pagesCheckSentence(NO_PAGES)).toBe('No captured pages to check yet.');
    expect(pagesCheckSentence({ ...NO_PAGES, checked: 3, matched: 3 })).toBe(
      'All 3 files of captured pages match what was written.',
    );
    expect(pagesCheckSentence({ ...NO_PAGES, checked: 3, matched: 1, unrecorded: 1 })).toBe(
      "2 of 3 files of captured pages no longer match what was written. 1 file of captured pages was written before Skein recorded a whole file's hash, so it was checked against the hashes listed inside it.",
    );
    const gone = {
      name: 'pages-20261101T000000Z-abcd1234.wacz',
      state: 'missing' as const,
      expected: 'a'.repeat(64),
      found: null,
      problem: 'it is no longer in the pages folder',
      pages: 4,
      urls: ['https://news.example/story-1'],
    };
    expect(waczProblemSentence(gone)).toBe(
      'The file of 4 captured pages (https://news.example/story-1 and others): it is no longer in the pages folder.',
    );
    expect(waczProblemSentence({ ...gone, pages: 1 })).toBe(
      'The captured page of https://news.example/story-1: it is no longer in the pages folder.',
    );
  });
});
