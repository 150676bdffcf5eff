/**
 * The worker thread of an export's file (see export/live-thread.ts): the format's own live writer, fed each kept
 * page's rows as main made them; or the journal's path itself, the committed items read from the journal's file.
 */
import { formatRegistry, type ExportManifest, type LiveWriter } from '../formats';
import { writeWithPolicy, type LiveApi } from '../export';
import { committedItems } from '../walk';
import { serveWorker } from '../workers';

/** a list this long in the manifest is sent back by `write` only when writing changed it */
const LONG_LIST = 1_000;

serveWorker<LiveApi>(() => {
  const formats = formatRegistry();
  let live: LiveWriter | null = null;
  let finishing = new AbortController();
  /** the manifest's JSON text as it arrives, read whole by `finish` or `write` */
  let manifestText = '';
  const manifest = (): ExportManifest => {
    const text = manifestText;
    manifestText = '';
    return JSON.parse(text) as ExportManifest;
  };
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
      add: (rows, items) => {
        const writer = opened();
        if (!writer.addRows) throw new Error('this live file takes no rows');
        return writer.addRows(rows, items);
      },
      manifestText: (piece) => {
        manifestText += piece;
        return Promise.resolve();
      },
      finish: (items) => {
        finishing = new AbortController();
        return opened().finish(manifest(), items, finishing.signal);
      },
      write: async ({ format, journal, policy, ...job }) => {
        finishing = new AbortController();
        const items = { items: () => committedItems(journal) };
        const written = manifest();
        // main holds the long lists (an export's pages) as it sent them: those writing left as they were stay there
        const sent = new Map(
          Object.entries(written).flatMap(([k, v]) =>
            Array.isArray(v) && v.length > LONG_LIST ? [[k, JSON.stringify(v)] as const] : [],
          ),
        );
        await writeWithPolicy(
          formats.get(format),
          { ...job, manifest: written, items, signal: finishing.signal },
          policy,
        );
        return Object.fromEntries(Object.entries(written).filter(([k, v]) => sent.get(k) !== JSON.stringify(v)));
      },
      discard: async () => {
        await live?.discard();
      },
      abort: () => finishing.abort(),
    },
    close: () => live?.discard(),
  };
});
