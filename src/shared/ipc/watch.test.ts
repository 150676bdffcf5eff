import { describe, expect, it } from 'vitest';
import { WatchSpec } from './watch';

const base = {
  name: 'Ten accounts',
  kind: 'accounts',
  targets: ['12', '34'],
  strategy: 'full',
  schedule: { everyMinutes: 60 },
  caps: { perRun: 100, perDay: 1_000, total: 10_000 },
} as const;

describe('a watch’s spec at the bridge', () => {
  it('reads a watch stored before handles were kept (plain ids) as one with none', () => {
    expect(WatchSpec.parse(base).handles).toEqual({});
  });

  it('keeps each account id’s handle beside it, and refuses what is no id or no handle', () => {
    expect(WatchSpec.parse({ ...base, handles: { '34': 'Somebody' } }).handles).toEqual({ '34': 'Somebody' });
    expect(WatchSpec.safeParse({ ...base, handles: { abc: 'Somebody' } }).success).toBe(false);
    expect(WatchSpec.safeParse({ ...base, handles: { '34': '<img src=x>' } }).success).toBe(false);
    const many = Object.fromEntries(Array.from({ length: 1_001 }, (_, i) => [String(i + 1), 'h']));
    expect(WatchSpec.safeParse({ ...base, handles: many }).success).toBe(false);
  });
});
