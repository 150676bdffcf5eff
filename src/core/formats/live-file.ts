/**
 * What every file written while its export collects shares (csv/live.ts, parquet/live.ts, jsonl.ts): an atomic
 * temp file held open beside the target, each kept page's provenance, a failure that leaves the file to the
 * journal's path, and the checks at the end: the file is used only when it holds every journaled item and the
 * manifest's context (app, address, view) is the one its rows were made with, else the journal's path writes it
 * as before.
 */
import { holdFileAtomic, type Sink } from '../files/atomic-file';
import {
  keptPageProvenance,
  sidecarPath,
  writeManifestFile,
  type KeptItem,
  type LiveInput,
  type LiveWriter,
  type Provenance,
  type RowCells,
} from './format';
import { writeLoadersAndManifest, type LoaderSource } from './loaders';
import type { ExportManifest } from './manifest';

/** What a format writes into the held file. */
export interface LiveFile {
  /** a page's kept items, with their provenance (`first`: the export's index of the first) */
  add: (items: readonly KeptItem[], from: Provenance, first: number) => Promise<void>;
  /** a page's rows, made by its format's `liveRows` where the items were parsed (its provenance in them) */
  addRows?: (rows: RowCells[]) => Promise<void>;
  /** whether the file can stand for this manifest's export (default: yes) */
  usable?: (manifest: ExportManifest) => boolean;
  /** the file's last bytes, once it is known to be used */
  seal?: (manifest: ExportManifest) => Promise<void>;
  /** what the loaders beside it read; absent: it has none, only its manifest beside it (JSON Lines) */
  loaders?: LoaderSource;
}

type Context = LiveInput['context'];
const contextKey = (c: Context) => JSON.stringify([c.app, c.base_url, c.view]);

/** Holds `path` open and hands its sink to `start`; null when the file cannot be opened or started. */
export async function openLiveFile(
  input: LiveInput,
  path: string,
  start: (sink: Sink) => Promise<LiveFile> | LiveFile,
): Promise<LiveWriter | null> {
  const held = await holdFileAtomic(path).catch(() => null);
  if (!held) return null;
  const { sink, done, close } = held;
  let items = 0;
  let broken = false;
  let settled = false;
  const discard = async () => {
    if (settled) return;
    settled = true;
    close(false);
    await done.catch(() => undefined);
  };
  let file: LiveFile;
  try {
    file = await start(sink);
  } catch {
    await discard();
    return null;
  }
  /** the file's last bytes written; false when they could not be */
  const sealed = (manifest: ExportManifest): Promise<boolean> =>
    file.seal
      ? file.seal(manifest).then(
          () => true,
          () => false,
        )
      : Promise.resolve(true);
  /**
   * A page written into the file: the target's folder failing (or a row that could not be made) leaves the file to
   * the journal's path. Each page after the one before is done: a worker serves the pages posted to it as they
   * come, and a page's rows added while the one before waited for the disk went into its row group, out of order
   * (Parquet: rows lost, rows twice).
   */
  let last: Promise<void> = Promise.resolve();
  const adding = (count: number, add: () => Promise<void>): Promise<void> => {
    last = last.then(async () => {
      if (broken || settled) return;
      try {
        await add();
        items += count;
      } catch {
        // the journal's path writes the file, and reports why, at the end; the collection goes on either way
        broken = true;
      }
    });
    return last;
  };
  const addRows = file.addRows;
  return {
    add: (kept, record, page) =>
      adding(kept.length, () => file.add(kept, keptPageProvenance(input, record, page), items)),
    ...(addRows ? { addRows: (rows: RowCells[], count: number) => adding(count, () => addRows(rows)) } : {}),
    async finish(manifest, journaled, signal) {
      await last;
      if (
        broken ||
        settled ||
        journaled !== items ||
        contextKey(manifest) !== contextKey(input.context) ||
        !(file.usable?.(manifest) ?? true) ||
        !(await sealed(manifest))
      ) {
        await discard();
        return false;
      }
      settled = true;
      close(true);
      // a temp file lost while collecting (an export to the same path cleared it): the journal's path writes
      // the file, and a disk that really fails says so there
      if (!(await done.then(() => true).catch(() => false))) return false;
      if (file.loaders) await writeLoadersAndManifest(input.target, file.loaders, manifest, signal);
      else await writeManifestFile(sidecarPath(input.target), manifest, signal);
      return true;
    },
    discard,
  };
}
