/**
 * The archive's face for its worker thread's entry (compose/archive-worker.ts): serving the archive, without the
 * main thread's side of the area (its handlers, the projects list and its settings file), which the worker would
 * otherwise load and keep for nothing (~6 MB of its memory).
 */
export { serveArchive } from './serve';
