/**
 * One GET of an untrusted URL, safely: a post's media URL or linked page may point (itself, or through a
 * redirect) at the machine Skein runs on, never end, or claim five gigabytes. So: https only (the demo
 * sandbox's own origin aside, named by the caller), every address checked after DNS and again after each
 * redirect (followed here, at most `maxRedirects`), the checked address the one connected to, a size limit on
 * the declared length (the caller's reading holds the bytes to it as they come), a total and an idle time
 * limit, no decompression (`Accept-Encoding: identity`, a compressed answer refused).
 *
 * The caller reads a 2xx answer's body (`consume`): media hashes it into a file, pages keep it for a WARC
 * record. Every outcome is a value, with a reason in plain words; nothing throws for what a server does.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from './address';

export type FetchReason = 'gone' | 'refused' | 'too-large' | 'timed-out' | 'wrong-type' | 'failed' | 'cancelled';

export interface ResolvedAddress {
  address: string;
  family: number;
}

export interface FetchPolicy {
  /** the largest body kept, in bytes */
  maxBytes: number;
  /** the longest a whole fetch (redirects included) may take */
  totalMs: number;
  /** the longest the server may send nothing */
  idleMs: number;
  maxRedirects: number;
  /** origins fetched over plain http with no address check: the demo sandbox's own, nothing else */
  trustedOrigins: readonly string[];
  /** the host's addresses (DNS); every one must be public */
  resolve: (host: string) => Promise<readonly ResolvedAddress[]>;
}

export const DEFAULT_FETCH_POLICY: FetchPolicy = {
  maxBytes: 512 * 1024 * 1024,
  totalMs: 10 * 60_000,
  idleMs: 30_000,
  maxRedirects: 5,
  trustedOrigins: [],
  resolve: (host) => dnsLookup(host, { all: true, verbatim: true }),
};

export interface FailedFetch {
  ok: false;
  url: string;
  status: number | null;
  reason: FetchReason;
  /** what happened, in plain words */
  message: string;
}

/** Why a fetch stopped: thrown inside a fetch (by it or by the caller's reading), returned as a FailedFetch. */
export class FetchStop extends Error {
  constructor(
    readonly reason: FetchReason,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

/** The request as it was sent to the last address: what a WARC request record keeps. */
export interface SentRequest {
  method: 'GET';
  /** the path and query asked for */
  path: string;
  headers: Array<[string, string]>;
}

/** A redirect followed on the way to the answer: what a WARC keeps of it, so a replay follows it too. */
export interface Redirect {
  /** the address that answered with the redirect */
  url: string;
  status: number;
  statusText: string;
  httpVersion: string;
  /** its headers as sent (their case kept), `Location` among them; its body is not read */
  headers: Array<[string, string]>;
  request: SentRequest;
}

/** A 2xx answer handed to the caller's reading. */
export interface Answer {
  res: IncomingMessage;
  status: number;
  /** the URL that answered (after redirects) */
  finalUrl: string;
  request: SentRequest;
  /** the redirects followed to get here, in order (none when the first address answered) */
  redirects: readonly Redirect[];
  /** call on every chunk: the idle limit counts from the last one */
  touch: () => void;
  /** why the fetch was stopped (a limit, a cancel) while the body was read, if it was */
  stopped: () => FetchStop | undefined;
}

export interface Fetched<T> {
  ok: true;
  /** the URL asked for; `finalUrl` after redirects */
  url: string;
  finalUrl: string;
  status: number;
  value: T;
}

export interface GetOptions {
  /** the Accept header */
  accept: string;
  /** what a cancel is called, in plain words */
  cancelled: string;
  /** what a 404 or 410 is called, in plain words */
  gone: string;
  signal?: AbortSignal | undefined;
}

export const MB = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

/** GETs `url` under `policy`; `consume` reads a 2xx answer's body (throwing a FetchStop to refuse it). */
export async function safeGet<T>(
  url: string,
  policy: FetchPolicy,
  options: GetOptions,
  consume: (answer: Answer) => Promise<T>,
): Promise<Fetched<T> | FailedFetch> {
  const { signal } = options;
  const ac = new AbortController();
  let why: FetchStop | undefined;
  const stop = (s: FetchStop) => {
    why ??= s;
    ac.abort(s);
  };
  const total = setTimeout(
    () => stop(new FetchStop('timed-out', `it took longer than ${Math.round(policy.totalMs / 1000)} s`)),
    policy.totalMs,
  );
  const onCancel = () => stop(new FetchStop('cancelled', options.cancelled));
  signal?.addEventListener('abort', onCancel, { once: true });
  if (signal?.aborted) onCancel();
  let idle: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(
      () => stop(new FetchStop('timed-out', `the server sent nothing for ${Math.round(policy.idleMs / 1000)} s`)),
      policy.idleMs,
    );
  };
  try {
    let current = url;
    const redirects: Redirect[] = [];
    for (let hop = 0; ; hop++) {
      touch();
      const target = await checkTarget(current, policy);
      if (ac.signal.aborted) throw why ?? new FetchStop('cancelled', options.cancelled);
      const request: SentRequest = {
        method: 'GET',
        path: `${target.url.pathname}${target.url.search}`,
        headers: [
          ['Host', target.url.host],
          ['Accept', options.accept],
          ['Accept-Encoding', 'identity'],
          ['User-Agent', 'Skein'],
        ],
      };
      const res = await get(target, request, ac.signal, touch);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && location) {
        res.destroy();
        if (hop >= policy.maxRedirects)
          throw new FetchStop('refused', `it redirected more than ${policy.maxRedirects} times`, status);
        const headers: Array<[string, string]> = [];
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
          headers.push([res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string]);
        redirects.push({
          url: current,
          status,
          statusText: res.statusMessage ?? '',
          httpVersion: res.httpVersion || '1.1',
          headers,
          request,
        });
        current = new URL(location, current).href;
        continue;
      }
      if (status === 404 || status === 410) {
        res.destroy();
        throw new FetchStop('gone', `${options.gone} (the server answered ${status})`, status);
      }
      if (status === 401 || status === 403 || status === 451) {
        res.destroy();
        throw new FetchStop('refused', `the server refused it (${status})`, status);
      }
      if (status < 200 || status >= 300) {
        res.destroy();
        throw new FetchStop('failed', `the server answered ${status}`, status);
      }
      const encoding = (res.headers['content-encoding'] ?? 'identity').toLowerCase();
      if (encoding !== 'identity') {
        res.destroy();
        throw new FetchStop(
          'wrong-type',
          `the server sent a compressed body (${encoding}), which is never unpacked`,
          status,
        );
      }
      const declared = res.headers['content-length'] === undefined ? undefined : Number(res.headers['content-length']);
      if (declared !== undefined && declared > policy.maxBytes) {
        res.destroy();
        throw new FetchStop('too-large', `it is ${MB(declared)}, over the ${MB(policy.maxBytes)} limit`, status);
      }
      try {
        const value = await consume({ res, status, finalUrl: current, request, redirects, touch, stopped: () => why });
        return { ok: true, url, finalUrl: current, status, value };
      } catch (error) {
        res.destroy();
        throw why ?? error;
      }
    }
  } catch (error) {
    const s = why ?? (error instanceof FetchStop ? error : new FetchStop('failed', plainNetworkError(error)));
    return { ok: false, url, status: s.status, reason: s.reason, message: s.message };
  } finally {
    clearTimeout(total);
    clearTimeout(idle);
    signal?.removeEventListener('abort', onCancel);
  }
}

