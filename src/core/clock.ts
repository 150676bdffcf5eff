/** The system's clock (the `Clock` port, `ports.ts`), and `sleep` for clocks whose waits are ordinary timers. */
import type { Clock } from './ports';

/** `sleep` built on `setTimer`, for clocks whose waits are ordinary timers. */
export function sleepOnTimer(clock: Pick<Clock, 'setTimer'>, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason as Error);
  if (ms <= 0) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      cancel();
      reject(signal?.reason as Error);
    };
    const cancel = clock.setTimer(ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(ms, fn) {
    const t = setTimeout(fn, Math.max(0, ms));
    return () => clearTimeout(t);
  },
  sleep(ms, signal) {
    return sleepOnTimer(systemClock, ms, signal);
  },
};
