/**
 * The research archive's public surface: the projects (one SQLite file each, in the archive's worker thread),
 * the thread itself (and its view over a port, for a re-export's worker), collections, and the `projects` and
 * `archive` handlers.
 */
export { keepAsCollection } from './collections';
export { createArchiveHandlers } from './handlers';
export { createProjects, type Projects } from './projects';
export { startArchiveThread, type ArchiveThread } from './thread';
export { partProxy } from './part-proxy';
