/**
 * A Parquet file written while its export collects (as the CSV is, csv/live.ts): each kept page's items become
 * typed rows from the objects the source already parsed, a row group at a time into an atomic temp file beside
 * the target, so the end of the export only closes and renames it. Without it the write phase read every item
 * back from the journal and parsed its JSON again: most of a Parquet export's time after collecting.
 *
 * The app writes it in a worker of its own (export/live-thread.ts): the rows are made on the export's thread
 * (`liveParquetRows`, where the items are parsed) and only their cells cross, to be typed and encoded there.
 *
 * Only for a run that collects from the first page (a resumed job's earlier items are in the journal only), a
 * view of one table, and an export that stays one file (above the partitioning threshold the journal's path
 * writes the dataset folder). The rows come from the same table and provenance as the journal's path; the file
 * is used only when it holds every journaled item and the manifest's context (app, address, view) is the one
 * the rows were made with, its footer then taking the manifest's export time.
 */
import { TABLES } from '../csv/rows';
import type { Table } from '../csv/table';
import { tableHeader } from '../csv/write';
import type { LiveInput, LiveRows, LiveWriter, RowCells } from '../format';
import { openLiveFile } from '../live-file';
import type { LoaderSource } from '../loaders';
import { createdByOf, parquetCells, parquetMetadata, PARTITION_ABOVE_ITEMS, PartFile } from './part';

/** the one table a live file is written for; null for a view of several */
function liveTable(input: LiveInput): Table | null {
  const tables = TABLES[input.plan.itemKind];
  const table = tables[0];
  return tables.length !== 1 || !table || table.suffix ? null : table;
}

/** A page's rows as the live file takes them (each row's cells); null when the export has no live file. */
export function liveParquetRows(input: LiveInput): LiveRows | null {
  const table = liveTable(input);
  if (!table) return null;
  const toCells = parquetCells(table, tableHeader(table));
  const params = input.plan.params;
  return (kept, from, first) => {
    const rows: RowCells[] = [];
    for (let i = 0; i < kept.length; i++) {
      const item = kept[i] as (typeof kept)[number];
      for (const row of table.rows(item.raw, item.position, { params, index: first + i }))
        rows.push(toCells(row, from));
    }
    return rows;
  };
}

/** Opens the live file; null for a view of several tables, or when the file cannot be opened. */
export async function openLiveParquet(
  input: LiveInput,
  loaders: (partitioned: boolean) => LoaderSource,
): Promise<LiveWriter | null> {
  const table = liveTable(input);
  const rowsOf = liveParquetRows(input);
  if (!table || !rowsOf) return null;
  const target = input.target;

  return openLiveFile(input, target, (sink) => {
    const part = new PartFile(sink, {
      names: tableHeader(table),
      kv: parquetMetadata({ view: input.context.view, exported_at: '' }, target),
      createdBy: createdByOf(input.context),
    });
    const addRows = async (rows: readonly RowCells[]) => {
      for (const cells of rows) {
        const grouped = part.add(cells);
        if (grouped !== undefined) await grouped;
      }
    };
    return {
      add: (kept, from, first) => addRows(rowsOf(kept, from, first)),
      addRows,
      usable: (manifest) => manifest.counts.items <= PARTITION_ABOVE_ITEMS,
      async seal(manifest) {
        part.setMetadata(parquetMetadata(manifest, target));
        await part.finish();
      },
      loaders: loaders(false),
    };
  });
}
