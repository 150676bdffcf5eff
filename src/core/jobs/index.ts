/** The core's ground floor for long jobs the bridge follows by polling: one per collection at once. */
export { collectionJobs } from './collection-jobs';
