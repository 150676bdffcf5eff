/**
 * JSON: one document `{ "manifest": …, "items": [ … ] }`, one item per line, each as received (in a thread
 * `{root_id, parent_id, depth, item}`). The manifest is inside the file: there is no sidecar.
 */
import { writeFileAtomic } from '../files/atomic-file';
import type { Format } from './format';
import { EMPTY, writeEntry } from './json-entry';
import { jsonText } from './json-list';

const FIRST = Buffer.from('\n    ');
const NEXT = Buffer.from(',\n    ');

function indented(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, '\n  ');
}

export const json: Format = {
  id: 'json',
  label: 'JSON',
  hint: 'one file: the manifest and the raw items',
  extension: 'json',
  offers: [{ id: 'json', archive: { kinds: ['post', 'user'] }, hydration: true }],
  files: (chosen) => [chosen],
  rowProvenance: null,
  columns: 'top-level',
  copiesItems: true,
  write: ({ target, items, manifest, signal, extra }) =>
    writeFileAtomic(
      target,
      async (sink) => {
        await sink.write('{\n  "manifest": ');
        for (const piece of jsonText(manifest, 2)) await sink.write(piece);
        await sink.write(',\n');
        // the project's codes: a map by item id beside the items, which stay as received
        if (extra) {
          const byId: Record<string, Record<string, string | null>> = {};
          for (const [id, cells] of extra.values)
            byId[id] = Object.fromEntries(extra.columns.map((c, i) => [c, cells[i] ?? null]));
          await sink.write(`  "codes": ${indented({ columns: extra.columns, by_id: byId })},\n`);
        }
        await sink.write('  "items": [');
        let first = true;
        for await (const item of items.items()) {
          await writeEntry(sink, item, first ? FIRST : NEXT, EMPTY);
          first = false;
        }
        await sink.write(first ? ']\n}\n' : '\n  ]\n}\n');
      },
      signal,
    ),
};
