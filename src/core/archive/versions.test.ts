import { describe, expect, it } from 'vitest';
import { sighting } from './versions';

const held = { raw: '{"likes":1}', lastSeen: 200, versionSince: 100 };

describe('what an answer does to an item the project holds', () => {
  it('seen again unchanged: only when it was last seen moves, never back', () => {
    expect(sighting(held, held.raw, 300)).toEqual({ fate: 'same', lastSeen: 300 });
    expect(sighting(held, held.raw, 150)).toEqual({ fate: 'same', lastSeen: 200 });
  });

  it('changed: the new JSON is current from now, the held one an earlier version over the time it was current', () => {
    expect(sighting(held, '{"likes":2}', 300)).toEqual({
      fate: 'changed',
      earlier: { raw: held.raw, seenFrom: 100, seenTo: 200 },
      current: { raw: '{"likes":2}', lastSeen: 300, versionSince: 300 },
    });
  });

  it('a late answer older than what is held is kept as an earlier version, and the current one stays', () => {
    expect(sighting(held, '{"likes":0}', 150)).toEqual({
      fate: 'older',
      earlier: { raw: '{"likes":0}', seenFrom: 150, seenTo: 150 },
    });
  });
});
