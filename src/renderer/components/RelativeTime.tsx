import { useSyncExternalStore } from 'react';
import { parseApiDate } from '../../shared/api/dates';
import { absoluteTime, relativeTime } from '../lib/time';

/** One shared clock for every relative time on screen, ticking every 30 s. */
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(cb: () => void): () => void {
  listeners.add(cb);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      listeners.forEach((l) => l());
    }, 30_000);
  }
  return () => {
    listeners.delete(cb);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

function useNow(): number {
  return useSyncExternalStore(
    subscribe,
    () => now,
    () => now,
  );
}

interface Props {
  value: string | number | null | undefined;
  /** show the absolute local time instead of "5m" */
  absolute?: boolean;
}

/** "5m", with the absolute local time on hover and for assistive tech. */
export function RelativeTime({ value, absolute = false }: Props) {
  const at = parseApiDate(value ?? null);
  const current = useNow();
  if (at === null) return <span className="muted">unknown time</span>;
  const full = absoluteTime(at);
  return (
    <time dateTime={new Date(at).toISOString()} title={full} aria-label={full}>
      {absolute ? full : relativeTime(at, current)}
    </time>
  );
}
