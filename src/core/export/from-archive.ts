/**
 * An export whose source is the archive (the Archive view's "Export these results…"): the file is asked for
 * in main's save dialog, named and filtered by the format registry, then written (reexport.ts). Parsing and
 * encoding take seconds of CPU, so when the archive's thread allows it they run in a worker of their own
 * (reexport-thread.ts) and main's loop only waits.
 *
 * Not an export job: it is written at once from what the project holds (no call, no page to resume), and the
 * Archive view waits for its answer; a job would only add a resumable entry that cannot be resumed.
 */
import type { ArchiveQueryParsed } from '../../shared/ipc/archive';
import type { ExportFormat, ExportOptions } from '../../shared/ipc/export';
import { formatRegistry, saveFilter, type Formats } from '../formats';
import type { ArchiveHandle, ArchiveSource } from './archive-source';
import type { ItemPolicy } from './item-policy';
import type { ExportContext } from './manifest';
import { writeReexport, type ReexportInput } from './reexport';
import { reexportInWorker, STREAMING_HEAP } from './reexport-thread';
import type { ChooseSavePath } from '../ports';
import { fileStamp } from './views';

/**
 * Writes a re-export; returns the items written and the files (data first, manifest last). A format the
 * re-export's worker does not have (one registered beside the built-in ones) is written on this thread.
 */
export async function reexport(
  archive: ArchiveSource,
  input: ReexportInput,
  formats: Formats = formatRegistry(),
): Promise<{ items: number; files: string[]; damaged: number }> {
  const offMain = archive.offMain;
  const format = formats.get(input.format);
  return offMain && formats.builtIn(format)
    ? reexportInWorker(offMain, input, format.holds === 'graph' ? undefined : STREAMING_HEAP)
    : writeReexport(archive, input, formats);
}

/** What the Archive view exports: a query of one project, in a format with its options. */
export interface QueryExport {
  handle: ArchiveHandle;
  query: ArchiveQueryParsed;
  format: ExportFormat;
  options?: ExportOptions;
  /** for the manifest: "collection 3", "search “heron”", "the whole project" */
  title: string;
  project: { name: string; location: string };
}

export interface ArchiveExportDeps {
  formats: Formats;
  archive: () => Promise<ArchiveSource>;
  chooseSavePath: ChooseSavePath;
  context: () => ExportContext | Promise<ExportContext>;
  now: () => number;
  /** what the project asks of an export of its items: codes as extra columns, opted-out accounts left out */
  policy?: (handle: ArchiveHandle, itemKind: 'post' | 'user') => Promise<ItemPolicy | null>;
}

/** `skein-archive-<project>-20261123T195400Z.jsonl`: self-describing, the UTC time in the name */
function archiveFileName(project: string, extension: string, now: number): string {
  const slug =
    project
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'project';
  return `skein-archive-${slug}-${fileStamp(now)}.${extension}`;
}

/** Asks where, then writes; null when the person closes the dialog. */
export function archiveExport(
  deps: ArchiveExportDeps,
): (request: QueryExport) => Promise<{ file: string; items: number; damaged: number } | null> {
  return async (request) => {
    const format = deps.formats.get(request.format);
    const now = deps.now();
    const target = await deps.chooseSavePath({
      title: 'Export from the archive',
      defaultPath: archiveFileName(request.project.name, format.extension, now),
      filters: [saveFilter(format)],
    });
    if (target === null) return null;
    const written = await reexport(
      await deps.archive(),
      {
        ...request,
        target,
        context: await deps.context(),
        now,
        // a re-export's CSV cells are neutralised, as they always were: safe to open in a spreadsheet
        csvCells: 'neutralised',
        policy: (await deps.policy?.(request.handle, request.query.kind)) ?? null,
      },
      deps.formats,
    );
    return { file: written.files[0] ?? target, items: written.items, damaged: written.damaged };
  };
}
