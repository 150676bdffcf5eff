/**
 * The core's one safe GET of an untrusted URL (a post's media, a linked page) and the address rule it keeps.
 */
export { isPublicAddress } from './address';
export {
  checkTarget,
  DEFAULT_FETCH_POLICY,
  FetchStop,
  MB,
  plainNetworkError,
  safeGet,
  send,
  type Answer,
  type FailedFetch,
  type FetchPolicy,
  type SentRequest,
} from './safe-get';
export { parseRetryAfter } from './retry-after';
