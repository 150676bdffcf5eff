/**
 * What one HTTP answer means: success, a failure to retry, or a failure to
 * report. Pure: the attempt loop (`../execute.ts`) decides when to stop, this
 * module only says what each answer is, in the one error model.
 */
import { operation, type OperationId } from '../../../shared/api/catalog';
import { makeError, type SkeinError, type FieldError } from '../../../shared/errors';
import { MAX_PAUSE_MS } from './rate-limiter';
import { parseRetryAfter } from './retry-after';
import { scalarText } from '../../../shared/scalar-text';

export interface Answer {
  status: number;
  /** parsed JSON body, or undefined when there was none or it was not JSON */
  body: unknown;
  /** why the body could not be read as JSON (undefined when it could) */
  bodyProblem?: string;
  /** the body says JSON but does not parse: most likely cut off on the way, so worth another attempt */
  bodyCut?: boolean;
  retryAfter: string | null;
}

export type Verdict =
  | { kind: 'ok' }
  /** a transient failure: retry if attempts and deadline allow, else report `error` */
  | { kind: 'retry'; error: SkeinError; retryAfterMs: number | null }
  | { kind: 'fail'; error: SkeinError };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** the service's own words from an error body (`message`, `msg`, `error` or a string `detail`) */
function serverMessage(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  for (const k of ['message', 'msg', 'detail', 'error']) {
    const v = body[k];
    if (typeof v === 'string' && v.trim() !== '') return v.trim().slice(0, 300);
  }
  return undefined;
}

const LOCATION_WORDS = new Set(['query', 'body', 'path', 'header', 'headers']);

/** Field errors from the spec's `detail` list or the live service's `detail` string. */
export function validationFields(id: OperationId, body: unknown): FieldError[] {
  if (!isObject(body)) return [];
  const detail = body.detail;
  if (Array.isArray(detail)) {
    return detail.filter(isObject).map((d) => {
      const loc = Array.isArray(d.loc) ? d.loc : [];
      const named = loc.filter((x): x is string => typeof x === 'string' && !LOCATION_WORDS.has(x));
      return { field: named.at(-1) ?? 'params', message: typeof d.msg === 'string' ? d.msg : 'invalid value' };
    });
  }
  const text = serverMessage(body);
  if (text === undefined) return [];
  const names = operation(id).params.map((p) => p.name);
  const field = names.find((n) => new RegExp(`(^|[^A-Za-z0-9_])${n}([^A-Za-z0-9_]|$)`).test(text));
  return [{ field: field ?? 'params', message: text }];
}

function quoted(s: string | undefined): string {
  return s ? `: “${s}”` : '';
}

export function rateLimitedMessage(retryAt: number): string {
  return `Rate limited by the service until ${new Date(retryAt).toLocaleTimeString()}.`;
}

