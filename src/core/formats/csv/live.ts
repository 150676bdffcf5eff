/**
 * A CSV written while its export collects. Each page's items become CSV lines as the page is kept, from
 * the objects the source already parsed, into the same kind of atomic temp file beside the target; when
 * the collection ends the file only needs its flush and rename. Without it the write phase read every
 * item back from the journal and parsed its JSON again: most of a CSV export's CPU after collecting.
 *
 * Only for a run that collects from the first page (a resumed job's earlier items are in the journal
 * only) and a view of one table (not a space and its participants). The lines come from the same
 * `csvTableText` as the journal's path, with the same provenance, so the bytes are the same; the write
 * phase uses this file only when it holds every journaled item and the manifest's context (app, address,
 * view) is the one the lines were made with, else the journal's path writes the file as before.
 */
import { chunked } from '../../files/atomic-file';
import type { LiveInput, LiveWriter } from '../format';
import { openLiveFile } from '../live-file';
import { csvTables } from './presets';
import { csvLoaderSource, csvTablePath, csvTableText, csvWriteOptions } from './write';

/** Opens the live file; null for a view of several tables. */
export async function openLiveCsv(input: LiveInput): Promise<LiveWriter | null> {
  const written = csvWriteOptions(input.options);
  const tables = csvTables(input.plan.itemKind, written.csvColumns, input.context);
  const table = tables[0];
  if (tables.length !== 1 || !table) return null;
  const text = csvTableText(table, written, input.csvCells, input.plan.params);
  return openLiveFile(input, csvTablePath(input.target, table), async (sink) => {
    await sink.write(text.header);
    return {
      async add(kept, from, first) {
        // a page of many items (200 people) is handed over in chunks, as the journal's path hands its lines
        for (const chunk of chunked(kept, (item, i) => text.lines(item.raw, item.position, first + i, from)))
          await sink.write(chunk);
      },
      loaders: csvLoaderSource(input.target, input.plan, input.options),
    };
  });
}
