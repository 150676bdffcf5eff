/**
 * The archive in a worker thread (see thread.ts; the entry is the composition's, compose/archive-worker.ts): node:sqlite is synchronous, and a team project's answers are
 * parsed before they are sent, so every ingest, search, chart and re-export runs here, never on main's event loop.
 */
import { sideReader, type AnyPart } from '../db';
import { serveWorker } from '../workers';
import type { ArchiveQueryParsed } from '../../shared/ipc/archive';
import { ArchiveHost, type ArchiveApi, type Handle } from './host';

/**
 * Serves the archive in this worker thread, its projects hosting `parts` (the composition's entry calls it);
 * `entry`, the entry's own module, started again as the project files' side reader (db/sqlite/side.ts).
 */
export function serveArchive(parts: readonly AnyPart[], entry: URL): void {
  serveWorker<ArchiveApi>(({ report }) => {
    const host = new ArchiveHost(report, parts, Date.now, sideReader(entry, { onError: report }));
    return { api: host.api, attach: () => closingReaders(host.api), close: () => host.dispose() };
  });
}

/**
 * A re-export's own worker (core/compose/reexport-worker.ts) reads the project over a port of its own. A reader
 * it leaves open (the worker crashed or was stopped) is closed when its port closes: an open reader holds
 * the project's read snapshot, and with it the write-ahead log's checkpoint.
 */
function closingReaders(api: ArchiveApi): { api: ArchiveApi; closed: () => void } {
  const open = new Set<number>();
  const tracked =
    (start: (handle: Handle, q: ArchiveQueryParsed) => Promise<number>) =>
    async (handle: Handle, q: ArchiveQueryParsed) => {
      const reader = await start(handle, q);
      open.add(reader);
      return reader;
    };
  return {
    api: {
      ...api,
      readOpen: tracked(api.readOpen),
      requestsOpen: tracked(api.requestsOpen),
      readClose: async (reader) => {
        open.delete(reader);
        await api.readClose(reader);
      },
    },
    closed: () => {
      for (const reader of open) void api.readClose(reader).catch(() => undefined);
    },
  };
}
