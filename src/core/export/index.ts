/**
 * The export area's public surface: the `export` handlers and jobs (createExportFeature), and the ports it
 * declares for what it reads: pages from the API client (`PageSource`) and, for a re-export, the archive
 * (`ArchiveReader`, `ArchiveSource`).
 */
export type { ArchiveReader, ArchiveSource } from './archive-source';
export { createExportFeature } from './handlers';
export { Journal, type FailedFetch, type JournalItem, type PageRecord } from './journal';
export type { PageSource, SourcePage } from './page-source';
export { writeReexport } from './reexport';
export type { ReexportApi } from './reexport-thread';
