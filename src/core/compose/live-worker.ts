/**
 * The worker thread of an export's file (see export/live-thread.ts): the format's own live writer, fed each kept
 * page's items parsed again from their JSON, as the journal's path reads them; or the journal's path itself, the
 * committed items read from the journal's file.
 */
import { formatRegistry, type LiveWriter } from '../formats';
import { writeWithPolicy, type LiveApi } from '../export';
import { committedItems } from '../walk';
import { serveWorker } from '../workers';

serveWorker<LiveApi>(() => {
  const formats = formatRegistry();
  let live: LiveWriter | null = null;
  let finishing = new AbortController();
  const opened = (): LiveWriter => {
    if (!live) throw new Error('no live file is open');
    return live;
  };
  return {
    api: {
      open: async (format, input) => {
        live = (await formats.get(format).live?.(input)) ?? null;
        return live !== null;
      },
      add: (items, record, page) =>
        opened().add(
          items.map(({ text, position }) => ({ raw: JSON.parse(text) as unknown, position })),
          record,
          page,
        ),
      finish: (manifest, items) => {
        finishing = new AbortController();
        return opened().finish(manifest, items, finishing.signal);
      },
      write: async ({ format, journal, policy, ...job }) => {
        finishing = new AbortController();
        const items = { items: () => committedItems(journal) };
        await writeWithPolicy(formats.get(format), { ...job, items, signal: finishing.signal }, policy);
        return job.manifest;
      },
      discard: async () => {
        await live?.discard();
      },
      abort: () => finishing.abort(),
    },
    close: () => live?.discard(),
  };
});
