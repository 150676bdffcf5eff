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
import { holdFileAtomic } from '../../files/atomic-file';
import { pageProvenance, type LiveInput, type LiveWriter } from '../format';
import { csvTables } from './presets';
import { writeLoadersAndManifest } from '../loaders';
import { csvLoaderSource, csvTablePath, csvTableText, csvWriteOptions } from './write';

type Context = LiveInput['context'];
const contextKey = (c: Context) => JSON.stringify([c.app, c.base_url, c.view]);

/** Opens the live file; null for a view of several tables. */
export async function openLiveCsv(input: LiveInput): Promise<LiveWriter | null> {
  const written = csvWriteOptions(input.options);
  const tables = csvTables(input.plan.itemKind, written.csvColumns, input.context);
  const table = tables[0];
  if (tables.length !== 1 || !table) return null;
  const text = csvTableText(table, written, input.csvCells, input.plan.params);
  const target = input.target;
  const path = csvTablePath(target, table);

  const held = await holdFileAtomic(path).catch(() => null);
  if (!held) return null;
  const { sink, done, close } = held;
  try {
    await sink.write(text.header);
  } catch {
    close(false);
    await done.catch(() => undefined);
    return null;
  }

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
        let chunk = '';
        for (const item of kept) chunk += text.lines(item.raw, item.position, items++, from);
        await sink.write(chunk);
      } catch {
        // the target's folder failed (or a row could not be made): the journal's path writes the file, and
        // reports why, at the end; the collection goes on either way
        broken = true;
      }
    },
    async finish(manifest, journaled, signal) {
      if (broken || settled || journaled !== items || contextKey(manifest) !== contextKey(input.context)) {
        await discard();
        return false;
      }
      settled = true;
      close(true);
      // a temp file lost while collecting (an export to the same path cleared it): the journal's path writes
      // the file, and a disk that really fails says so there
      if (!(await done.then(() => true).catch(() => false))) return false;
      await writeLoadersAndManifest(target, csvLoaderSource(target, input.plan, input.options), manifest, signal);
      return true;
    },
    discard,
  };
}
