/**
 * The API client's public surface: what the session composes (client, limiter, response store) and what
 * core/index.ts wires (the bridge's `api` handlers). Everything else in this folder is the client's own.
 */
export { createApiClient, type AttemptRecord, type Target, type UsageSink } from './client';
export type { RequestPolicy } from './execute';
export { createApiHandlers } from './handlers';
export { createRateLimiter, type RateLimiter } from './policy/rate-limiter';
export { DEFAULT_STORE_BYTES, ResponseStore } from './response-store';
export type { FetchLike } from './transport';
export type { AnswerArchive, ApiClient } from './types';
