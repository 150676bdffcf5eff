/**
 * The thread `skein run`'s job runs in: its exit code reaches the process, a stop reaches the job, and a job that
 * outgrows the memory it was given ends with words that say how to go on, never silently. The jobs here are small
 * stand-ins (plain modules), so that what is tested is the thread around a job; `jobs.test.ts` runs real ones.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRunnerArgs, readInPieces } from './skein';
import { runJobInThread } from './job-thread';

const dir = mkdtempSync(join(tmpdir(), 'skein-job-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** a stand-in job: a module the thread runs */
function job(name: string, source: string): URL {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, `import { parentPort, workerData } from 'node:worker_threads';\n${source}`);
  return pathToFileURL(file);
}

describe("skein run's job thread", () => {
  it('exits with the code the job reports, given the options it was started with', async () => {
    const entry = job('echo', 'parentPort.postMessage({ code: workerData.skeinJob.memoryMb === 96 ? 4 : 9 });');
    const said: string[] = [];
    expect(await runJobInThread(entry, { memoryMb: 96 }, new AbortController().signal, (l) => said.push(l))).toBe(4);
    expect(said).toEqual([]);
  });

  it('passes a stop on to the job, which ends as it chooses', async () => {
    const entry = job(
      'stoppable',
      "parentPort.postMessage({ started: true }); parentPort.once('message', () => parentPort.postMessage({ code: 1 }));",
    );
    const stop = new AbortController();
    const ended = runJobInThread(entry, { memoryMb: 96 }, stop.signal, () => undefined);
    // stopped at once: the message waits in the port until the job listens
    stop.abort();
    expect(await ended).toBe(1);
  });

  it('a job that outgrows its memory ends with exit 1 and says how to give it more', { timeout: 60_000 }, async () => {
    const entry = job('greedy', 'const kept = []; for (;;) kept.push(new Array(100_000).fill({ a: Math.random() }));');
    const said: string[] = [];
    expect(await runJobInThread(entry, { memoryMb: 64 }, new AbortController().signal, (l) => said.push(l))).toBe(1);
    expect(said).toEqual([
      'Stopped: the job needed more memory than it may use (64 MB). Run the same command again with --memory 128: it goes on where it stopped, and no page is paid for twice.',
    ]);
  });

  it('a job that fails outside its own words is said, with how to go on', async () => {
    const entry = job('broken', "throw new Error('the disk went away.');");
    const said: string[] = [];
    expect(await runJobInThread(entry, { memoryMb: 96 }, new AbortController().signal, (l) => said.push(l))).toBe(1);
    expect(said).toEqual([
      'Stopped: the disk went away. Run the same command again to go on where it stopped (no page is paid for twice).',
    ]);
  });

  it('reads a job file a piece at a time, a character split between two pieces intact', () => {
    const file = join(dir, 'job.json');
    // “ and ” are three bytes each: the first straddles the 64 KB a piece holds
    const text = `${'a'.repeat(64 * 1024 - 1)}“Replies to @例え”${'b'.repeat(70_000)}é`;
    writeFileSync(file, text);
    expect(readInPieces(file)).toBe(text);
    writeFileSync(file, '');
    expect(readInPieces(file)).toBe('');
  });

  it('reads --memory for a job, and refuses what cannot hold one', () => {
    const base = ['run', 'job.json', '--project', 'p.skein', '--demo'];
    expect(parseRunnerArgs(base, {})).toMatchObject({ memoryMb: 256 });
    expect(parseRunnerArgs([...base, '--memory', '1024'], {})).toMatchObject({ memoryMb: 1024 });
    for (const bad of ['32', '100.5', 'lots'])
      expect(parseRunnerArgs([...base, '--memory', bad], {})).toEqual({
        error: expect.stringContaining('--memory must be a whole number of MB from 64'),
      });
    expect(parseRunnerArgs(['watch', '--project', 'p.skein', '--demo', '--memory', '512'], {})).toEqual({
      error: '--memory is for skein run (a job)',
    });
  });
});
