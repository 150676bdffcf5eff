/**
 * One media file, fetched safely and kept by content. A post's media URL is untrusted: it (or a redirect it
 * leads to) may point at the machine Skein runs on, never end, claim five gigabytes, serve a web page as a
 * photo or a gzip bomb. So: https only (the demo sandbox's own origin aside), every address checked after DNS
 * and again after each redirect (followed here, at most five), the checked address the one connected to, a
 * size limit on the declared length and on the bytes as they come, a total and an idle time limit, no
 * decompression, the bytes' own type checked against the declared one. Bytes go to a temporary file inside the
 * media folder, hashed as they are written, and are renamed to their SHA-256 name when whole; a file already
 * there with that name is the same bytes, so the new copy is dropped (stored once by content).
 *
 * Every outcome is a value: the file, or a reason in plain words (gone, refused, too large, timed out, wrong
 * type, failed, cancelled). Nothing throws for what a server does.
 */
import { createHash, randomUUID } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns/promises';
import { open, rename, rm, stat } from 'node:fs/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { join } from 'node:path';
import { isPublicAddress } from './address';
import { declaredMatches, EXTENSION, sniffMime, SNIFF_BYTES, type MediaMime } from './sniff';

export type FetchReason = 'gone' | 'refused' | 'too-large' | 'timed-out' | 'wrong-type' | 'failed' | 'cancelled';

export interface ResolvedAddress {
  address: string;
  family: number;
}

export interface FetchPolicy {
  /** the largest file kept, in bytes */
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

export interface KeptFile {
  ok: true;
  /** the URL asked for; `finalUrl` after redirects */
  url: string;
  finalUrl: string;
  status: number;
  sha256: string;
  size: number;
  mime: MediaMime;
  /** the file's name inside the media folder */
  name: string;
  /** false when the folder already had these bytes: nothing new was stored */
  stored: boolean;
}

export interface FailedFetch {
  ok: false;
  url: string;
  status: number | null;
  reason: FetchReason;
  /** what happened, in plain words */
  message: string;
}

export type FetchOutcome = KeptFile | FailedFetch;

/** the name a kept file has in the media folder: its hash and its type's extension */
const keptName = (sha256: string, mime: MediaMime): string => `${sha256}.${EXTENSION[mime]}`;

/** a fetch stopped for a reason, in plain words (thrown inside, always returned as a value) */
export class Stop extends Error {
  constructor(
    readonly reason: FetchReason,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

const MB = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

/** Fetches `url` into `dir` (the project's media folder, which must exist). */
export async function fetchMedia(
  url: string,
  dir: string,
  policy: FetchPolicy = DEFAULT_FETCH_POLICY,
  signal?: AbortSignal,
): Promise<FetchOutcome> {
  const ac = new AbortController();
  let why: Stop | undefined;
  const stop = (s: Stop) => {
    why ??= s;
    ac.abort(s);
  };
  const total = setTimeout(
    () => stop(new Stop('timed-out', `it took longer than ${Math.round(policy.totalMs / 1000)} s`)),
    policy.totalMs,
  );
  const onCancel = () => stop(new Stop('cancelled', 'the keeping was cancelled'));
  signal?.addEventListener('abort', onCancel, { once: true });
  if (signal?.aborted) onCancel();
  let idle: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(
      () => stop(new Stop('timed-out', `the server sent nothing for ${Math.round(policy.idleMs / 1000)} s`)),
      policy.idleMs,
    );
  };
  try {
    let current = url;
    for (let hop = 0; ; hop++) {
      touch();
      const target = await checkTarget(current, policy);
      if (ac.signal.aborted) throw why ?? new Stop('cancelled', 'the keeping was cancelled');
      const res = await send(target, { method: 'GET', headers: MEDIA_HEADERS }, ac.signal, touch);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && location) {
        res.destroy();
        if (hop >= policy.maxRedirects)
          throw new Stop('refused', `it redirected more than ${policy.maxRedirects} times`, status);
        current = new URL(location, current).href;
        continue;
      }
      if (status === 404 || status === 410) {
        res.destroy();
        throw new Stop('gone', `the file is gone (the server answered ${status})`, status);
      }
      if (status === 401 || status === 403 || status === 451) {
        res.destroy();
        throw new Stop('refused', `the server refused it (${status})`, status);
      }
      if (status < 200 || status >= 300) {
        res.destroy();
        throw new Stop('failed', `the server answered ${status}`, status);
      }
      const kept = await keep(res, dir, policy, touch, () => why);
      return { ok: true, url, finalUrl: current, status, ...kept };
    }
  } catch (error) {
    const s = why ?? (error instanceof Stop ? error : new Stop('failed', plainNetworkError(error)));
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
 * (the first one pinned for the connection). Throws a `Stop` saying why not.
 */
export async function checkTarget(href: string, policy: FetchPolicy): Promise<Target> {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    throw new Stop('refused', 'the address is not a web address');
  }
  if (policy.trustedOrigins.includes(url.origin)) return { url };
  if (url.protocol !== 'https:') throw new Stop('refused', `only https addresses are fetched, not ${url.protocol}//`);
  if (url.username || url.password) throw new Stop('refused', 'the address carries a user name or password');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  let addresses: readonly ResolvedAddress[];
  if (family) addresses = [{ address: host, family }];
  else {
    try {
      addresses = await policy.resolve(host);
    } catch {
      throw new Stop('failed', `the name ${host} could not be found`);
    }
  }
  const first = addresses[0];
  if (!first) throw new Stop('failed', `the name ${host} has no address`);
  const inner = addresses.find((a) => !isPublicAddress(a.address));
  if (inner)
    throw new Stop(
      'refused',
      `${host} points to a private or local address (${inner.address}), which is never fetched`,
    );
  return { url, pinned: first };
}

const MEDIA_HEADERS = { accept: 'image/*, video/mp4', 'accept-encoding': 'identity', 'user-agent': 'Skein' };

/** One request to a checked target, connected to the checked address; resolves with the response's head. */
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
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: init.method,
      signal,
      headers: init.body ? { ...init.headers, 'content-length': String(init.body.byteLength) } : init.headers,
      ...(lookup ? { lookup } : {}),
    });
    req.once('response', (res) => {
      touch();
      resolve(res);
    });
    req.once('error', reject);
    req.end(init.body);
  });
}