export interface Target {
  url: URL;
  /** the checked address to connect to; absent for a trusted origin */
  pinned?: ResolvedAddress;
}

/**
 * Whether `href` may be reached under `policy`: a trusted origin as it is, else https to public addresses only
 * (the first one pinned for the connection). Throws a `FetchStop` saying why not.
 */
export async function checkTarget(href: string, policy: FetchPolicy): Promise<Target> {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    throw new FetchStop('refused', 'the address is not a web address');
  }
  if (policy.trustedOrigins.includes(url.origin)) return { url };
  if (url.protocol !== 'https:')
    throw new FetchStop('refused', `only https addresses are fetched, not ${url.protocol}//`);
  if (url.username || url.password) throw new FetchStop('refused', 'the address carries a user name or password');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  let addresses: readonly ResolvedAddress[];
  if (family) addresses = [{ address: host, family }];
  else {
    try {
      addresses = await policy.resolve(host);
    } catch {
      throw new FetchStop('failed', `the name ${host} could not be found`);
    }
  }
  const first = addresses[0];
  if (!first) throw new FetchStop('failed', `the name ${host} has no address`);
  const inner = addresses.find((a) => !isPublicAddress(a.address));
  if (inner)
    throw new FetchStop(
      'refused',
      `${host} points to a private or local address (${inner.address}), which is never fetched`,
    );
  return { url, pinned: first };
}

function get(target: Target, sent: SentRequest, signal: AbortSignal, touch: () => void): Promise<IncomingMessage> {
  const headers = Object.fromEntries(sent.headers.filter(([name]) => name !== 'Host'));
  return send(target, { method: 'GET', headers }, signal, touch);
}

/**
 * One request to a checked target, connected to the checked address (never a second DNS answer); resolves with
 * the response's head. A POST's body (a timestamp query) is sent whole with its length.
 */
export function send(
  target: Target,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: Uint8Array },
  signal: AbortSignal,
  touch: () => void,
): Promise<IncomingMessage> {
  const { url, pinned } = target;
  const lookup: LookupFunction | undefined = pinned
    ? (_host, options, callback) => {
        // connect to the address that was checked, never a second DNS answer
        if ((options as { all?: boolean }).all)
          (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [pinned]);
        else callback(null, pinned.address, pinned.family);
      }
    : undefined;
  const request = url.protocol === 'https:' ? https.request : http.request;
  const headers = init.body ? { ...init.headers, 'content-length': String(init.body.byteLength) } : init.headers;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method, signal, headers, ...(lookup ? { lookup } : {}) });
    req.once('response', (res) => {
      touch();
      resolve(res);
    });
    req.once('error', reject);
    req.end(init.body);
  });
}

/** a network error in plain words */
export function plainNetworkError(error: unknown): string {
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'the server refused the connection';
    case 'ECONNRESET':
      return 'the connection was cut';
    case 'ETIMEDOUT':
      return 'the connection timed out';
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return 'the server’s certificate could not be trusted';
    default:
      return `the fetch failed${code ? ` (${code})` : ''}`;
  }
}
