/**
 * The archive's worker thread: the archive's host, serving every project with the parts the composition
 * registers (parts.ts). Built as out/main/archive-worker.js; tests run it from source with tsx. The same module,
 * started again by the archive with the side reader's data, serves its project files' second reader instead,
 * and loads only what that needs: the archive and its parts are imported for the archive alone.
 */
import { workerData } from 'node:worker_threads';
import { isSideReader, serveSideReader } from '../db';

if (isSideReader(workerData)) serveSideReader();
else {
  const [{ serveArchive }, { PARTS }] = await Promise.all([import('../archive/worker'), import('./parts')]);
  await serveArchive(PARTS, new URL(import.meta.url));
}