export function classifyAnswer(id: OperationId, a: Answer, nowMs: number): Verdict {
  const { status } = a;
  const said = serverMessage(a.body);
  const httpStatus = status;
  if (status >= 200 && status < 300) {
    if (a.bodyProblem !== undefined) {
      const error = makeError('malformed', `The answer could not be read: ${a.bodyProblem}.`, { httpStatus });
      // a cut body is a transport failure that happened to arrive with a 200: retried like a network error
      return a.bodyCut ? { kind: 'retry', error, retryAfterMs: null } : { kind: 'fail', error };
    }
    if (!isObject(a.body))
      return {
        kind: 'fail',
        error: makeError('malformed', 'The answer is not a JSON object.', { httpStatus, path: '(root)' }),
      };
    const st = a.body.status;
    if (st !== undefined && st !== 'success') {
      return {
        kind: 'fail',
        error: makeError(
          'api-error',
          `The service reported an error${quoted(said ?? scalarText(st, JSON.stringify(st)))}.`,
          { httpStatus },
        ),
      };
    }
    return { kind: 'ok' };
  }
  if (status === 501) {
    return {
      kind: 'fail',
      error: makeError('not-available', `“${operation(id).title}” is announced by the API but not available yet.`, {
        httpStatus,
      }),
    };
  }
  if (status === 429) {
    const asked = parseRetryAfter(a.retryAfter, nowMs);
    // Skein pauses at most MAX_PAUSE_MS; a longer wait is shown in the service's own words, not obeyed silently
    const wait = asked === null ? null : Math.min(asked, MAX_PAUSE_MS);
    const longer = asked !== null && asked > MAX_PAUSE_MS;
    const words = `Retry-After: “${(a.retryAfter ?? '').trim().slice(0, 100)}”${said ? `; “${said}”` : ''}`;
    return {
      kind: 'retry',
      retryAfterMs: wait,
      error:
        wait === null
          ? makeError('rate-limited', `The service is rate limiting requests${quoted(said)}.`, { httpStatus })
          : longer
            ? makeError(
                'rate-limited',
                `The service asks Skein to wait until ${new Date(nowMs + asked).toUTCString()} (${words}). Skein pauses calls to it for at most ${MAX_PAUSE_MS / 60_000} minutes.`,
                {
                  httpStatus,
                  retryAt: nowMs + wait,
                  serviceRetryAt: nowMs + asked,
                  action: 'Wait for the countdown, or use Try now to ask the service again sooner.',
                },
              )
            : makeError('rate-limited', rateLimitedMessage(nowMs + wait), { httpStatus, retryAt: nowMs + wait }),
    };
  }
  if (status === 408) {
    return {
      kind: 'retry',
      retryAfterMs: parseRetryAfter(a.retryAfter, nowMs),
      error: makeError('timeout', 'The service timed out (HTTP 408).', { httpStatus }),
    };
  }
  if (status >= 500) {
    return {
      kind: 'retry',
      retryAfterMs: parseRetryAfter(a.retryAfter, nowMs),
      error: makeError('upstream', `The service failed (HTTP ${status})${quoted(said)}.`, { httpStatus }),
    };
  }
  if (status === 400 || status === 422) {
    const fields = validationFields(id, a.body);
    const summary = fields.map((f) => `${f.field}: ${f.message}`).join('; ');
    return {
      kind: 'fail',
      error: makeError('validation', `The API refused the request${summary ? ` (${summary})` : quoted(said)}.`, {
        httpStatus,
        fields,
      }),
    };
  }
  if (status === 401 || status === 403) {
    return {
      kind: 'fail',
      error: makeError('unauthorized', `The API key was refused (HTTP ${status})${quoted(said)}.`, { httpStatus }),
    };
  }
  if (status === 402) {
    return {
      kind: 'fail',
      error: makeError('payment-required', `Your API credits are used up (HTTP 402)${quoted(said)}.`, { httpStatus }),
    };
  }
  if (status === 404 && id === 'spaceDetail') {
    // the live service answers 404 for a space it does not know and for one not started yet
    return {
      kind: 'fail',
      error: makeError('not-found', `Audio space not found or not started yet (HTTP 404)${quoted(said)}.`, {
        httpStatus,
      }),
    };
  }
  if (status === 404 || status === 405) {
    return {
      kind: 'fail',
      error: makeError('not-found', `Not found (HTTP ${status})${quoted(said)}.`, { httpStatus }),
    };
  }
  if (status >= 300 && status < 400) {
    return {
      kind: 'fail',
      error: makeError(
        'api-error',
        `The service answered with a redirect (HTTP ${status}); Skein does not follow redirects, so the key only ever goes to the configured base URL.`,
        {
          httpStatus,
          action: 'Check the base URL in Settings.',
        },
      ),
    };
  }
  return {
    kind: 'fail',
    error: makeError('api-error', `The service refused the request (HTTP ${status})${quoted(said)}.`, { httpStatus }),
  };
}
