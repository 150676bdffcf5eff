/**
 * The core's one safe GET of an untrusted URL (a post's media, a linked page) and the address rule it keeps.
 */
export { isPublicAddress } from './address';
export {
  DEFAULT_FETCH_POLICY,
  FetchStop,
  MB,
  safeGet,
  type Answer,
  type FailedFetch,
  type Fetched,
  type FetchPolicy,
  type FetchReason,
  type GetOptions,
  type ResolvedAddress,
  type SentRequest,
} from './safe-get';
