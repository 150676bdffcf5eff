/**
 * The archive's face for worker threads' entries (compose/): serving the archive (the archive's own worker), and
 * reaching it over a port (a re-export's worker). Each loads only what it uses, not main's side of the area (its
 * handlers, the projects list and its settings file) nor, for a worker that only asks, the archive's host.
 */
import type { AnyPart } from '../db';
export { threadOverPort } from './over-port';

/** Serves the archive in this worker thread (serve.ts, loaded by this call alone). */
export async function serveArchive(parts: readonly AnyPart[], entry: URL): Promise<void> {
  (await import('./serve')).serveArchive(parts, entry);
}
