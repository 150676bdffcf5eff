/**
 * Extra columns (the project's codes) in every format, written once rather than per format: a table's rows
 * get them after the item's own columns (CSV, Parquet), a JSON Lines entry a `codes` object, a JSON file a
 * top-level `codes` map by id; a format without a row per item (an id list, a network) gets a sidecar table
 * `<file>.codes.csv` instead. One provider for all: no format keeps a copy of it.
 */
import { stringify } from 'csv-stringify/sync';
import { writeFileAtomic } from '../files/atomic-file';
import type { ExtraColumns, ItemStream, StreamItem } from './format';
import { rawText } from './format';
import type { Table } from './csv/table';
import { itemIdOf } from './item-fields';

/** A table with the extra columns after its own (its main file only: a space's participants are not items). */
export function withColumns(table: Table, extra: ExtraColumns | undefined): Table {
  if (!extra || extra.columns.length === 0 || table.suffix !== '') return table;
  return {
    ...table,
    columns: [...table.columns, ...extra.columns],
    rows: (raw, position, context) => {
      const cells = extra.values.get(itemIdOf(raw) ?? '');
      return table.rows(raw, position, context).map((row) => {
        const out = { ...row };
        extra.columns.forEach((c, i) => (out[c] = cells?.[i] ?? null));
        return out;
      });
    },
  };
}

/** An item's extra cells as a JSON object (`{"code_stance": "support", …}`), or null when it has none. */
export function columnsObject(extra: ExtraColumns, id: string | null): string | null {
  const cells = id === null ? undefined : extra.values.get(id);
  if (!cells) return null;
  const o: Record<string, string | null> = {};
  extra.columns.forEach((c, i) => (o[c] = cells[i] ?? null));
  return JSON.stringify(o);
}

/** An item's id: the stream's, else read from the item (a re-export's rows carry it); null when it has none. */
export function streamItemId(item: StreamItem): string | null {
  if (item.id !== null) return item.id;
  try {
    return itemIdOf(JSON.parse(rawText(item)));
  } catch {
    return null;
  }
}

/** `x.jsonl` → `x.jsonl.codes.csv` */
function columnsSidecarPath(target: string): string {
  return `${target}.codes.csv`;
}

/** The sidecar table of a format without rows: `item_id` and the extra columns, for the items written that have any. */
export async function writeColumnsSidecar(
  target: string,
  items: ItemStream,
  extra: ExtraColumns,
  signal?: AbortSignal,
): Promise<number> {
  return writeFileAtomic(
    columnsSidecarPath(target),
    async (sink) => {
      await sink.write(stringify([['item_id', ...extra.columns]], { record_delimiter: '\n' }));
      const seen = new Set<string>();
      for await (const item of items.items()) {
        const id = streamItemId(item);
        if (id === null || seen.has(id)) continue;
        seen.add(id);
        const cells = extra.values.get(id);
        if (cells) await sink.write(stringify([[id, ...cells]], { record_delimiter: '\n' }));
      }
    },
    signal,
  );
}
