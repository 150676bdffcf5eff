import { describe, expect, it } from 'vitest';
import { SkeinError } from '../../shared/errors';
import { costly, failureOf, isCancel } from './failure';

describe('failureOf', () => {
  it('a failed fetch becomes a record with its reason and what its requests cost', () => {
    const error = new SkeinError('upstream', 'The service answered 503 three times.', { calls: 3, credits: 45 });
    const f = failureOf(error, 2, 'c-9', 1_000);
    expect(f).toEqual({
      request: 2,
      cursor: 'c-9',
      at: 1_000,
      calls: 3,
      credits: 45,
      code: 'upstream',
      message: 'The service answered 503 three times.',
    });
    expect(costly(f)).toBe(true);
  });

  it('takes the attempts as the calls when the error counts only those', () => {
    const f = failureOf(new SkeinError('offline', 'offline', { attempts: 2 }), 0, null, 5);
    expect(f).toMatchObject({ calls: 2, credits: 0, code: 'offline' });
  });

  it('a failure before any request left costs nothing (the journal need not keep it)', () => {
    const f = failureOf(new SkeinError('not-found', 'No such user.'), 0, null, 5);
    expect(f).toMatchObject({ calls: 0, credits: 0, code: 'not-found', message: 'No such user.' });
    expect(costly(f)).toBe(false);
  });

  it('an error that is not Skein’s keeps its message under `internal`', () => {
    expect(failureOf(new TypeError('boom'), 1, null, 5)).toMatchObject({ code: 'internal', message: 'boom' });
    expect(failureOf('odd', 1, null, 5)).toMatchObject({ code: 'internal', message: 'odd' });
  });
});

describe('isCancel', () => {
  const idle = new AbortController().signal;
  it('a stop asked for is a cancel, not a failure', () => {
    expect(isCancel(new SkeinError('cancelled', 'Cancelled.'), idle)).toBe(true);
    expect(isCancel(Object.assign(new Error('aborted'), { name: 'AbortError' }), idle)).toBe(true);
    expect(isCancel(new SkeinError('offline', 'offline'), AbortSignal.abort())).toBe(true);
  });
  it('any other error is a failure', () => {
    expect(isCancel(new SkeinError('offline', 'offline'), idle)).toBe(false);
  });
});
