/**
 * The formats area as the others see it: the registry (a value createCore takes), what a format is, the
 * manifest as a document, and the few readers the export jobs share with the writers.
 */
export { BUILT_IN_FORMATS, formatRegistry, saveFilter, type Formats } from './registry';
export {
  cellsFor,
  defaultLayout,
  keptPageProvenance,
  rawText,
  type ExtraColumns,
  type Format,
  type ItemStream,
  type KeptItem,
  type LiveInput,
  type LiveRows,
  type LiveWriter,
  type Provenance,
  type RowCells,
  type StreamItem,
  type ThreadPosition,
  type WriteJob,
  type WritePlan,
} from './format';
export {
  MANIFEST_SCHEMA,
  type ExportManifest,
  type ManifestPage,
  type ManifestSnapshot,
  type SourceRequestEntry,
} from './manifest';
export { JsonList, MadeList, jsonText } from './json-list';
export { itemIdOf } from './item-fields';
export { writeColumnsSidecar } from './columns';
