/**
 * A format registered by the tests, beside the built-in ones (`formats: [...BUILT_IN_FORMATS, toyFormat]`):
 * the proof that a format is one module and one registry line. Each item's id and text, tab-separated, one
 * per line; the manifest beside it with a section of its own.
 */
import { writeFileAtomic } from '../../files/atomic-file';
import { fileAndSidecar, rawText, withSidecar, type Format } from '../format';

const oneLine = (v: unknown) => (typeof v === 'string' ? v.replace(/[\t\r\n]+/g, ' ') : '');

export const toyFormat: Format = {
  id: 'toy-tsv',
  label: 'Toy TSV',
  hint: 'a format the tests register: id and text, tab-separated',
  extension: 'tsv',
  offers: [{ id: 'toy-tsv', kinds: ['post'], archive: { kinds: ['post'] } }],
  files: fileAndSidecar,
  rowProvenance: null,
  section: ({ items }) => ({ toy: { columns: ['id', 'text'], rows: items, note: 'one item per line' } }),
  write: (job) =>
    withSidecar(job, () =>
      writeFileAtomic(
        job.target,
        async (sink) => {
          for await (const item of job.items.items()) {
            const raw = JSON.parse(rawText(item)) as { id?: unknown; text?: unknown };
            await sink.write(`${oneLine(raw.id)}\t${oneLine(raw.text)}\n`);
          }
        },
        job.signal,
      ),
    ),
};
