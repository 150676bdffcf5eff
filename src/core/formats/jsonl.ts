/**
 * JSON Lines: one item per line with its provenance beside it (`{"__skein": …, "item": …}`), the manifest in a
 * sidecar named after the data file (`x.jsonl.manifest.json`). The shape to copy for a new format: one module,
 * one line in registry.ts.
 *
 * It is written while its export collects when it can (live-file.ts, as a CSV is): each kept page's items as the
 * journal keeps them, so the end of the export only renames the file instead of reading the journal back (a
 * third of a 100,000-post export's time). The lines are the journal's path's, byte for byte: the item's received
 * text on one line, its place in a thread and its page's provenance.
 */
import { oneLine } from '../../shared/api/spans';
import { writeFileAtomic } from '../files/atomic-file';
import { columnsObject, streamItemId } from './columns';
import { fileAndSidecar, provenanceCounter, withSidecar, type Format, type LiveInput, type LiveWriter } from './format';
import { EMPTY, wrappedHead, writeEntry } from './json-entry';
import { openLiveFile } from './live-file';

const NEWLINE = Buffer.from('\n');

/**
 * The live file: only for a run that collects from its first page (a resumed job's earlier items are in its
 * journal). A page's lines are written at once, on the export's own thread: they are the items' text as kept,
 * with nothing parsed or made of it, which costs less there than crossing to a worker (measured). Each item's
 * bytes are copied from the journal's write of the same page (`KeptItem.bytes`), not encoded from its text again
 * (a tenth of a JSON Lines export's time).
 */
function openLiveJsonl(input: LiveInput): Promise<LiveWriter | null> {
  return openLiveFile(input, input.target, (sink) => ({
    async add(kept, from) {
      const provenance = JSON.stringify(from);
      // text not yet handed to the sink: the page's lines between the items whose bytes the journal wrote
      let lines = '';
      for (const item of kept) {
        const position = item.position ? JSON.stringify(item.position) : 'null';
        lines += wrappedHead(provenance, position);
        if (item.bytes) {
          // the journal's bytes of the item, copied as they are: its text is not encoded a second time
          const flushed = sink.write(lines);
          if (flushed) await flushed;
          const copied = sink.write(item.bytes, true);
          if (copied) await copied;
          lines = '}\n';
        } else lines += `${oneLine(item.text ?? JSON.stringify(item.raw))}}\n`;
      }
      await sink.write(lines);
    },
  }));
}

export const jsonl: Format = {
  id: 'jsonl',
  label: 'JSON Lines',
  hint: 'one raw item per line with where it came from, manifest beside it',
  extension: 'jsonl',
  offers: [{ id: 'jsonl', archive: { kinds: ['post', 'user'], first: true }, hydration: true }],
  files: fileAndSidecar,
  layout: (plan) => {
    const positioned = plan.rootId !== null;
    return {
      items: 'wrapped',
      raw_key: 'item',
      provenance_key: '__skein',
      position_keys: positioned ? ['root_id', 'parent_id', 'depth'] : [],
      note: `each line is {"__skein": {retrieved_at, operation, page, cursor, first_retrieved_at}, ${positioned ? 'root_id, parent_id, depth, ' : ''}"item": …}; \`item\` is the raw item exactly as received, never changed${positioned ? '; depth is null when the parent is not in the export' : ''}.`,
    };
  },
  rowProvenance: 'the `__skein` object beside each item',
  columns: 'rows',
  copiesItems: true,
  write: (job) =>
    withSidecar(job, () =>
      writeFileAtomic(
        job.target,
        async (sink) => {
          const provenance = provenanceCounter(job.manifest);
          const extra = job.extra;
          for await (const item of job.items.items())
            await writeEntry(
              sink,
              item,
              EMPTY,
              NEWLINE,
              item.provenance ?? provenance(),
              extra ? columnsObject(extra, streamItemId(item)) : undefined,
            );
        },
        job.signal,
      ),
    ),
  live: openLiveJsonl,
};
