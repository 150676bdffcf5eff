/**
 * Bridge handlers of the `export` namespace, and the small feature object the
 * core composes: the export service, its progress reporting (push event,
 * taskbar, notification), the save dialog, the formats it offers (the format
 * registry), and the Archive view's export (from-archive.ts). The renderer never
 * passes a path: `start` asks main's `chooseSavePath`, and returns no job when
 * the user closes the dialog.
 */
import { extname } from 'node:path';
import type { ItemKind } from '../../shared/api/catalog';
import type { HandlersOf } from '../../shared/ipc/define';
import type { ExportJob, exportContract } from '../../shared/ipc/export';
import { formatRegistry, saveFilter } from '../formats';
import type { ChooseSavePath, ExportPlatform } from '../ports';
import type { ArchiveHandle, ArchiveSource } from './archive-source';
import type { ItemPolicy } from './item-policy';
import { ExportService, type ExportServiceDeps } from './export-service';
import { archiveExport, type QueryExport } from './from-archive';
import { createExportReporter } from './reporter';
import { suggestedFileName } from './views';

export type ExportHandlers = HandlersOf<typeof exportContract>;

/** The service's own deps (its updates and the project's policy are wired here), and what the feature adds. */
export interface ExportFeatureDeps extends Omit<ExportServiceDeps, 'onUpdate' | 'policy'> {
  chooseSavePath: ChooseSavePath;
  /** pushes a job update to the renderer (`export` event) */
  emit?: (job: ExportJob) => void;
  /** taskbar progress and notifications (absent in tests and the e2e host) */
  platform?: ExportPlatform;
  /** the research archive: the source of the Archive view's export */
  archive: () => Promise<ArchiveSource>;
  /** what a project asks of an export of its items: codes as columns, opted-out accounts left out */
  policy?: (handle: ArchiveHandle, itemKind: ItemKind) => Promise<ItemPolicy | null>;
  /** the project live exports belong to (the mode's) */
  projectHandle?: () => Promise<ArchiveHandle>;
}

export interface ExportFeature {
  handlers: ExportHandlers;
  service: ExportService;
  /** the Archive view's export: a query's items to a file main asks for (null: the dialog was closed) */
  fromArchive: (request: QueryExport) => Promise<{ file: string; items: number; damaged: number } | null>;
  dispose: () => Promise<void>;
}

export function createExportFeature(deps: ExportFeatureDeps): ExportFeature {
  const report = deps.platform ? createExportReporter(deps.platform) : undefined;
  const formats = deps.formats ?? formatRegistry();
  const { policy, projectHandle } = deps;
  const service = new ExportService({
    ...deps,
    formats,
    // the service asks for the policy of the project live exports belong to
    policy: policy && projectHandle ? async (itemKind) => policy(await projectHandle(), itemKind) : undefined,
    onUpdate: (job) => {
      report?.(job);
      deps.emit?.(job);
    },
  });

  const handlers: ExportHandlers = {
    export: {
      estimate: ({ view, scope }) => service.estimate(view, scope),
      start: async ({ view, format: id, scope, caps, options, csvCells, keepMedia }) => {
        // refuse a format or params main cannot export before asking for a file
        const format = formats.get(id);
        await service.plan(view);
        const chosen = await deps.chooseSavePath({
          title: 'Export view',
          defaultPath: suggestedFileName(view, format.extension, deps.clock.now()),
          filters: [saveFilter(format)],
        });
        if (chosen === null) return { job: null };
        const targetPath = extname(chosen) ? chosen : `${chosen}.${format.extension}`;
        return {
          job: await service.start({ view, format: id, scope, caps, options, csvCells, keepMedia, targetPath }),
        };
      },
      status: ({ jobId }) => service.status(jobId),
      list: () => service.list(),
      unread: () => service.unread(),
      cancel: ({ jobId }) => service.cancel(jobId),
      resume: ({ jobId, caps }) => service.resume(jobId, caps),
      record: ({ jobId }) => service.record(jobId),
      discard: async ({ jobId }) => ({ discarded: await service.discard(jobId) }),
      formats: () => formats.offers(),
    },
  };

  const fromArchive = archiveExport({
    formats,
    archive: deps.archive,
    chooseSavePath: deps.chooseSavePath,
    context: deps.context,
    now: deps.clock.now,
    ...(deps.policy ? { policy: deps.policy } : {}),
  });
  return { handlers, service, fromArchive, dispose: () => service.dispose() };
}
