/**
 * One error model for everything the renderer can be told went wrong.
 * Main-process services produce these; the bridge carries them as plain data
 * (`{code, message, details}`) because Electron forwards only an Error's text.
 */
import { z } from 'zod';

export const ERROR_CODES = [
  /** the API refused a parameter (422 `detail` list, or 400 string detail) */
  'validation',
  /** HTTP 501: announced by the API, not available yet; never retried or charged */
  'not-available',
  /** 401/403: missing or invalid API key */
  'unauthorized',
  /** 402: credits exhausted */
  'payment-required',
  /** 429 after retries; details.retryAt says until when */
  'rate-limited',
  /** 5xx after retries */
  'upstream',
  /** no answer within the per-attempt timeout or the overall deadline */
  'timeout',
  /** network unreachable, connection refused or reset */
  'offline',
  /** the answer was not JSON, or did not match the schema */
  'malformed',
  /** HTTP 200 whose body says `status` is not `success` */
  'api-error',
  /** 404: unknown id or path */
  'not-found',
  /** cancelled by the user or because the window went away */
  'cancelled',
  /** a file could not be written (disk full, no permission, read-only folder) */
  'write-failed',
  /** the bridge refused the input (schema) */
  'bad-input',
  /** the bridge refused the sender */
  'forbidden',
  /** a record of the project this Skein cannot read: a newer Skein made it (a shared project), or it is damaged */
  'unreadable',
  /** a bug in Skein */
  'internal',
] as const;

export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const FieldError = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldError>;

export const ErrorDetails = z
  .object({
    /** what the user can do about it, in plain words */
    action: z.string().optional(),
    httpStatus: z.number().int().optional(),
    /** epoch ms when a rate limit ends */
    retryAt: z.number().optional(),
    /** epoch ms the service asked for, when longer than Skein's bounded pause (`retryAt`) */
    serviceRetryAt: z.number().optional(),
    fields: z.array(FieldError).optional(),
    /** first failing path of a schema mismatch */
    path: z.string().optional(),
    /** the service's own words in its error body (a 429's "For free-tier users, …"), shown as they came */
    serviceMessage: z.string().optional(),
    /** the refused call carried the stored key (a 403 then is the key or the service throttling it) */
    keySent: z.boolean().optional(),
    attempts: z.number().int().optional(),
  })
  .loose();
export type ErrorDetails = z.infer<typeof ErrorDetails>;

export const SkeinErrorData = z.object({
  code: ErrorCode,
  message: z.string(),
  details: ErrorDetails.optional(),
});
export type SkeinErrorData = z.infer<typeof SkeinErrorData>;

/** An Error carrying the model; thrown in main, re-created in the renderer. */
export class SkeinError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;
  constructor(code: ErrorCode, message: string, details?: ErrorDetails) {
    super(message);
    this.name = 'SkeinError';
    this.code = code;
    this.details = details;
  }
  toData(): SkeinErrorData {
    return this.details
      ? { code: this.code, message: this.message, details: this.details }
      : { code: this.code, message: this.message };
  }
  static from(data: SkeinErrorData): SkeinError {
    return new SkeinError(data.code, data.message, data.details);
  }
}

export function isSkeinError(e: unknown): e is SkeinError {
  return e instanceof SkeinError;
}

/** What the user can do, by default, for each code. */
export const DEFAULT_ACTIONS: Record<ErrorCode, string> = {
  validation: 'Check the highlighted values and try again.',
  'not-available': 'Nothing to do: the API announces this as not available yet. It was not charged.',
  unauthorized: 'Set a valid API key in Settings, or switch to Demo mode.',
  'payment-required': 'Recharge your API credits, or switch to Demo mode.',
  'rate-limited': 'Wait until the limit ends, or lower requests per second in Settings.',
  upstream: 'The service had a problem. Retry in a moment.',
  timeout: 'The service did not answer in time. Retry.',
  offline: 'Check your network connection, then retry.',
  malformed: 'The service sent something Skein cannot read. Retry; if it persists, report it.',
  'api-error': 'The service reported an error. Check the id or query and retry.',
  'not-found': 'Check the id or handle.',
  cancelled: 'Nothing to do.',
  'write-failed': 'Choose another folder, or free some disk space, then retry.',
  'bad-input': 'This is a bug in Skein; please report it.',
  forbidden: 'This is a bug in Skein; please report it.',
  unreadable: 'It is left as it is. Open it with the Skein that made it, or update Skein.',
  internal: 'This is a bug in Skein; please report it.',
};

/** A `SkeinError` with the code's default action unless `details` says another. */
export function makeError(
  code: ErrorCode,
  message: string,
  details: Omit<ErrorDetails, 'action'> & { action?: string } = {},
): SkeinError {
  return new SkeinError(code, message, { action: DEFAULT_ACTIONS[code], ...details });
}
