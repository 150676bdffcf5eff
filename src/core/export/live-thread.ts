/**
 * An export's file written in a worker thread of its own: encoding a Parquet file's rows is most of its export's CPU
 * after the answers' parse, and on main a row group held the event loop every window waits on (83–151 ms) and grew
 * main's heap with garbage V8 sizes by what is allocated. A format without `liveRows` (JSON Lines, a CSV's lines
 * from the items already parsed) costs the export's thread less than handing a page over would: it writes its live
 * file there instead.
 *
 * While the export collects (`liveInWorker`), the collection makes each kept page's rows from the items the client
 * parsed (the format's `liveRows`), posts their cells and goes on to the next page; the worker
 * (core/compose/live-worker.ts) types and encodes them a few pages behind. Whatever goes wrong there (the worker's
 * heap, a crash, a row it cannot make) only loses the live file: `finish` answers false and the journal's path
 * writes the export at the end — in such a worker too (`writeFromJournalInWorker`, a CSV's as well), reading the
 * journal's file.
 */
import type { ResourceLimits } from 'node:worker_threads';
import type { CsvCells, ExportOptions } from '../../shared/ipc/export';
import {
  jsonText,
  keptPageProvenance,
  type ExportManifest,
  type Format,
  type LiveInput,
  type LiveRows,
  type LiveWriter,
  type RowCells,
  type WritePlan,
} from '../formats';
import type { CommittedPart } from '../walk';
import type { ItemPolicy } from './item-policy';
import { tooBig } from './reexport-thread';
import { removeStaleTempsOf } from '../files/atomic-file';
import { isSkeinError, SkeinError } from '../../shared/errors';
import { outOfMemory, startWorker, type RunningWorker } from '../workers';

/** An export written at its end from the journal's committed items, in the worker (`writeFromJournalInWorker`). */
export interface JournalWrite {
  /** a built-in format's id: the worker knows only those */
  format: string;
  target: string;
  journal: CommittedPart;
  manifest: ExportManifest;
  plan: WritePlan;
  options: ExportOptions | undefined;
  csvCells: CsvCells;
  policy: ItemPolicy | null;
}

/**
 * What the export's file worker answers (core/compose/live-worker.ts serves it): a file written while the export
 * collects (`open`, `add`, `finish`, `discard`), or one written from the journal at its end (`write`).
 */
export interface LiveApi {
  /** opens the format's live file; false when it writes none for this export */
  open: (format: string, input: LiveInput) => Promise<boolean>;
  /** a kept page's rows (`items`: how many items they are of) */
  add: (rows: RowCells[], items: number) => Promise<void>;
  /** the next piece of the manifest's JSON text, which `finish` and `write` then read (`sendManifest`) */
  manifestText: (piece: string) => Promise<void>;
  finish: (items: number) => Promise<boolean>;
  discard: () => Promise<void>;
  /**
   * writes `job`'s files from the journal; answers the manifest as written (with its policy's sections), less
   * its long lists (an export's pages), which writing leaves as they came
   */
  write: (job: Omit<JournalWrite, 'manifest'>) => Promise<Partial<ExportManifest>>;
  /** stops a `finish` or `write` under way (an AbortSignal cannot cross threads); posted */
  abort: () => void;
}

/**
 * The worker's heap, writing live or from the journal: a row group and a few pages at a time. A young generation
 * this small is collected often, so short-lived rows do not pile up to what V8 would otherwise let them (a CSV
 * written from the journal of 100,000 posts: 178–180 MB of RSS, against 216–217 MB with the re-export's 64 MB, in
 * the same time; BENCHMARKS.md).
 */
const FILE_HEAP: ResourceLimits = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 192 };

/**
 * Pages posted and not yet written: the collection waits only when the worker is this far behind. A row group's
 * encoding keeps the worker from taking pages for tens of milliseconds; as many pages as a row group holds let the
 * collection go on meanwhile (8 left main idle 40 % of a Parquet export of 100,000 posts: 32 against 42 MB of
 * posts/s; peak RSS 186–194 against 160–168 MB, the worker holding a second row group's cells as they arrive).
 */
