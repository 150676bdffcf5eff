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
import { TABLES } from '../csv/rows';
import { tableHeader } from '../csv/write';
import type { LiveInput, LiveWriter } from '../format';
import { openLiveFile } from '../live-file';
import type { LoaderSource } from '../loaders';
import { createdByOf, parquetCells, parquetMetadata, PARTITION_ABOVE_ITEMS, PartFile } from './part';

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
  const toCells = parquetCells(table, names);
  const params = input.plan.params;

  return openLiveFile(input, target, (sink) => {
    const part = new PartFile(sink, {
      names,
      kv: parquetMetadata({ view: input.context.view, exported_at: '' }, target),
      createdBy: createdByOf(input.context),
    });
    return {
      async add(kept, from, first) {
        for (let i = 0; i < kept.length; i++) {
          const item = kept[i] as (typeof kept)[number];
          for (const row of table.rows(item.raw, item.position, { params, index: first + i })) {
            const grouped = part.add(toCells(row, from));
            if (grouped !== undefined) await grouped;
          }
        }
      },
      usable: (manifest) => manifest.counts.items <= PARTITION_ABOVE_ITEMS,
      async seal(manifest) {
        part.setMetadata(parquetMetadata(manifest, target));
        await part.finish();
      },
      loaders: loaders(false),
    };
  });
}
