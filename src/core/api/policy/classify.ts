/**
 * What one HTTP answer means: success, a failure to retry, or a failure to
 * report. Pure: the attempt loop (`../execute.ts`) decides when to stop, this
 * module only says what each answer is, in the one error model.
 */
import { operation, type OperationId } from '../../../shared/api/catalog';
import { makeError, type ErrorCode, type SkeinError, type FieldError } from '../../../shared/errors';
import { MAX_PAUSE_MS } from './rate-limiter';
import { parseRetryAfter } from '../../net';
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
  /**
   * a transient failure: retry if attempts and deadline allow, else report `error`. `keyOrThrottle`: a 403
   * "API key required" to a key that was sent, which the service also answers while it throttles: retried
   * once only (execute.ts), then `keyRefusedTwice(error)` is reported.
   */
  | { kind: 'retry'; error: SkeinError; retryAfterMs: number | null; keyOrThrottle?: true }
  | { kind: 'fail'; error: SkeinError };

/** What the attempt knew when it asked: whether it sent a key (the 403 "API key required" is ambiguous then). */
export interface AskedWith {
  keySent: boolean;
}

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

/**
 * The HTTP status a 200 body names with an `error` key (`{"error": "Forbidden", …}`, a relay's way);
 * `other` for an error it does not name by a status phrase; null when the body has no error.
 */
function relayedStatus(body: Record<string, unknown>): number | 'other' | null {
  const error = body.error;
  if (typeof error !== 'string' || error.trim() === '') return null;
  const phrase = error.trim().toLowerCase();
  const byPhrase: Record<string, number> = {
    'too many requests': 429,
    forbidden: 403,
    unauthorized: 401,
    'payment required': 402,
    'not found': 404,
    'bad request': 400,
  };
  return byPhrase[phrase] ?? 'other';
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

export function rateLimitedMessage(retryAt: number, said?: string): string {
  return `Rate limited by the service until ${new Date(retryAt).toLocaleTimeString()}.${said ? ` It said: “${said}”` : ''}`;
}

const WORD_NUMBERS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, ten: 10 };

/**
 * The pace a 429's words name, as the time between requests in ms: "one request every 5 seconds" (the live
 * free tier's), "2 requests per second", "10 requests per minute"; null when they name none.
 */
export function paceFromWords(said: string | undefined): number | null {
  if (!said) return null;
  const n = (w: string): number => WORD_NUMBERS[w.toLowerCase()] ?? Number(w);
  const every =
    /\b(one|a|an)?\s*request\s+(?:every|per|each)\s+(\d+(?:\.\d+)?|one|two|three|five|ten)?\s*(second|minute)s?\b/i.exec(
      said,
    );
  if (every) {
    const count = every[2] ? n(every[2]) : 1;
    const ms = count * (every[3]!.toLowerCase() === 'minute' ? 60_000 : 1000);
    return Number.isFinite(ms) && ms > 0 && ms <= 3_600_000 ? ms : null;
  }
  const per = /\b(\d+(?:\.\d+)?|one|two|three|five|ten)\s+requests?\s+(?:per|a|each|every)\s+(second|minute)\b/i.exec(
    said,
  );
  if (per) {
    const count = n(per[1]!);
    const ms = (per[2]!.toLowerCase() === 'minute' ? 60_000 : 1000) / count;
    return Number.isFinite(ms) && ms > 0 && ms <= 3_600_000 ? ms : null;
  }
  return null;
}

/** whether a 429's words are about the free tier (the live service's: "For free-tier users, …") */
export const namesFreeTier = (said: string | undefined): boolean => !!said && /\bfree[- ]?tier\b/i.test(said);

/** what to do about a rate limit, from the service's words when they say it */
function rateLimitAction(said: string | undefined): string | undefined {
  if (!namesFreeTier(said)) return undefined;
  const pace = paceFromWords(said);
  const perSecond = pace ? Math.round((1000 / pace) * 1000) / 1000 : null;
  return `Lower the pace in Settings (Requests per second${perSecond ? `: ${perSecond} or less, one request every ${pace! / 1000} s` : ''}); a higher balance with the API provider raises this limit. Skein waits for the countdown, then goes on.`;
}

