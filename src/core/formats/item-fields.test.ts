import { describe, expect, it } from 'vitest';
import { parseApiDate } from '../../shared/api/dates';
import { isoFromCreatedAt } from './item-fields';

/** What the column held before the fast path: the shared reader and a Date. */
function slow(value: string): string | null {
  const t = parseApiDate(value);
  return t === null ? null : new Date(t).toISOString();
}

describe('isoFromCreatedAt', () => {
  it('reads the API format as UTC, offsets included', () => {
    expect(isoFromCreatedAt('Sun Nov 22 02:13:21 +0000 2026')).toBe('2026-11-22T02:13:21.000Z');
    expect(isoFromCreatedAt('Mon Jan 05 23:59:59 -0130 2026')).toBe('2026-01-06T01:29:59.000Z');
    expect(isoFromCreatedAt(12)).toBeNull();
    expect(isoFromCreatedAt('Sun Nov 22 99:99:99 +0000 2026')).toBeNull();
  });

  it('gives exactly what a Date gives for every shape of date, hostile ones too', () => {
    const days = ['00', '01', '09', '10', '28', '29', '30', '31', '32', '1 ', ' 1', 'ab'];
    const months = ['Jan', 'Feb', 'Apr', 'Dec', 'Foo', 'jan'];
    const times = ['00:00:00', '23:59:59', '24:00:00', '12:60:00', '12:00:60', '1a:00:00'];
    const zones = ['+0000', '-0000', '+0100', '+0060'];
    const years = ['2026', '2024', '1969', '0050', '0999', '1000', '9999', '20x6'];
    const weekdays = ['Sun', 'Thu', 'Xyz'];
    let checked = 0;
    for (const w of weekdays)
      for (const m of months)
        for (const d of days)
          for (const t of times)
            for (const z of zones)
              for (const y of years) {
                const v = `${w} ${m} ${d} ${t} ${z} ${y}`;
                expect(isoFromCreatedAt(v), v).toBe(slow(v));
                checked++;
              }
    for (const v of [
      ' Sun Nov 22 02:13:21 +0000 2026',
      'Sun Nov 22 02:13:21 +0000 2026 ',
      'Sun Nov  2 02:13:21 +0000 2026',
    ])
      expect(isoFromCreatedAt(v), v).toBe(slow(v));
    expect(checked).toBeGreaterThan(40_000);
  });
});
