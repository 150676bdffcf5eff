import { describe, expect, it } from 'vitest';
import { counterReading, settleCounters, type CounterRow } from './counters';

const T = Date.UTC(2026, 10, 22, 6);
const reading = (at: number, value: number, metric = 'likes') => ({ kind: 'post', id: 'A', metric, at, value });
const row = (at: number, value: number, lastAt: number, run: number | null = 1): CounterRow => ({
  ...reading(at, value),
  lastAt,
  run,
});

describe('counters: one row per value, first and last seen', () => {
  it('a first reading is a new value, first and last seen at once, by this run', () => {
    expect(counterReading(undefined, reading(T, 5), 2)).toEqual(row(T, 5, T, 2));
  });

  it('the same value again only stretches its last sighting (never back), keeping the run that first saw it', () => {
    expect(counterReading(row(T, 5, T + 10), reading(T + 20, 5), 2)).toEqual(row(T, 5, T + 20, 1));
    expect(counterReading(row(T, 5, T + 10), reading(T + 5, 5), 2)).toEqual(row(T, 5, T + 10, 1));
  });

  it('an older reading is kept out: before the newest value was last seen', () => {
    expect(counterReading(row(T, 5, T + 10), reading(T + 9, 4), 2)).toBeNull();
    expect(counterReading(row(T, 5, T + 10), reading(T - 1, 5), 2)).toBeNull();
  });

  it('a changed value from the newest one’s last sighting on is a new row', () => {
    expect(counterReading(row(T, 5, T + 10), reading(T + 10, 6), 2)).toEqual(row(T + 10, 6, T + 10, 2));
  });

  it('settles a run’s readings in order against the newest rows, each row written once as it ends', () => {
    const newest = [row(T - 100, 1, T - 50)];
    const out = settleCounters(
      newest,
      [
        reading(T, 1),
        reading(T + 10, 1),
        reading(T + 20, 3),
        reading(T + 15, 2), // older than the value held was last seen
        reading(T + 30, 3),
        reading(T, 10, 'views'),
      ],
      2,
    );
    expect(out).toEqual([
      row(T - 100, 1, T + 10, 1),
      row(T + 20, 3, T + 30, 2),
      { ...row(T, 10, T, 2), metric: 'views' },
    ]);
    expect(newest).toEqual([row(T - 100, 1, T - 50)]);
  });
});
