/** A ticking clock for words that change with time while nothing else re-renders them (a countdown, a time left). */
import { useEffect, useState } from 'react';

/** `Date.now()`, re-read every `ms` while `enabled`. */
export function useTicker(ms: number, enabled: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!enabled) return;
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms, enabled]);
  return now;
}
