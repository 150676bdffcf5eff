/**
 * Bridge handlers of the `export` namespace, and the small feature object the
 * core composes: the export service, its progress reporting (push event,
 * taskbar, notification) and the save dialog. The renderer never passes a
 * path: `start` asks main's `chooseSavePath`, and returns no job when the user
 * closes the dialog.
 */
import { extname } from 'node:path';
import type { PriceTable } from '../../shared/api/pricing';
import type { HandlersOf } from '../../shared/ipc/define';
import type { ExportFormat, ExportJob, exportContract } from '../../shared/ipc/export';
import type { ChooseSavePath, Clock, Confirm, ExportPlatform } from '../ports';
import { ExportService, type ExportServiceDeps } from './export-service';
import type { ExportContext } from './manifest';
import type { PageSource } from './page-source';
import { createExportReporter } from './reporter';
import { suggestedFileName } from './views';

export type ExportHandlers = HandlersOf<typeof exportContract>;

export interface ExportFeatureDeps {
  /** `<userData>/exports`: unfinished jobs live here */
  stateDir: string;
  source: PageSource;
  clock: Clock;
  context: () => ExportContext | Promise<ExportContext>;
  prices?: () => PriceTable;
  chooseSavePath: ChooseSavePath;
  /** asks the user in main: a resume with looser caps than the job's, or none */
  confirm?: Confirm;
  /** pushes a job update to the renderer (`export` event) */
  emit?: (job: ExportJob) => void;
  /** taskbar progress and notifications (absent in tests and the e2e host) */
  platform?: ExportPlatform;
  onInternalError?: (error: unknown) => void;
  /** hydrations: the ids of an id import, and where the ids it did not get are kept */
  importedIds?: ExportServiceDeps['importedIds'];
  onMissing?: ExportServiceDeps['onMissing'];
  /** the current project: a hydration takes the ids it holds from it, free */
  project?: ExportServiceDeps['project'];
  /** a file was written: the research project keeps its items as a collection */
  onWritten?: ExportServiceDeps['onWritten'];
}

export interface ExportFeature {
  handlers: ExportHandlers;
  service: ExportService;
  dispose: () => Promise<void>;
}

const FILTERS: Record<ExportFormat, { name: string; extensions: string[] }> = {
  json: { name: 'JSON', extensions: ['json'] },
  jsonl: { name: 'JSON Lines', extensions: ['jsonl'] },
  csv: { name: 'CSV', extensions: ['csv'] },
  parquet: { name: 'Parquet', extensions: ['parquet'] },
  gexf: { name: 'GEXF network', extensions: ['gexf'] },
  'gephi-csv': { name: 'Gephi node and edge tables (CSV)', extensions: ['csv'] },
  ids: { name: 'Id list', extensions: ['txt'] },
};

export function createExportFeature(deps: ExportFeatureDeps): ExportFeature {
  const report = deps.platform ? createExportReporter(deps.platform) : undefined;
  const service = new ExportService({
    source: deps.source,
    stateDir: deps.stateDir,
    clock: deps.clock,
    context: deps.context,
    ...(deps.prices ? { prices: deps.prices } : {}),
    ...(deps.onInternalError ? { onInternalError: deps.onInternalError } : {}),
    ...(deps.confirm ? { confirm: deps.confirm } : {}),
    ...(deps.importedIds ? { importedIds: deps.importedIds } : {}),
    ...(deps.project ? { project: deps.project } : {}),
    ...(deps.onMissing ? { onMissing: deps.onMissing } : {}),
    ...(deps.onWritten ? { onWritten: deps.onWritten } : {}),
    onUpdate: (job) => {
      report?.(job);
      deps.emit?.(job);
    },
  });

  const handlers: ExportHandlers = {
    export: {
      estimate: ({ view, scope }) => service.estimate(view, scope),
      start: async ({ view, format, scope, caps, options, csvCells }) => {
        await service.plan(view); // refuse bad params before asking for a file
        const chosen = await deps.chooseSavePath({
          title: 'Export view',
          defaultPath: suggestedFileName(view, format, deps.clock.now()),
          filters: [FILTERS[format]],
        });
        if (chosen === null) return { job: null };
        const targetPath = extname(chosen) ? chosen : `${chosen}.${FILTERS[format].extensions[0]}`;
        return {
          job: await service.start({
            view,
            format,
            scope,
            ...(caps ? { caps } : {}),
            ...(options ? { options } : {}),
            ...(csvCells ? { csvCells } : {}),
            targetPath,
          }),
        };
      },
      status: ({ jobId }) => service.status(jobId),
      list: () => service.list(),
      cancel: ({ jobId }) => service.cancel(jobId),
      resume: ({ jobId, caps }) => service.resume(jobId, caps),
      discard: async ({ jobId }) => ({ discarded: await service.discard(jobId) }),
    },
  };

  return { handlers, service, dispose: () => service.dispose() };
}
