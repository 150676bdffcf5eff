/**
 * The media area's face: safe fetching of a post's media into the project's media folder, what to keep and
 * what it will take, keeping (recorded in the project's media tables, a part), and verifying what was kept.
 */
export { DEFAULT_FETCH_POLICY } from './fetch';
export { keepMedia, type KeepProgress, type KeepResult, type MediaStore } from './keep';
export { candidatesOf, estimate, uniqueByUrl, type Candidate, type Estimate } from './plan';
export { MEDIA_PART_NAME } from './tables/part';
export type { KeptMedia, MediaTables } from './tables/tables';
export { readKept, verifyMedia, type KeptBytes, type VerifyReport } from './verify';
export { writeEvidencePackage, type EvidenceStore, type EvidenceSummary, type LinkedPages } from './evidence';
export { createMediaHandlers, type MediaJobs } from './handlers';
