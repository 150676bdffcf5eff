/**
 * The archive the archive and re-export benches measure: a project file in a fresh folder, or the one named
 * by `BENCH_ARCHIVE_DB` (built by an earlier run: nothing is ingested again), opened in the archive's worker.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startArchiveThread } from '../../src/core/archive/thread';

/** `extra`: more options of the archive thread (the re-export bench's worker entry). */
export async function openBenchArchive(prefix: string, extra: { reexportEntry?: URL } = {}) {
  const existing = process.env.BENCH_ARCHIVE_DB;
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const path = existing ?? join(dir, 'bench.skein');
  const thread = await startArchiveThread({
    entry: new URL('../../src/core/archive/worker.ts', import.meta.url),
    execArgv: ['--import', 'tsx'],
    ...extra,
  });
  if (!thread.inWorker) throw new Error('the archive worker did not start');
  await thread.call('open', 'current', { path, name: 'Bench', kind: 'live' });
  return { existing, dir, path, thread };
}
