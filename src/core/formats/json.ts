/**
 * JSON: one document `{ "manifest": …, "items": [ … ] }`, one item per line, each as received (in a thread
 * `{root_id, parent_id, depth, item}`). The manifest is inside the file: there is no sidecar.
 */
import { writeFileAtomic } from '../files/atomic-file';
import type { Format } from './format';
import { EMPTY, writeEntry } from './json-entry';

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
  offers: [{ id: 'json', archive: { kinds: ['post', 'user'] } }],
  files: (chosen) => [chosen],
  rowProvenance: null,
  write: ({ target, items, manifest, signal }) =>
    writeFileAtomic(
      target,
      async (sink) => {
        await sink.write(`{\n  "manifest": ${indented(manifest)},\n  "items": [`);
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