async function keep(
  res: IncomingMessage,
  dir: string,
  policy: FetchPolicy,
  touch: () => void,
  why: () => Stop | undefined,
): Promise<Omit<KeptFile, 'ok' | 'url' | 'finalUrl' | 'status'>> {
  const status = res.statusCode ?? null;
  const encoding = (res.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') {
    res.destroy();
    throw new Stop('wrong-type', `the server sent a compressed body (${encoding}), which is never unpacked`, status);
  }
  const declaredLength =
    res.headers['content-length'] === undefined ? undefined : Number(res.headers['content-length']);
  if (declaredLength !== undefined && declaredLength > policy.maxBytes) {
    res.destroy();
    throw new Stop('too-large', `the file is ${MB(declaredLength)}, over the ${MB(policy.maxBytes)} limit`, status);
  }
  const declaredType = res.headers['content-type'];
  const temp = join(dir, `.partial-${randomUUID()}`);
  const file = await open(temp, 'wx');
  const hash = createHash('sha256');
  let size = 0;
  let head = Buffer.alloc(0);
  let mime: MediaMime | undefined;
  const sniff = () => {
    mime = sniffMime(head);
    if (!mime)
      throw new Stop(
        'wrong-type',
        `the bytes are not a photo or video (declared ${declaredType ?? 'nothing'})`,
        status,
      );
    if (!declaredMatches(declaredType, mime))
      throw new Stop('wrong-type', `the server said ${declaredType} but the bytes are ${mime}`, status);
  };
  let done = false;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      touch();
      size += chunk.length;
      if (size > policy.maxBytes)
        throw new Stop('too-large', `the file grew past the ${MB(policy.maxBytes)} limit`, status);
      if (!mime && head.length < SNIFF_BYTES) {
        head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
        if (head.length >= SNIFF_BYTES) sniff();
      }
      hash.update(chunk);
      await file.write(chunk);
    }
    const stopped = why();
    if (stopped) throw stopped;
    if (!res.complete) throw new Stop('failed', 'the connection closed before the file was whole', status);
    if (declaredLength !== undefined && size !== declaredLength)
      throw new Stop('failed', 'the file ended before its declared length', status);
    if (!mime) sniff();
    await file.close();
    done = true;
    const sha256 = hash.digest('hex');
    const name = keptName(sha256, mime as MediaMime);
    const final = join(dir, name);
    const there = await stat(final).then(
      (s) => s.isFile(),
      () => false,
    );
    if (there) await rm(temp, { force: true });
    else await rename(temp, final);
    return { sha256, size, mime: mime as MediaMime, name, stored: !there };
  } catch (error) {
    res.destroy();
    if (!done) await file.close().catch(() => {});
    await rm(temp, { force: true });
    throw why() ?? error;
  }
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
