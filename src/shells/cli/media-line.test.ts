/** The runner's line on how a job's media keeping ended: kept, stopped or failed, in words, with what failed. */
import { describe, expect, it } from 'vitest';
import type { MediaJob } from '../../shared/ipc/media';
import { mediaLine } from './skein';

const job = (over: Partial<MediaJob>): MediaJob => ({
  id: 'k',
  collection: 1,
  state: 'done',
  total: 3,
  done: 3,
  kept: 3,
  storedBytes: 2_500_000,
  failed: 0,
  reasons: {},
  alreadyKept: 1,
  message: null,
  timestamp: null,
  ...over,
});

describe('the runner’s media line', () => {
  it('says what was kept, what was not and why, and that running again goes on', () => {
    expect(mediaLine(job({}))).toBe('Media: kept 3 files (2.5 MB new; 1 already kept, not fetched again).');
    expect(mediaLine(job({ kept: 2, failed: 1, reasons: { 'timed-out': 1 } }))).toBe(
      'Media: kept 2 files (2.5 MB new; 1 already kept, not fetched again). 1 file not kept (1 timed out); running it again tries them once more.',
    );
    expect(mediaLine(job({ state: 'cancelled', done: 1 }))).toBe(
      'Media: stopped after 1 file; running it again goes on where it stopped.',
    );
    expect(mediaLine(job({ state: 'failed', message: 'the project is read-only.' }))).toBe(
      'Media: not kept (the project is read-only).',
    );
  });
});
