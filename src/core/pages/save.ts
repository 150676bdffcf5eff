/**
 * Sending linked pages to a web archive's save service (the Internet Archive's Save Page Now, or another that
 * answers the same way): `GET <service><url>`, one at a time, at most one request every `paceMs`, each through
 * the core's checked request (`core/net`: https only but the demo sandbox's own origin, public addresses, the
 * checked address the one connected to). The answer's head is all that is read: the capture's address from its
 * `Location` or `Content-Location`, made absolute, and never fetched — an address on this computer or a private
 * network is recorded as refused. A failure's body is read for its message, a little of it and not for long.
 *
 * Every URL sent ends with a row: the capture's address and when, or the reason in plain words (refused, rate
 * limited, timed out, failed). A 429's Retry-After is waited out when it is short (the next request waits at
 * least as long), and otherwise recorded with the URLs not sent: the next run sends them. A URL saved before is
 * never sent again, so a run cut off is resumed by running again.
 */
import type { IncomingMessage } from 'node:http';
import {
  checkTarget,
  FetchStop,
  isPublicAddress,
  parseRetryAfter,
  plainNetworkError,
  send,
  type FetchPolicy,
} from '../net';
import type { Clock } from '../ports';
import type { SaveOutcome } from './tables/tables';

/** What saving needs of the project's page tables. */
export interface SaveStore {
  recordSave: (o: SaveOutcome) => Promise<boolean>;
  savedUrls: (urls: readonly string[]) => Promise<string[]>;
}

export interface SaveDeps {
  store: SaveStore;
  /** the save service's address; the URL to save is appended to it */
  service: string;
  /** the least time between two requests to the service */
  paceMs: number;
  /** whom the request may reach (the sandbox's origin trusted in demo mode) */
  policy: Pick<FetchPolicy, 'trustedOrigins' | 'resolve'>;
  /** the time, and waits between requests (a cancel ends a wait) */
  clock: Pick<Clock, 'now' | 'sleep'>;
  /** the longest one request may take, its head (a save service takes its time: it captures the page first) */
  timeoutMs?: number;
  /** the longest a Retry-After is waited out; a longer one is recorded and the rest left for the next run */
  maxWaitMs?: number;
}

export interface SaveProgress {
  /** URLs to send this time (those saved before are not counted) */
  total: number;
  done: number;
  saved: number;
  failed: number;
  /** failures by reason */
  reasons: Partial<Record<string, number>>;
  alreadySaved: number;
}

const SAVE_TIMEOUT_MS = 2 * 60_000;
const SAVE_MAX_WAIT_MS = 5 * 60_000;
/** asks of one URL at most, when the service says to wait and the wait is short */
const TRIES = 3;
/** a failure's message: this much of its body, read for this long at most */
const MESSAGE_BYTES = 2048;
const MESSAGE_MS = 3_000;

type Answer =
  | { kind: 'saved'; status: number; captureUrl: string }
  | { kind: 'rate-limited'; status: number; waitMs: number | null }
  | { kind: 'failed'; status: number | null; reason: string; message: string };

const clock = (at: number) => new Date(at).toISOString().slice(11, 19);

export async function saveToArchive(
  urls: readonly string[],
  deps: SaveDeps,
  signal?: AbortSignal,
  onProgress?: (p: SaveProgress) => void,
): Promise<SaveProgress> {
  const distinct = [...new Set(urls)];
  const before = new Set(await deps.store.savedUrls(distinct));
  const todo = distinct.filter((u) => !before.has(u));
  const p: SaveProgress = { total: todo.length, done: 0, saved: 0, failed: 0, reasons: {}, alreadySaved: before.size };
  const report = () => onProgress?.({ ...p, reasons: { ...p.reasons } });
  report();
  const maxWait = deps.maxWaitMs ?? SAVE_MAX_WAIT_MS;
  let nextAt = 0;
  /** set when the service asked to wait longer than Skein waits: nothing more is sent this run */
  let pausedUntil: number | null = null;
  const record = async (url: string, at: number, a: Answer) => {
    const saved = a.kind === 'saved';
    await deps.store.recordSave({
      url,
      at,
      service: deps.service,
      status: a.status,
      captureUrl: saved ? a.captureUrl : null,
      reason: saved ? null : a.kind === 'rate-limited' ? 'rate-limited' : a.reason,
      message: saved
        ? null
        : a.kind === 'rate-limited'
          ? `the save service asked Skein to wait${pausedUntil ? ` until ${clock(pausedUntil)} UTC` : ''}; it is sent again on the next run`
          : a.message,
    });
    p.done++;
    if (saved) p.saved++;
    else {
      const reason = a.kind === 'rate-limited' ? 'rate-limited' : a.reason;
      p.failed++;
      p.reasons[reason] = (p.reasons[reason] ?? 0) + 1;
    }
    report();
  };
  for (const url of todo) {
    if (signal?.aborted) break;
    if (pausedUntil !== null) {
      await record(url, deps.clock.now(), { kind: 'rate-limited', status: 429, waitMs: null });
      continue;
    }
    let answer: Answer | undefined;
    let at = deps.clock.now();
    for (let attempt = 1; attempt <= TRIES && !signal?.aborted; attempt++) {
      const wait = nextAt - deps.clock.now();
      if (wait > 0) await deps.clock.sleep(wait, signal).catch(() => undefined);
      if (signal?.aborted) break;
      at = deps.clock.now();
      answer = await ask(url, deps, signal);
      // the pace counts from the answer: the request left after its address was checked, some time after `at`,
      // and only the answer's time is sure to be after it reached the service
      nextAt = deps.clock.now() + deps.paceMs;
      if (answer.kind !== 'rate-limited') break;
      const waitMs = answer.waitMs ?? deps.paceMs * 2 ** attempt;
      if (waitMs > maxWait || attempt === TRIES) {
        pausedUntil = deps.clock.now() + waitMs;
        break;
      }
      nextAt = Math.max(nextAt, deps.clock.now() + waitMs);
    }
    if (!answer || (signal?.aborted && answer.kind === 'failed' && answer.reason === 'cancelled')) break;
    await record(url, at, answer);
  }
  return { ...p, reasons: { ...p.reasons } };
}

