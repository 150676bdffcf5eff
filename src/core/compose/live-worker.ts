/**
 * The worker thread of a file written while its export collects (see export/live-thread.ts): the format's own
 * live writer, fed each kept page's items parsed again from their JSON, as the journal's path reads them.
 */
import { formatRegistry, type LiveWriter } from '../formats';
import type { LiveApi } from '../export';
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
      discard: async () => {
        await live?.discard();
      },
      abort: () => finishing.abort(),
    },
    close: () => live?.discard(),
  };
});
