/**
 * What the demo world will do, asked ahead: the world is deterministic from its seed and its clock, so a second
 * sandbox on the same ones, its clock moved ahead, tells through its control plane (`/__sandbox/changes`). The
 * watches' tests pick accounts that will delete a post while they are watched, so a re-check is tested whatever
 * the world happens to draw.
 */
import { startSandbox } from '../server';

/** Accounts that delete a post within `withinMs` from now, in the order of their first deletion. */
export async function accountsThatWillDelete(
  world: { now: () => number; seed: number; activity: number },
  withinMs: number,
): Promise<string[]> {
  let ahead = 0;
  const probe = await startSandbox({
    port: 0,
    now: () => world.now() + ahead,
    seed: world.seed,
    activity: world.activity,
  });
  try {
    ahead = withinMs;
    const res = await fetch(`${probe.baseUrl}/__sandbox/changes`);
    const { deletions } = (await res.json()) as { deletions: Array<{ userId: string; at: number }> };
    return [...new Set(deletions.map((d) => d.userId))];
  } finally {
    await probe.close();
  }
}
