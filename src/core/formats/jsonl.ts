/**
 * JSON Lines: one item per line with its provenance beside it (`{"__skein": …, "item": …}`), the manifest in a
 * sidecar named after the data file (`x.jsonl.manifest.json`). The shape to copy for a new format: one module,
 * one line in registry.ts.
 */
import { writeFileAtomic } from '../files/atomic-file';
import { columnsObject, streamItemId } from './columns';
import { fileAndSidecar, provenanceCounter, withSidecar, type Format } from './format';
import { EMPTY, writeEntry } from './json-entry';

const NEWLINE = Buffer.from('\n');

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
};
