/**
 * The thread `skein run`'s job runs in: its exit code reaches the process, a stop reaches the job, and a job that
 * outgrows the memory it was given ends with words that say how to go on, never silently. The jobs here are small
 * stand-ins (plain modules), so that what is tested is the thread around a job; `jobs.test.ts` runs real ones.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRunnerArgs, readInPieces } from './skein';
import { runJobInThread, withFewerArenas } from './job-thread';

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

  it.skipIf(process.platform !== 'linux' || !process.execve)(
    'starts again in the same process with fewer arenas, its arguments as they were, a set value kept',
    () => {
      const script = join(dir, 'arenas.ts');
      writeFileSync(
        script,
        `import { withFewerArenas } from ${JSON.stringify(join(import.meta.dirname, 'job-thread.ts'))};
withFewerArenas();
console.log(JSON.stringify({ pid: process.pid, arenas: process.env.MALLOC_ARENA_MAX ?? null, args: process.argv.slice(2) }));`,
      );
      const run = (env: NodeJS.ProcessEnv) => {
        // the shell prints its own id, then becomes node (exec): the id node must still have after its new start
        const out = execFileSync(
          'sh',
          ['-c', 'echo $$; exec "$@"', 'sh', process.execPath, '--import', 'tsx', script, 'a', 'b c'],
          { env, encoding: 'utf8' },
        );
        const [pid, line, ...rest] = out.trim().split('\n');
        expect(rest).toEqual([]);
        return { shell: Number(pid), ...(JSON.parse(line!) as { pid: number; arenas: string | null; args: string[] }) };
      };
      const { MALLOC_ARENA_MAX: _, ...env } = process.env;
      const started = run(env);
      expect(started).toEqual({ shell: started.pid, pid: started.pid, arenas: '2', args: ['a', 'b c'] });
      expect(run({ ...env, MALLOC_ARENA_MAX: '8' })).toMatchObject({ arenas: '8', args: ['a', 'b c'] });
    },
  );

  it('starts again only on Linux, only once, and runs on as it is where it cannot', () => {
    const calls: unknown[][] = [];
    const proc = (over: object) => ({
      platform: 'linux',
      env: { HOME: '/home/r' } as Record<string, string | undefined>,
      execPath: '/usr/bin/node',
      execArgv: ['--import', 'tsx'],
      argv: ['/usr/bin/node', '/opt/skein.js', 'run', 'job.json'],
      execve: (...args: unknown[]): never => {
        calls.push(args);
        throw Object.assign(new Error('execve failed'), { code: 'E2BIG' });
      },
      ...over,
    });
    expect(() => withFewerArenas(proc({}))).not.toThrow();
    expect(calls).toEqual([
      [
        '/usr/bin/node',
        ['/usr/bin/node', '--import', 'tsx', '/opt/skein.js', 'run', 'job.json'],
        { HOME: '/home/r', MALLOC_ARENA_MAX: '2' },
      ],
    ]);
    withFewerArenas(proc({ platform: 'darwin' }));
    withFewerArenas(proc({ env: { MALLOC_ARENA_MAX: '2' } }));
    withFewerArenas(proc({ execve: undefined }));
    expect(calls).toHaveLength(1);
  });
});
