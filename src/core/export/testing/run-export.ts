/**
 * An export job as the tests run it: over pages held in memory, into a fresh folder, to the end — or capped at its
 * first page and then resumed, so that its file is written from the journal (as every resumed job's is).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ExportFormat, ExportJob, ExportOptions, ViewDescriptor } from '../../../shared/ipc/export';
import { FakeClock } from '../../testing/fake-clock';
import { ExportService, type ExportServiceDeps } from '../export-service';
import { memorySource, type MemoryPage } from './memory-source';

const context = () => ({ appName: 'Skein', appVersion: '1.0.0', mode: 'demo' as const, baseUrl: 'http://127.0.0.1:1' });

export interface ExportRun {
  view: ViewDescriptor;
  format: ExportFormat;
  options?: ExportOptions;
  /** capped at its first page, then resumed */
  resumed?: boolean;
  deps?: Partial<ExportServiceDeps>;
}

export async function runExport(
  pages: readonly MemoryPage[],
  run: ExportRun,
): Promise<{ dir: string; target: string; done: ExportJob; service: ExportService }> {
  const dir = await mkdtemp(join(tmpdir(), `skein-export-${run.format}-`));
  const service = new ExportService({
    source: memorySource(pages),
    stateDir: join(dir, 'state'),
    clock: new FakeClock(),
    context,
    confirm: async () => true,
    ...run.deps,
  });
  const target = join(dir, `out.${run.format}`);
  const input = { view: run.view, format: run.format, scope: 'all' as const, targetPath: target, options: run.options };
  const job = await service.start(run.resumed ? { ...input, caps: { maxPages: 1 } } : input);
  if (run.resumed) {
    expect((await service.settled(job.id)).status).toBe('partial');
    await service.resume(job.id, {});
  }
  return { dir, target, done: await service.settled(job.id), service };
}
