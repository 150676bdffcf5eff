import { describe, expect, it } from 'vitest';
import { barLabel, barSpan } from './activity';

describe('activity bars', () => {
  it('label a bar by its start in the chosen zone', () => {
    expect(barLabel(Date.UTC(2026, 10, 22, 23), 'hour', 0)).toBe('2026-11-22 23:00');
    expect(barLabel(Date.UTC(2026, 10, 22, 23), 'hour', 60)).toBe('2026-11-23 00:00');
    expect(barLabel(Date.UTC(2026, 10, 23), 'week', 0)).toBe('Week of 2026-11-23');
  });
  it('cover their bucket exactly', () => {
    expect(barSpan(0, 'day')).toEqual({ from: 0, to: 86_400_000 });
  });
});
