/**
 * A runner on Linux starts itself again with fewer of glibc's arenas: the same process, its arguments as they were,
 * a value the person set kept, and nothing changed where it cannot.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withFewerArenas } from './arenas';

const dir = mkdtempSync(join(tmpdir(), 'skein-arenas-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the runner's memory arenas", () => {
  it.skipIf(process.platform !== 'linux' || !process.execve)(
    'starts again in the same process with fewer arenas, its arguments as they were, a set value kept',
    () => {
      const script = join(dir, 'arenas.ts');
      writeFileSync(
        script,
        `import { withFewerArenas } from ${JSON.stringify(join(import.meta.dirname, 'arenas.ts'))};
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
