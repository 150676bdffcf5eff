/**
 * Hydration against the sandbox: with `anyIds`, batch lookups answer any numeric id deterministically — a
 * stable share not found, the rest a post or user carrying the asked id — without keeping anything per id.
 */
import { describe, expect, it } from 'vitest';
import { responseSchema } from '../shared/api';
import { buildSandbox } from './server';
import { World } from './world';
import { resolveSize } from './world/size';

const NOW = Date.UTC(2026, 10, 23, 12);
const foreign = (n: number) => String(1_800_000_000_000_000_000n + BigInt(n) * 7_919n);

describe('any ids', () => {
  it('answers any id the same way every time, with a stable share not found', () => {
    const make = () => new World({ seed: 3, size: resolveSize('small'), now: NOW, anyIds: { notFoundPercent: 10 } });
    const a = make();
    const b = make();
    const ids = Array.from({ length: 20_000 }, (_, n) => foreign(n));
    const first = ids.map((id) => a.lookupPost(id));
    const missing = first.filter((p) => p === null).length;
    expect(missing / ids.length).toBeGreaterThan(0.09);
    expect(missing / ids.length).toBeLessThan(0.11);
    // the same world seed answers byte for byte alike, in any order
    for (const k of [0, 1, 2, 17, 19_999])
      expect(JSON.stringify(b.lookupPost(ids[k] as string))).toBe(JSON.stringify(first[k]));
    const found = first.find((p) => p !== null);
    expect(found?.id).toBe(ids[first.indexOf(found ?? null)]);
    expect(found?.url.endsWith(found.id)).toBe(true);
    const user = a.lookupUser(foreign(5)) ?? a.lookupUser(foreign(6));
    expect(user?.userName.length).toBeLessThanOrEqual(15);
    // a non-id is never answered; the world's own ids still answer as themselves
    expect(a.lookupPost('abc')).toBeNull();
    expect(a.lookupPost(a.examples.bigThreadPostId)?.id).toBe(a.examples.bigThreadPostId);
  });

  it('without anyIds, ids the world never generated are left out (as before)', () => {
    const w = new World({ seed: 3, size: resolveSize('small'), now: NOW });
    expect(w.lookupPost(foreign(1))).toBeNull();
    expect(w.lookupUser(foreign(1))).toBeNull();
  });

  it('posts by ids and users by ids answer through HTTP with valid answers, charged per item returned', async () => {
    const { app, state, shutdown } = buildSandbox({
      size: 'small',
      seed: 3,
      now: () => NOW,
      anyIds: { notFoundPercent: 50 },
    });
    try {
      const ids = Array.from({ length: 100 }, (_, n) => foreign(n));
      const res = await app.inject({ method: 'GET', url: `/social/tweets?tweet_ids=${ids.join(',')}` });
      expect(res.statusCode).toBe(200);
      const body = responseSchema('postsByIds').parse(res.json());
      const returned = (body as { tweets: Array<{ id: string }> }).tweets.map((t) => t.id);
      expect(returned.length).toBeGreaterThan(30);
      expect(returned.length).toBeLessThan(70);
      expect(returned.every((id) => ids.includes(id))).toBe(true);
      expect(state.ledger.snapshot().totals.items).toBe(returned.length);
      const users = await app.inject({
        method: 'GET',
        url: `/social/user/batch_info_by_ids?userIds=${ids.slice(0, 10).join(',')}`,
      });
      expect(users.statusCode).toBe(200);
    } finally {
      shutdown();
      await app.close();
    }
  });
});
