/** The core's ground floor for long jobs the bridge follows by polling: one per collection at once. */
export { collectionJobs, type CollectionJob, type CollectionJobs, type JobState, type RunEnd } from './collection-jobs';
