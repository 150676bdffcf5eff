/**
 * A share package made in the files worker: the same bytes as on this thread, and main's event loop keeps
 * turning while a big one is made (a million ids: about a second of work on one thread).
 */
import { describe, expect, it } from 'vitest';
import { packInWorker, packOnThisThread } from './packager';
import type { RehydrationInput } from './share';
import { aCitation } from '../testing/citation';

const entry = new URL('../../compose/files-worker.ts', import.meta.url);
const execArgv = ['--import', 'tsx'];

function ids(n: number): RehydrationInput {
  return {
    app: { name: 'Skein', version: '0' },
    now: Date.UTC(2026, 11, 1),
    citation: aCitation,
    source: { of: 'collection', collection: { name: 'Everything', kind: 'search', createdAt: 0 } },
    postIds: Array.from({ length: n }, (_, i) => String(1_850_000_000_000_000_000n + BigInt(i) * 7919n)),
    userIds: [],
    droppedOptedOut: 0,
    droppedDamaged: 0,
  };
}

/** the longest this thread went without a turn of its event loop while `work` ran */
async function longestBlock(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(tick);
  }
  // work that never yielded is one block, from the last turn to its end
  return Math.max(longest, performance.now() - last);
}

describe('a share package made in a worker of its own', () => {
  it('is the same package as one made on this thread', { timeout: 60_000 }, async () => {
    const input = ids(1_000);
    const here = await packOnThisThread.rehydration(input);
    const there = await packInWorker(entry, execArgv).rehydration(input);
    expect(Buffer.from(there.zip).equals(Buffer.from(here.zip))).toBe(true);
    expect(there.files).toEqual(here.files);
  });

  it('leaves this thread free while a million ids are zipped', { timeout: 120_000 }, async () => {
    const input = ids(1_000_000);
    const worker = packInWorker(entry, execArgv);
    // started once first: the worker's own start (loading its modules) is not what is measured
    await worker.rehydration(ids(1));
    const apart = await longestBlock(() => worker.rehydration(input));
    const here = await longestBlock(() => packOnThisThread.rehydration(input));
    console.log(`longest block: ${Math.round(apart)} ms in its worker, ${Math.round(here)} ms on this thread`);
    expect(apart).toBeLessThan(here / 2);
  });
});
