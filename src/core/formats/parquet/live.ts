/**
 * A Parquet file written while its export collects (as the CSV is, csv/live.ts): each kept page's items become
 * typed rows from the objects the source already parsed, a row group at a time into an atomic temp file beside
 * the target, so the end of the export only closes and renames it. Without it the write phase read every item
 * back from the journal and parsed its JSON again: most of a Parquet export's time after collecting.
 *
 * Only for a run that collects from the first page (a resumed job's earlier items are in the journal only), a
 * view of one table, and an export that stays one file (above the partitioning threshold the journal's path
 * writes the dataset folder). The rows come from the same table and provenance as the journal's path; the file
 * is used only when it holds every journaled item and the manifest's context (app, address, view) is the one
 * the rows were made with, its footer then taking the manifest's export time.
 */
import { holdFileAtomic } from '../../files/atomic-file';
import { columnType } from '../column-types';
import { TABLES } from '../csv/rows';
import { tableHeader } from '../csv/write';
import { pageProvenance, type LiveInput, type LiveWriter } from '../format';
import { writeLoadersAndManifest, type LoaderSource } from '../loaders';
import { createdByOf, parquetCells, parquetMetadata, PARTITION_ABOVE_ITEMS, PartFile } from './part';

type Context = LiveInput['context'];
const contextKey = (c: Context) => JSON.stringify([c.app, c.base_url, c.view]);

/** Opens the live file; null for a view of several tables, or when the file cannot be opened. */
export async function openLiveParquet(
  input: LiveInput,
  loaders: (partitioned: boolean) => LoaderSource,
): Promise<LiveWriter | null> {
  const tables = TABLES[input.plan.itemKind];
  const table = tables[0];
  if (tables.length !== 1 || !table || table.suffix) return null;
  const target = input.target;
  const names = tableHeader(table);
  const types = names.map(columnType);
  const toCells = parquetCells(table, names);
  const params = input.plan.params;

  const held = await holdFileAtomic(target).catch(() => null);
  if (!held) return null;
  const { sink, done, close } = held;
  const part = new PartFile(
    sink,
    names,
    types,
    parquetMetadata({ view: input.context.view, exported_at: '' }, target),
    createdByOf(input.context),
  );

  let items = 0;
  let broken = false;
  let settled = false;
  const discard = async () => {
    if (settled) return;
    settled = true;
    close(false);
    await done.catch(() => undefined);
  };
  return {
    async add(kept, record, page) {
      if (broken || settled) return;
      const fetched = new Date(record.fetchedAt).toISOString();
      const from = pageProvenance(input.context.view.operation, page, fetched, record.cursor);
      try {
        for (const item of kept) {
          for (const row of table.rows(item.raw, item.position, { params, index: items }))
            await part.add(toCells(row, from));
          items++;
        }
      } catch {
        // the target's folder failed (or a row could not be made): the journal's path writes the file, and
        // reports why, at the end; the collection goes on either way
        broken = true;
      }
    },
    async finish(manifest, journaled, signal) {
      const partitioned = manifest.counts.items > PARTITION_ABOVE_ITEMS;
      if (
        broken ||
        settled ||
        partitioned ||
        journaled !== items ||
        contextKey(manifest) !== contextKey(input.context)
      ) {
        await discard();
        return false;
      }
      settled = true;
      try {
        part.setMetadata(parquetMetadata(manifest, target));
        await part.finish();
      } catch {
        close(false);
        await done.catch(() => undefined);
        return false;
      }
      close(true);
      // a temp file lost while collecting (an export to the same path cleared it): the journal's path writes
      // the file, and a disk that really fails says so there
      if (!(await done.then(() => true).catch(() => false))) return false;
      await writeLoadersAndManifest(target, loaders(false), manifest, signal);
      return true;
    },
    discard,
  };
}