const PAGES_AHEAD = 128;
/** … or when the rows posted and not yet written hold this much text (pages of huge items) */
const TEXT_AHEAD = 4 * 1024 * 1024;

/** the text a page's rows hold (UTF-16 units): what they cost to cross and to hold until written */
function rowsText(rows: readonly RowCells[]): number {
  let text = 0;
  for (const cells of rows) for (const cell of cells) if (typeof cell === 'string') text += cell.length;
  return text;
}

/** The pages posted to the worker and not yet written, oldest first. */
export class PagesAhead {
  private readonly pages: Array<{ written: Promise<void>; text: number }> = [];
  private text = 0;

  constructor(
    private readonly most = PAGES_AHEAD,
    private readonly mostText = TEXT_AHEAD,
  ) {}

  /** a page posted (`written`: settles once the worker has it, never rejects); resolves when the next may be made */
  async posted(written: Promise<void>, text: number): Promise<void> {
    this.pages.push({ written, text });
    this.text += text;
    while (this.pages.length >= this.most || (this.text > this.mostText && this.pages.length > 0)) {
      const oldest = this.pages.shift() as (typeof this.pages)[number];
      this.text -= oldest.text;
      await oldest.written;
    }
  }

  /** resolves once every page posted is written */
  async settled(): Promise<void> {
    const pages = this.pages.splice(0);
    this.text = 0;
    await Promise.all(pages.map((page) => page.written));
  }
}

type OffMain = { entry: URL; execArgv?: string[] };

const startFileWorker = (offMain: OffMain, heap: ResourceLimits) =>
  startWorker<LiveApi>({ ...offMain, resourceLimits: heap, name: 'the export’s file' });

/** What a format's live file is opened with: in this thread (`format.live`), or in a worker (`liveInWorker`). */
export type OpenLive = (format: Format, input: LiveInput) => Promise<LiveWriter | null>;

export const liveInProcess: OpenLive = (format, input) => format.live?.(input) ?? Promise.resolve(null);

/** The plan's data only: the view's plan also holds functions, which cannot cross to a thread. */
export function planData(plan: WritePlan): WritePlan {
  const { kind, operation, itemKind, params, rootId } = plan;
  return { kind, operation, itemKind, params, rootId };
}

const crossing = (input: LiveInput): LiveInput => ({ ...input, plan: planData(input.plan) });

/**
 * An export's files written from its journal somewhere else; answers the manifest as written, or null when that
 * place could not be had (the export's own thread writes them then).
 */
export type WriteFromJournal = (job: JournalWrite, signal?: AbortSignal) => Promise<ExportManifest | null>;

/**
 * Writes an export's files from its journal in a worker of its own (a CSV's or Parquet file's rows when the export
 * was resumed, is a space's two tables or a Parquet dataset, or carries a project's codes), under `FILE_HEAP`. A
 * worker past its limit ends the write in plain words; the job stays resumable, its journal whole. A worker that
 * cannot start (its file missing from a broken install, say) leaves the write to the export's own thread.
 */
export function writeFromJournalInWorker(offMain: OffMain, heap: ResourceLimits = FILE_HEAP): WriteFromJournal {
  const memory = tooBig(heap, 'Resume the export to write its file again; if it happens again, please report it.');
  return async (job, signal) => {
    signal?.throwIfAborted();
    const worker = await startFileWorker(offMain, heap).catch((e: unknown) => (outOfMemory(e) ? memory(e) : null));
    if (!worker) return null;
    const abort = () => worker.post('abort');
    signal?.addEventListener('abort', abort, { once: true });
    try {
      const { manifest, ...rest } = job;
      const written = sendManifest(worker, manifest).then(() => {
        const writing = worker.call('write', rest);
        // a cancel while the manifest crossed reached the worker before the write it stops
        if (signal?.aborted) abort();
        return writing;
      });
      return await written
        .then((sections) => Object.assign(manifest, sections))
        .catch(async (e: unknown) => {
          // a worker stopped mid-write (its heap's limit, a crash) could not clear the hidden temp file it staged
          await removeStaleTempsOf(job.manifest.files);
          if (isSkeinError(e) || outOfMemory(e)) return memory(e);
          throw new SkeinError(
            'internal',
            'Writing the export’s file stopped unexpectedly; no file was written, and the collected items are kept.',
            { action: 'Resume the export to write its file again; if it happens again, please report it.' },
          );
        });
    } finally {
      signal?.removeEventListener('abort', abort);
      await worker.stop().catch(() => undefined);
    }
  };
}

