import { describe, expect, it } from 'vitest';
import { CallRegistry } from './calls';

describe('CallRegistry', () => {
  it('cancels a call by id, only for the window that started it', () => {
    const r = new CallRegistry();
    const a = r.start('x', 1);
    expect(r.cancel('x', 2)).toBe(false);
    expect(a.signal.aborted).toBe(false);
    expect(r.cancel('x', 1)).toBe(true);
    expect(a.signal.aborted).toBe(true);
  });

  it('cancels every call of a window and none of another', () => {
    const r = new CallRegistry();
    const a = r.start('a', 1);
    const b = r.start('b', 1);
    const c = r.start('a', 2);
    expect(r.cancelSender(1)).toBe(2);
    expect([a.signal.aborted, b.signal.aborted, c.signal.aborted]).toEqual([true, true, false]);
  });

  it('forgets finished calls', () => {
    const r = new CallRegistry();
    const a = r.start('a', 1);
    a.done();
    expect(r.size).toBe(0);
    expect(r.cancel('a', 1)).toBe(false);
  });

  it('follows a parent signal', () => {
    const r = new CallRegistry();
    const parent = new AbortController();
    const a = r.start('a', undefined, parent.signal);
    parent.abort(new Error('export stopped'));
    expect(a.signal.aborted).toBe(true);
  });
});
