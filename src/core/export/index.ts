/**
 * The export area's public surface: the `export` handlers and jobs (createExportFeature), and the ports it
 * declares for what a re-export reads from the archive (`ArchiveReader`, `ArchiveSource`). Pages come through
 * core/walk's `PageSource`.
 */
export type { ArchiveReader, ArchiveSource } from './archive-source';
export { createExportFeature } from './handlers';
export type { ExportService } from './export-service';
export { suggestedFileName } from './views';
export { writeReexport } from './reexport';
export type { ReexportApi } from './reexport-thread';
export { liveInWorker, writeFromJournalInWorker, type LiveApi } from './live-thread';
export { writeWithPolicy } from './item-policy';
