/**
 * Turns job updates into what the desktop shows outside the window: the
 * taskbar/dock progress bar while exports run, and a notification when a
 * long export ends (a short one is visible in the window anyway).
 */
import type { ExportJob } from '../../shared/ipc/export';
import type { ExportPlatform } from '../ports';

/** Exports that ran at least this long end with a notification. */
export const LONG_EXPORT_MS = 10_000;

const ACTIVE = new Set<ExportJob['status']>(['collecting', 'writing']);

function fileName(path: string | undefined): string {
  return path ? (path.split(/[\\/]/).pop() ?? path) : 'the export';
}

function finishedMessage(job: ExportJob): { title: string; body: string } {
  const items = `${job.progress.items.toLocaleString('en-US')} item${job.progress.items === 1 ? '' : 's'}`;
  const file = fileName(job.files[0]);
  switch (job.status) {
    case 'complete':
      return { title: 'Export complete', body: `${items} written to ${file}.` };
    case 'partial':
      return {
        title: 'Export saved (partial)',
        body: `${items} written to ${file}${job.resumable ? '; you can resume it' : ''}.`,
      };
    case 'failed':
      return { title: 'Export failed', body: job.error?.message ?? `${file} could not be written.` };
    default:
      return { title: 'Export stopped', body: `${file} was not changed.` };
  }
}

export function createExportReporter(platform: ExportPlatform, longMs = LONG_EXPORT_MS): (job: ExportJob) => void {
  const active = new Map<string, ExportJob>();
  return (job) => {
    const wasActive = active.has(job.id);
    if (ACTIVE.has(job.status)) active.set(job.id, job);
    else active.delete(job.id);

    if (active.size === 0) platform.setProgress(null);
    else if (active.size === 1) platform.setProgress([...active.values()][0]?.progress.fraction ?? 'indeterminate');
    else platform.setProgress('indeterminate');

    const ran = (job.finishedAt ?? 0) - job.startedAt;
    if (wasActive && !ACTIVE.has(job.status) && job.status !== 'cancelled' && ran >= longMs) {
      const { title, body } = finishedMessage(job);
      platform.notify(title, body);
    }
  };
}
