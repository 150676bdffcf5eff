/** Audio spaces: the running one changes with the sandbox clock, deterministically. */
import { describe, expect, it } from 'vitest';
import type { SpaceData } from '../shared/api';
import { qs, useSandbox, type Client } from './test-utils';
import { POLL_INTERVAL_SEC } from './world/spaces';

const sandbox = useSandbox();

type Meta = SpaceData['data']['audio_space_by_rest_id']['metadata'];

async function space(c: Client, id: string): Promise<Meta> {
  const a = await c.get<{ data: SpaceData }>(`/social/spaces/detail${qs({ space_id: id })}`);
  expect(a.status).toBe(200);
  return a.json.data.data.audio_space_by_rest_id.metadata;
}

const who = (m: Meta): string[] => [...m.participants.speakers, ...m.participants.listeners].map((p) => p.user_id);

describe('spaces', () => {
  it('the running space: people join and leave as the clock moves; the same clock gives the same room', async () => {
    const c = sandbox();
    const id = c.sandbox.examples.runningSpaceId;
    await c.control('POST', '/__sandbox/clock', { reset: true });
    const first = await space(c, id);
    expect(first.state).toBe('Running');
    expect(first.participants.poll_interval_sec).toBe(POLL_INTERVAL_SEC);
    expect(first.participants.listeners.length).toBeGreaterThan(10);
    expect(first.participants.total).toBe(
      first.participants.admins.length + first.participants.speakers.length + first.participants.listeners.length,
    );
    expect(first.total_live_listeners).toBe(first.participants.listeners.length);
    expect(await space(c, id)).toEqual(first);

    const seen: string[][] = [who(first)];
    for (let k = 0; k < 6; k++) {
      await c.control('POST', '/__sandbox/clock', { advanceMs: POLL_INTERVAL_SEC * 1000 * 2 });
      seen.push(who(await space(c, id)));
    }
    const joined = seen.slice(1).some((now, k) => now.some((u) => !seen[k]?.includes(u)));
    const left = seen.slice(1).some((now, k) => seen[k]?.some((u) => !now.includes(u)));
    expect(joined && left).toBe(true);

    await c.control('POST', '/__sandbox/clock', { reset: true });
    expect(await space(c, id)).toEqual(first);
  });

  it('the ended space has no live participants and offers a replay', async () => {
    const c = sandbox();
    const m = await space(c, c.sandbox.examples.endedSpaceId);
    expect(m.state).toBe('Ended');
    expect(m.participants.listeners).toEqual([]);
    expect(m.participants.speakers).toEqual([]);
    expect(m.total_live_listeners).toBe(0);
    expect(m.is_space_available_for_replay).toBe(true);
  });

  it('the clock control sets, advances and resets', async () => {
    const c = sandbox();
    const set = await c.control<{ now: number }>('POST', '/__sandbox/clock', { set: Date.UTC(2030, 0, 1) });
    expect(set.json.now).toBeGreaterThanOrEqual(Date.UTC(2030, 0, 1));
    const adv = await c.control<{ now: number }>('POST', '/__sandbox/clock', { advanceMs: 1000 });
    expect(adv.json.now - set.json.now).toBeGreaterThanOrEqual(1000);
    const reset = await c.control<{ offsetMs: number }>('POST', '/__sandbox/clock', { reset: true });
    expect(reset.json.offsetMs).toBe(0);
    expect((await c.control('POST', '/__sandbox/clock', { advanceMs: 'soon' })).status).toBe(400);
  });
});
