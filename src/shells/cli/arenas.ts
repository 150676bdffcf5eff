/**
 * The C library's memory arenas, fewer for a runner on Linux (glibc reads `MALLOC_ARENA_MAX` only as a process
 * starts, so the runner starts itself again with it). The job's thread (job-thread.ts) bounds V8's heap; this bounds
 * what glibc keeps beside it.
 */
/** the C library's arenas a runner keeps on Linux: one per thread otherwise, each holding memory it freed */
const ARENAS = '2';

interface Process {
  platform: string;
  env: Record<string, string | undefined>;
  execPath: string;
  execArgv: readonly string[];
  argv: readonly string[];
  execve?: (file: string, args?: readonly string[], env?: Record<string, string | undefined>) => never;
}

/**
 * On Linux, starts this runner again in the same process (its id, its standard streams) with `MALLOC_ARENA_MAX=2`
 * in its environment, which glibc reads only as a process starts. Without it each of the runner's threads (the
 * job's, the project's, V8's) gets an arena of its own that keeps what it freed: a hydration of a million ids
 * peaked at 308–323 MB, with it at 282–287 MB, at the same speed. A value the environment sets is kept (no new
 * start); elsewhere, or where `process.execve` is missing or fails, this returns and the runner goes on as it is.
 * Called before anything is written or opened: nothing of this start survives the new one.
 */
export function withFewerArenas(proc: Process = process): void {
  if (proc.platform !== 'linux' || proc.env.MALLOC_ARENA_MAX !== undefined || !proc.execve) return;
  try {
    proc.execve(proc.execPath, [proc.execPath, ...proc.execArgv, ...proc.argv.slice(1)], {
      ...proc.env,
      MALLOC_ARENA_MAX: ARENAS,
    });
  } catch {
    // execve(2) refused (a binary gone since, a limit): the process is as it was, and runs with glibc's arenas
  }
}
