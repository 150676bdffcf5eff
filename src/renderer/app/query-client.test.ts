import { notifyManager, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SkeinError } from '../../shared/errors';
import { createQueryClient } from './query-client';
import { usageKeys } from '../lib/usage/meter';

describe('the query client', () => {
  const cleanups: Array<() => void> = [];
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    cleanups.splice(0).forEach((f) => f());
    vi.useRealTimers();
  });

  /** a client with the usage meter on screen, counting how often it is asked */
  async function withMeter() {
    const client = createQueryClient({ usageRefreshMs: 40 });
    const meter = { asked: 0 };
    const observer = new QueryObserver(client, {
      queryKey: usageKeys.snapshot(),
      queryFn: async () => ++meter.asked,
      staleTime: 0,
    });
    cleanups.push(
      observer.subscribe(() => {}),
      () => client.clear(),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(meter.asked).toBe(1);
    return { client, meter };
  }

  it('refreshes the usage meter once after a burst of API answers, not once per answer', async () => {
    const { client, meter } = await withMeter();
    await Promise.all(
      [1, 2, 3, 4].map((i) => client.fetchQuery({ queryKey: ['post', 'thread', String(i)], queryFn: async () => i })),
    );
    expect(meter.asked).toBe(1); // not between the answers and what shows them
    await vi.advanceTimersByTimeAsync(39);
    expect(meter.asked).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(meter.asked).toBe(2);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(meter.asked).toBe(2);
  });

  it('refreshes it after a failed call too (a failure can be billed), but not after a cancelled one or app queries', async () => {
    const { client, meter } = await withMeter();
    await client.fetchQuery({ queryKey: ['settings', 'all'], queryFn: async () => 1 });
    await client
      .fetchQuery({
        queryKey: ['post', 'byIds', 'x'],
        queryFn: async () => Promise.reject(new SkeinError('cancelled', 'Cancelled.')),
      })
      .catch(() => {});
    await vi.advanceTimersByTimeAsync(10_000);
    expect(meter.asked).toBe(1);
    await client
      .fetchQuery({
        queryKey: ['post', 'byIds', 'y'],
        queryFn: async () => Promise.reject(new SkeinError('upstream', 'Down.')),
      })
      .catch(() => {});
    await vi.advanceTimersByTimeAsync(40);
    expect(meter.asked).toBe(2);
  });

  it('hands an answer to its observers within the task that received it (no timer in between)', async () => {
    const client = createQueryClient();
    cleanups.push(() => client.clear());
    const seen: unknown[] = [];
    let n = 0;
    const observer = new QueryObserver(client, { queryKey: ['post', 'one'], queryFn: async () => ++n });
    // as useQuery subscribes React: through notifyManager.batchCalls
    cleanups.push(observer.subscribe(notifyManager.batchCalls((r) => seen.push(r.data))));
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toContain(1);
    await client.refetchQueries({ queryKey: ['post', 'one'] });
    await Promise.resolve();
    // no timer has run since (the clock is fake and did not move): the new answer is seen already
    expect(seen.at(-1)).toBe(2);
  });
});