/** the 403 body that also comes back to a key that was sent while the service throttles it */
const KEY_REQUIRED = /api key required|include x-api-key/i;

/** how long to wait before asking again after an ambiguous 403: the free tier's interval and a second */
const KEY_OR_THROTTLE_WAIT_MS = 6_000;

function keyOrThrottle(httpStatus: number, said: string, waitMs: number, nowMs: number): Verdict {
  return {
    kind: 'retry',
    keyOrThrottle: true,
    retryAfterMs: waitMs,
    error: makeError(
      'rate-limited',
      `The service answered HTTP ${httpStatus} “${said}” although Skein sent your key. It gives this answer to keys it is throttling too, so Skein waits ${Math.round(waitMs / 1000)} s and asks once more.`,
      {
        httpStatus,
        retryAt: nowMs + waitMs,
        serviceMessage: said,
        keySent: true,
        action: 'Nothing to do yet: your stored key is kept either way.',
      },
    ),
  };
}

/**
 * The error once an ambiguous 403 came back a second time, after the wait: most likely the key, but never
 * a reason to clear or distrust the stored one (the service throttles with the same words).
 */
export function keyRefusedTwice(first: SkeinError, waitedMs: number | null): SkeinError {
  const said = typeof first.details?.serviceMessage === 'string' ? first.details.serviceMessage : 'API key required';
  const status = first.details?.httpStatus ?? 403;
  const again =
    waitedMs === null
      ? 'Skein could not wait and ask again within this call'
      : `Skein waited ${Math.round(waitedMs / 1000)} s and asked again: same answer`;
  return makeError(
    'unauthorized',
    `The service refused your API key: it answered HTTP ${status} “${said}” although Skein sent it. ${again}, so it is most likely the key, not the pace. Your stored key was kept.`,
    {
      httpStatus: status,
      serviceMessage: said,
      keySent: true,
      action:
        'Check the key in Settings (Skein kept it); if it is right, the service may still be throttling: lower the pace or retry in a minute.',
    },
  );
}

