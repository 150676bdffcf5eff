import { describe, expect, it } from 'vitest';
import type { MediaJob } from '../../../shared/ipc/media';
import { estimateSentence, progressSentence } from './keep-media';

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
});
