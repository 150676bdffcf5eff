/**
 * One HTTP attempt: fetch with a per-attempt timeout, no redirects, a cap on
 * the answer's size, a content-type check and a JSON parse that cannot throw.
 * Failures that got no HTTP answer come back as `AttemptFailure`s in the one
 * error model.
 */
import type { Clock } from '../ports';
import { type SkeinError, makeError } from '../../shared/errors';
import type { Answer } from './policy/classify';

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface AttemptInput {
  url: string;
  headers: Record<string, string>;
  fetch: FetchLike;
  clock: Clock;
  timeoutMs: number;
  maxBytes: number;
  /** the call's signal (cancel, overall deadline) */
  signal: AbortSignal;
}

export interface HttpAnswer extends Answer {
  /** bytes of the body as received */
  bytes: number;
  /** the body as text, when it parsed as JSON (what the archive records) */
  text?: string;
}

/** A failure without an HTTP answer: network, timeout, cancellation. */
export class AttemptFailure extends Error {
  constructor(
    readonly error: SkeinError,
    readonly retryable: boolean,
    /** false when the request never left (cancelled before it started) */
    readonly sent = true,
  ) {
    super(error.message);
  }
}

class AttemptTimeout extends Error {}

const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\b/i;

export async function attempt(input: AttemptInput): Promise<HttpAnswer> {
  const { clock, signal } = input;
  if (signal.aborted) throw abortFailure(signal.reason, false);
  const ac = new AbortController();
  const onAbort = () => ac.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  const cancelTimer = clock.setTimer(input.timeoutMs, () => ac.abort(new AttemptTimeout()));
  try {
    let res: Response;
    try {
      res = await input.fetch(input.url, {
        method: 'GET',
        headers: input.headers,
        redirect: 'manual',
        signal: ac.signal,
      });
    } catch (e) {
      throw failureOf(e, ac.signal, input);
    }
    let text: string;
    let bytes: number;
    try {
      ({ text, bytes } = await readCapped(res, input.maxBytes));
    } catch (e) {
      if (e instanceof AttemptFailure) throw e;
      throw failureOf(e, ac.signal, input);
    }
    return parseAnswer(res.status, res.headers, text, bytes);
  } finally {
    cancelTimer();
    signal.removeEventListener('abort', onAbort);
  }
}

function abortFailure(reason: unknown, sent = true): AttemptFailure {
  const msg = reason instanceof Error && reason.message ? reason.message : 'The call was cancelled.';
  return new AttemptFailure(makeError('cancelled', msg), false, sent);
}

function failureOf(e: unknown, signal: AbortSignal, input: AttemptInput): AttemptFailure {
  if (signal.aborted) {
    if (signal.reason instanceof AttemptTimeout) {
      return new AttemptFailure(
        makeError('timeout', `No answer within ${Math.round(input.timeoutMs / 1000)} s.`),
        true,
      );
    }
    return abortFailure(signal.reason);
  }
  const host = safeHost(input.url);
  const cause = e instanceof Error ? ((e.cause as { code?: string } | undefined)?.code ?? e.message) : String(e);
  return new AttemptFailure(makeError('offline', `Cannot reach ${host} (${cause}).`), true);
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the service';
  }
}

async function readCapped(res: Response, maxBytes: number): Promise<{ text: string; bytes: number }> {
  const tooLarge = () =>
    new AttemptFailure(
      makeError('malformed', `The answer is larger than ${formatMiB(maxBytes)}; Skein refuses it.`, {
        httpStatus: res.status,
      }),
      false,
    );
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!res.body) return { text: '', bytes: 0 };
  // Node's typings give a fetch body `any` chunks; a fetch body's chunks are bytes
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  // one chunk (a small answer) is decoded where it is: no copy into a new buffer
  const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, bytes);
  return { text: utf8Decoder.decode(body), bytes };
}

/**
 * Decodes without state (no `stream`), so one instance serves every call. Node 24's TextDecoder (simdutf) decodes a
 * page of posts with names and emoji in half the time `buffer.transcode` to UTF-16 takes, which was the faster
 * of the two on Node 20 (a 26 KB page: 12 against 24 µs; BENCHMARKS.md).
 */
const utf8Decoder = new TextDecoder('utf-8');

function parseAnswer(status: number, headers: Headers, text: string, bytes: number): HttpAnswer {
  const retryAfter = headers.get('retry-after');
  const type = headers.get('content-type') ?? '';
  if (text.trim() === '') return { status, body: undefined, bodyProblem: 'the body is empty', retryAfter, bytes };
  if (!JSON_TYPE.test(type)) {
    return {
      status,
      body: undefined,
      bodyProblem: `expected JSON, got ${type.split(';')[0] || 'no content type'}`,
      retryAfter,
      bytes,
    };
  }
  try {
    return { status, body: JSON.parse(text) as unknown, retryAfter, bytes, text };
  } catch (e) {
    return {
      status,
      body: undefined,
      bodyProblem: `invalid JSON (${e instanceof Error ? e.message : 'parse error'})`,
      bodyCut: true,
      retryAfter,
      bytes,
    };
  }
}

/** a byte count in binary units, as the cap is set (32 MiB, not "34 MB") */
export function formatMiB(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB`;
}
