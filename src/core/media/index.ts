/** The media area's face: safe fetching of a post's media into the project's media folder. */
export { DEFAULT_FETCH_POLICY, fetchMedia, keptName } from './fetch';
export type { FailedFetch, FetchOutcome, FetchPolicy, FetchReason, KeptFile } from './fetch';
