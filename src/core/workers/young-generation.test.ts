/**
 * The process's young generations held: main's stops growing at its size however long a job allocates, and a
 * worker starts at its size instead of growing to it. Each case is a process of its own, since V8's flags are the
 * process's.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('./testing/young-generation-child.ts', import.meta.url));
const MB = 1024 * 1024;

async function run(mode: 'held' | 'free'): Promise<{ largest: number; workerAtStart: number }> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', child, mode]);
  return JSON.parse(stdout) as { largest: number; workerAtStart: number };
}

describe('the young generation held', () => {
  it('keeps main’s from growing past its size over a long job, where V8 alone grows it several times over', async () => {
    const [free, held] = await Promise.all([run('free'), run('held')]);
    // the case the hold is for: without it this job's young generation grows well past 16 MB
    expect(free.largest).toBeGreaterThan(32 * MB);
    // V8 may have doubled it once between two checks
    expect(held.largest).toBeLessThanOrEqual(32 * MB);
  }, 60_000);

  it('starts a worker at its young generation’s size, so the process’s held growth does not starve it', async () => {
    const [free, held] = await Promise.all([run('free'), run('held')]);
    expect(held.workerAtStart).toBeGreaterThan(free.workerAtStart);
    expect(held.workerAtStart).toBeGreaterThanOrEqual(4 * MB);
  }, 60_000);
});