/**
 * Opens `format`'s live file in a worker of its own; null when the format writes none, or the worker cannot start.
 * A format that makes no rows for a worker (`liveRows`: JSON Lines, CSV) writes it here.
 */
export function liveInWorker(offMain: OffMain, heap: ResourceLimits = FILE_HEAP): OpenLive {
  return async (format, input) => {
    if (!format.live) return null;
    if (!format.liveRows) return liveInProcess(format, input);
    const rows = format.liveRows(input);
    if (!rows) return null;
    const worker = await startFileWorker(offMain, heap).catch(() => null);
    if (!worker) return null;
    const opened = await worker.call('open', format.id, crossing(input)).catch(() => false);
    if (!opened) {
      await worker.stop();
      return null;
    }
    return workerWriter(worker, input, rows, format.files(input.target, input.plan));
  };
}

/**
 * main's end of the worker's live file: each page's rows made here; `files`: every path the export writes, cleared
 * of what a dead worker left
 */
function workerWriter(
  worker: RunningWorker<LiveApi>,
  input: LiveInput,
  rowsOf: LiveRows,
  files: readonly string[],
): LiveWriter {
  /** items whose rows were posted: the export's index of the next page's first */
  let posted = 0;
  const ahead = new PagesAhead();
  let broken = false;
  let stopped: Promise<void> | null = null;
  const settle = () => ahead.settled();
  /** ends the worker; one that did not end its own file (a crash, its heap) left a hidden temp file as big as it */
  const stop = (clean: boolean) =>
    (stopped ??= worker
      .stop()
      .catch(() => undefined)
      .then(async () => {
        if (!clean) await removeStaleTempsOf(files);
      }));
  const discard = async () => {
    if (stopped) return stopped;
    await settle();
    const ended = await worker.call('discard').then(
      () => true,
      () => false,
    );
    await stop(ended);
  };
  return {
    async add(kept, record, page) {
      if (broken || stopped) return;
      let rows: RowCells[];
      try {
        rows = rowsOf(kept, keptPageProvenance(input, record, page), posted);
      } catch {
        // a row that could not be made: the journal's path writes the file, and says why, at the end
        broken = true;
        return;
      }
      posted += kept.length;
      const added = worker.call('add', rows, kept.length).catch(() => {
        // the worker's heap, a crash: the journal's path writes the file at the end
        broken = true;
      });
      await ahead.posted(added, rowsText(rows));
    },
    async finish(manifest, items, signal) {
      await settle();
      if (broken || stopped || signal?.aborted) {
        await discard();
        return false;
      }
      const abort = () => worker.post('abort');
      signal?.addEventListener('abort', abort, { once: true });
      let ended = false;
      try {
        await sendManifest(worker, manifest);
        const finishing = worker.call('finish', items);
        // a cancel while the manifest crossed reached the worker before the finish it stops
        if (signal?.aborted) abort();
        const used = await finishing;
        ended = true;
        return used;
      } catch {
        return false;
      } finally {
        signal?.removeEventListener('abort', abort);
        await stop(ended);
      }
    },
    discard,
  };
}

/** text of the manifest sent at once: a few hundred KB, a millisecond or two to clone */
const MANIFEST_PIECE = 256 * 1024;

/**
 * The manifest crosses to the worker as its JSON text (the text its file gets), a piece at a time: cloned whole,
 * the 50,000 pages of a million posts held main's event loop 78 ms.
 */
async function sendManifest(worker: RunningWorker<LiveApi>, manifest: ExportManifest): Promise<void> {
  let piece = '';
  for (const text of jsonText(manifest)) {
    piece += text;
    if (piece.length < MANIFEST_PIECE) continue;
    await worker.call('manifestText', piece);
    piece = '';
  }
  await worker.call('manifestText', piece);
}