/** One request to the save service for `url`; what it answered, as a value. */
async function ask(url: string, deps: SaveDeps, signal?: AbortSignal): Promise<Answer> {
  const target = `${deps.service}${url}`;
  const ac = new AbortController();
  const timeoutMs = deps.timeoutMs ?? SAVE_TIMEOUT_MS;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ac.abort();
  }, timeoutMs);
  const onCancel = () => ac.abort();
  signal?.addEventListener('abort', onCancel, { once: true });
  try {
    const checked = await checkTarget(target, { ...deps.policy, ...LIMITS });
    const res = await send(
      checked,
      {
        method: 'GET',
        headers: { Accept: 'text/html,*/*;q=0.8', 'Accept-Encoding': 'identity', 'User-Agent': 'Skein' },
      },
      ac.signal,
      () => undefined,
    );
    const status = res.statusCode ?? 0;
    const header = (name: string) => {
      const v = res.headers[name];
      return (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
    };
    if (status === 429) {
      res.destroy();
      return { kind: 'rate-limited', status, waitMs: parseRetryAfter(header('retry-after'), deps.clock.now()) };
    }
    if (status >= 200 && status < 400) {
      res.destroy();
      const given = status >= 300 ? (header('location') ?? header('content-location')) : header('content-location');
      if (!given)
        return {
          kind: 'failed',
          status,
          reason: 'failed',
          message: `the save service answered ${status} without the capture’s address`,
        };
      let capture: URL;
      try {
        capture = new URL(given, checked.url);
      } catch {
        return {
          kind: 'failed',
          status,
          reason: 'failed',
          message: 'the save service answered with an address that is not one',
        };
      }
      const why = unsafeCapture(capture, checked.url, deps.policy.trustedOrigins);
      if (why)
        return {
          kind: 'failed',
          status,
          reason: 'refused',
          message: `the save service named ${capture.href.slice(0, 300)} as the capture, ${why}; it was not followed`,
        };
      return { kind: 'saved', status, captureUrl: capture.href };
    }
    const words = await bodyText(res);
    res.destroy();
    const said = words ? `: ${words}` : '';
    if (status === 401 || status === 403)
      return { kind: 'failed', status, reason: 'refused', message: `the save service refused it (${status})${said}` };
    return { kind: 'failed', status, reason: 'failed', message: `the save service answered ${status}${said}` };
  } catch (error) {
    if (error instanceof FetchStop)
      return { kind: 'failed', status: error.status, reason: error.reason, message: error.message };
    if (timedOut)
      return {
        kind: 'failed',
        status: null,
        reason: 'timed-out',
        message: `the save service did not answer within ${Math.round(timeoutMs / 1000)} s`,
      };
    if (signal?.aborted) return { kind: 'failed', status: null, reason: 'cancelled', message: 'the run was cancelled' };
    return { kind: 'failed', status: null, reason: 'failed', message: plainNetworkError(error) };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onCancel);
  }
}

/** checkTarget's policy needs limits it does not use here */
const LIMITS = { maxBytes: 0, totalMs: 0, idleMs: 0, maxRedirects: 0 } as const;

/**
 * Why a capture's address is not one Skein records as a capture (it is never fetched either way): only https or
 * the service's own origin, never a name that is an address on this computer or a private network.
 */
function unsafeCapture(capture: URL, service: URL, trusted: readonly string[]): string | null {
  if (capture.origin === service.origin || trusted.includes(capture.origin)) return null;
  if (capture.protocol !== 'https:') return 'which is not an https address';
  if (capture.username || capture.password) return 'which carries a user name or password';
  const host = capture.hostname.replace(/^\[|\]$/g, '');
  if (/^[\d.]+$/.test(host) || host.includes(':') ? !isPublicAddress(host) : /^localhost$|\.localhost$/i.test(host))
    return 'an address on this computer or a private network';
  return null;
}

/** a failure's body as plain words: a little of it, read for a short while, tags and control characters out */
async function bodyText(res: IncomingMessage): Promise<string> {
  const type = String(res.headers['content-type'] ?? '');
  if (!/^text\/|json/i.test(type)) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      res.off('data', onData);
      res.off('end', done);
      res.off('error', done);
      res.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, MESSAGE_MS);
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= MESSAGE_BYTES) done();
    };
    res.on('data', onData);
    res.once('end', done);
    res.once('error', done);
    res.once('close', done);
  });
  return (
    Buffer.concat(chunks)
      .subarray(0, MESSAGE_BYTES)
      .toString('utf8')
      .replace(/<[^>]*>/g, ' ')
      // eslint-disable-next-line no-control-regex -- a server's control and direction characters are what this removes
      .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 300)
  );
}
