/**
 * Trusted time (RFC 3161) for what a run kept, the ground floor media and pages both use: a run's manifest, a
 * token over it from the configured authority or its fallback, checked when it arrives and again on verify.
 */
export {
  askAuthority,
  checkToken,
  checkTokens,
  freshNonce,
  manifestEntries,
  timestampQuery,
  timestampRun,
  type KeptToken,
  type ManifestEntry,
  type ManifestKind,
  type TimestampOutcome,
  type TimestampRecord,
  type TimestampSettings,
  type TokenProblem,
} from './timestamp';