export function classifyAnswer(id: OperationId, a: Answer, nowMs: number, asked?: AskedWith): Verdict {
  const { status } = a;
  const said = serverMessage(a.body);
  const httpStatus = status;
  /** a failure to report, with the answer's status first among its details */
  const fail = (code: ErrorCode, message: string, details: Parameters<typeof makeError>[2] = {}): Verdict => ({
    kind: 'fail',
    error: makeError(code, message, { httpStatus, ...details }),
  });
  // a relay may deliver the service's error inside a 200 (api-field-notes.md, "Round 2"): read it as that error
  if (status >= 200 && status < 300 && isObject(a.body) && a.body.status === undefined) {
    const relayed = relayedStatus(a.body);
    if (relayed === 'other') return fail('api-error', `The service reported an error${quoted(said)}.`);
    if (relayed !== null) return classifyAnswer(id, { ...a, status: relayed }, nowMs, asked);
  }
  if (status >= 200 && status < 300) {
    if (a.bodyProblem !== undefined) {
      const error = makeError('malformed', `The answer could not be read: ${a.bodyProblem}.`, { httpStatus });
      // a cut body is a transport failure that happened to arrive with a 200: retried like a network error
      return a.bodyCut ? { kind: 'retry', error, retryAfterMs: null } : { kind: 'fail', error };
    }
    if (!isObject(a.body)) return fail('malformed', 'The answer is not a JSON object.', { path: '(root)' });
    const st = a.body.status;
    if (st !== undefined && st !== 'success')
      return fail('api-error', `The service reported an error${quoted(said ?? scalarText(st, JSON.stringify(st)))}.`);
    return { kind: 'ok' };
  }
  if (status === 501)
    return fail('not-available', `“${operation(id).title}” is announced by the API but not available yet.`);
  if (status === 429) {
    const retryAfter = parseRetryAfter(a.retryAfter, nowMs);
    // without a Retry-After, the pace the service's words name ("one request every 5 seconds") is the wait
    const asked = retryAfter ?? paceFromWords(said);
    const action = rateLimitAction(said);
    const words = (said ? { serviceMessage: said } : {}) as { serviceMessage?: string };
    // Skein pauses at most MAX_PAUSE_MS; a longer wait is shown in the service's own words, not obeyed silently
    const wait = asked === null ? null : Math.min(asked, MAX_PAUSE_MS);
    const longer = asked !== null && asked > MAX_PAUSE_MS;
    const header = `Retry-After: “${(a.retryAfter ?? '').trim().slice(0, 100)}”${said ? `; “${said}”` : ''}`;
    return {
      kind: 'retry',
      retryAfterMs: wait,
      error:
        wait === null
          ? makeError('rate-limited', `The service is rate limiting requests${quoted(said)}.`, {
              httpStatus,
              ...words,
              ...(action ? { action } : {}),
            })
          : longer
            ? makeError(
                'rate-limited',
                `The service asks Skein to wait until ${new Date(nowMs + asked).toUTCString()} (${header}). Skein pauses calls to it for at most ${MAX_PAUSE_MS / 60_000} minutes.`,
                {
                  httpStatus,
                  retryAt: nowMs + wait,
                  serviceRetryAt: nowMs + asked,
                  ...words,
                  action: action ?? 'Wait for the countdown, or use Try now to ask the service again sooner.',
                },
              )
            : makeError('rate-limited', rateLimitedMessage(nowMs + wait, said), {
                httpStatus,
                retryAt: nowMs + wait,
                ...words,
                ...(action ? { action } : {}),
              }),
    };
  }
  if (status === 408 || status >= 500) {
    return {
      kind: 'retry',
      retryAfterMs: parseRetryAfter(a.retryAfter, nowMs),
      error:
        status === 408
          ? makeError('timeout', 'The service timed out (HTTP 408).', { httpStatus })
          : makeError('upstream', `The service failed (HTTP ${status})${quoted(said)}.`, { httpStatus }),
    };
  }
  if (status === 400 || status === 422) {
    const fields = validationFields(id, a.body);
    const summary = fields.map((f) => `${f.field}: ${f.message}`).join('; ');
    return fail('validation', `The API refused the request${summary ? ` (${summary})` : quoted(said)}.`, { fields });
  }
  if (status === 403 && asked?.keySent && said !== undefined && KEY_REQUIRED.test(said)) {
    const retryAfter = parseRetryAfter(a.retryAfter, nowMs);
    return keyOrThrottle(httpStatus, said, Math.min(retryAfter ?? KEY_OR_THROTTLE_WAIT_MS, MAX_PAUSE_MS), nowMs);
  }
  if (status === 401 || status === 403)
    return fail('unauthorized', `The API key was refused (HTTP ${status})${quoted(said)}.`);
  if (status === 402) return fail('payment-required', `Your API credits are used up (HTTP 402)${quoted(said)}.`);
  // the live service answers 404 for a space it does not know and for one not started yet
  if (status === 404 && id === 'spaceDetail')
    return fail('not-found', `Audio space not found or not started yet (HTTP 404)${quoted(said)}.`);
  if (status === 404 || status === 405) return fail('not-found', `Not found (HTTP ${status})${quoted(said)}.`);
  if (status >= 300 && status < 400) {
    return fail(
      'api-error',
      `The service answered with a redirect (HTTP ${status}); Skein does not follow redirects, so the key only ever goes to the configured base URL.`,
      { action: 'Check the base URL in Settings.' },
    );
  }
  return fail('api-error', `The service refused the request (HTTP ${status})${quoted(said)}.`);
}
