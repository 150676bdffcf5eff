/**
 * Capturing the pages a set of posts links to: each URL not captured yet is fetched (the core's safe GET, in
 * demo mode from the sandbox's small web through `route`, the URL recorded still the post's), a few at a time;
 * each page becomes a response and a request record in this run's WARC (and so do its images, at most eight,
 * fetched the same safe way, so it replays whole), and the run's captures one WACZ in the project's pages
 * folder. Every URL ends with a row: captured (its WACZ, the record's offset) or the reason it was not. A URL
 * captured before is never fetched again, so capturing again costs nothing and a run that was cancelled or cut
 * off is resumed by capturing again; what failed is tried once more.
 *
 * A capture's row is written only once its WACZ is whole and in place: no row ever names a file that is not
 * there. A failure's row is written at once. Then the run's WACZ gets trusted time of its own (core/timestamp,
 * with media's settings: the configured authority, then its fallback): a manifest naming it (its SHA-256, size
 * and name) and a token over that, every attempt, or why none was made, in `page_timestamps`.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import { FetchStop, MB, safeGet, type Answer, type FetchPolicy } from '../net';
import {
  timestampRun,
  type KeptToken,
  type ManifestKind,
  type TimestampOutcome,
  type TimestampRecord,
  type TimestampSettings,
} from '../timestamp';
import { distinctUrls, type PageLink } from './links';
import type { PageLinkRow, PageOutcome, PageRow, SaveOutcome, WaczRow } from './tables/tables';
import { titleOf, writeWacz, type WaczPage } from './wacz';
import { WarcWriter, type Capture } from './warc';

/** What capturing needs of the project's page tables (the part's calls, across the archive's thread). */
export interface PagesStore {
  recordLinks: (links: readonly PageLinkRow[]) => Promise<void>;
  recordOutcome: (o: PageOutcome) => Promise<boolean>;
  capturedUrls: (urls: readonly string[]) => Promise<string[]>;
  outcomes: (urls: readonly string[]) => Promise<PageRow[]>;
  summary: () => Promise<{ captured: number; failed: number; bytes: number }>;
  recordSave: (o: SaveOutcome) => Promise<boolean>;
  savedUrls: (urls: readonly string[]) => Promise<string[]>;
  recordWacz: (w: { name: string; sha256: string; size: number; at: number }) => Promise<void>;
  waczs: () => Promise<WaczRow[]>;
  recordTimestamp: (r: TimestampRecord) => Promise<void>;
  tokens: () => Promise<KeptToken[]>;
}

/** Demo mode's detour: the address a linked URL is fetched from, and the linked URL an address stands for. */
export interface PageRoute {
  to: (url: string) => string;
  back: (fetched: string) => string;
}

export interface CaptureDeps {
  store: PagesStore;
  /** the project's pages folder */
  folder: string;
  policy: FetchPolicy;
  now: () => number;
  /** where a linked URL is fetched from (demo mode: the sandbox's small web); the URL itself otherwise */
  route?: PageRoute;
  /** fetches at once */
  concurrency?: number;
  /** the software named in the WARC and the WACZ */
  software: string;
  /** where the run's trusted time comes from (the same settings as media's); none asked when absent */
  timestamp?: TimestampSettings;
}

export interface CaptureProgress {
  /** URLs to fetch this time (those captured before are not counted) */
  total: number;
  done: number;
  captured: number;
  /** bytes of the pages captured this time */
  bytes: number;
  failed: number;
  /** failures by reason */
  reasons: Partial<Record<string, number>>;
}

export interface CaptureResult extends CaptureProgress {
  alreadyCaptured: number;
  cancelled: boolean;
  /** the WACZ this run wrote (its path), or null when it captured nothing */
  wacz: string | null;
  /** the trusted time of the WACZ it wrote: the token kept, or why there is none; null when it wrote none */
  timestamp: TimestampOutcome | null;
}

/** what a capture run's manifest lists: the one WACZ it wrote */
const PAGES_MANIFEST: ManifestKind = {
  title: 'Skein linked pages manifest',
  lines: 'one line per web archive (WACZ) written in this run: its SHA-256, its size in bytes, its file name',
};

/** the pages policy: the safe GET's, with limits for a web page rather than a video */
export const PAGE_LIMITS = { maxBytes: 50 * 1024 * 1024, totalMs: 2 * 60_000, idleMs: 30_000 } as const;

const ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const IMAGE_ACCEPT = 'image/avif,image/webp,image/png,image/jpeg,image/gif,image/*;q=0.8';
/** a page's images kept beside it, at most */
const IMAGES_PER_PAGE = 8;

/** The images an HTML page shows (`<img src>`), as absolute web addresses against where the page is. */
function imagesOf(html: Buffer, mime: string | null, base: string): string[] {
  if (!mime || !/html/i.test(mime)) return [];
  const text = html.subarray(0, 2 * 1024 * 1024).toString('utf8');
  const out = new Set<string>();
  for (const m of text.matchAll(/<img\b[^>]*?\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
    const src = (m[1] ?? m[2] ?? '').trim();
    if (!src || src.startsWith('data:')) continue;
    try {
      const url = new URL(src, base);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') continue;
      url.hash = '';
      out.add(url.href);
    } catch {
      /* not an address */
    }
    if (out.size >= IMAGES_PER_PAGE) break;
  }
  return [...out];
}

interface Fetched {
  body: Buffer;
  headers: Array<[string, string]>;
  statusText: string;
  httpVersion: string;
  mime: string | null;
}

/** a 2xx answer's body, whole, held to the size limit as it arrives */
async function readPage(answer: Answer, policy: FetchPolicy): Promise<Fetched> {
  const { res, touch, stopped, status } = answer;
  const declared = res.headers['content-length'] === undefined ? undefined : Number(res.headers['content-length']);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    touch();
    size += chunk.length;
    if (size > policy.maxBytes)
      throw new FetchStop('too-large', `the page grew past the ${MB(policy.maxBytes)} limit`, status);
    chunks.push(chunk);
  }
  const why = stopped();
  if (why) throw why;
  if (!res.complete) throw new FetchStop('failed', 'the connection closed before the page was whole', status);
  if (declared !== undefined && size !== declared)
    throw new FetchStop('failed', 'the page ended before its declared length', status);
  const headers: Array<[string, string]> = [];
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
    headers.push([res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string]);
  const type = res.headers['content-type'];
  return {
    body: Buffer.concat(chunks, size),
    headers,
    statusText: res.statusMessage ?? '',
    httpVersion: res.httpVersion || '1.1',
    mime: type ? (type.split(';')[0] as string).trim().toLowerCase() || null : null,
  };
}

const stamp = (at: number): string =>
  new Date(at)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

export async function capturePages(
  links: readonly PageLink[],
  deps: CaptureDeps,
  signal?: AbortSignal,
  onProgress?: (p: CaptureProgress) => void,
): Promise<CaptureResult> {
  await mkdir(deps.folder, { recursive: true });
  const urls = distinctUrls(links);
  await deps.store.recordLinks(links.map((l) => ({ url: l.url, postId: l.postId })));
  const before = new Set(await deps.store.capturedUrls(urls));
  const todo = urls.filter((u) => !before.has(u));
  const p: CaptureProgress = { total: todo.length, done: 0, captured: 0, bytes: 0, failed: 0, reasons: {} };
  const report = () => onProgress?.({ ...p, reasons: { ...p.reasons } });
  report();
  const result = (wacz: string | null, timestamp: TimestampOutcome | null = null): CaptureResult => ({
    ...p,
    reasons: { ...p.reasons },
    alreadyCaptured: urls.length - todo.length,
    cancelled: signal?.aborted ?? false,
    wacz,
    timestamp,
  });
  if (todo.length === 0) return result(null);

  const runAt = deps.now();
  const name = `pages-${stamp(runAt)}-${randomUUID().slice(0, 8)}`;
  const warcPath = join(deps.folder, `.partial-${name}.warc.gz`);
  const warc = await WarcWriter.create(warcPath, 'data.warc.gz', runAt, { software: deps.software });
  const captures: Array<PageOutcome & { title: string | null }> = [];
  const fetchOne = (from: string, accept: string) =>
    safeGet(
      from,
      deps.policy,
      { accept, cancelled: 'the capture was cancelled', gone: 'the page is gone', signal },
      (answer) =>
        readPage(answer, deps.policy).then((page) => ({
          page,
          request: answer.request,
          redirects: answer.redirects,
        })),
    );
  /** a page's images, each once a run, kept beside it in the WARC so the page replays whole */
  const seenImages = new Set<string>();
  const keepImages = async (html: Buffer, mime: string | null, base: string) => {
    for (const src of imagesOf(html, mime, base)) {
      if (seenImages.has(src) || signal?.aborted) continue;
      seenImages.add(src);
      const at = deps.now();
      const out = await fetchOne(deps.route ? deps.route.to(src) : src, IMAGE_ACCEPT);
      // an image that cannot be had leaves the page as it is: the page is what the post linked to
      if (!out.ok) continue;
      const { page, request } = out.value;
      await warc.capture({
        url: src,
        at,
        request,
        status: out.status,
        statusText: page.statusText,
        httpVersion: page.httpVersion,
        headers: page.headers,
        body: page.body,
      });
    }
  };
  let next = 0;
  const work = async () => {
    while (next < todo.length && !signal?.aborted) {
      const url = todo[next++] as string;
      const from = deps.route ? deps.route.to(url) : url;
      const at = deps.now();
      const out = await fetchOne(from, ACCEPT);
      if (!out.ok && out.reason === 'cancelled') return;
      p.done++;
      if (out.ok) {
        const { page, request, redirects } = out.value;
        const finalUrl = deps.route ? deps.route.back(out.finalUrl) : out.finalUrl;
        // each redirect its own response record (its Location where it led, as the web gave it), before the page,
        // so a replay follows it as the browser did; the row points at the record under the post's link
        let first: Awaited<ReturnType<typeof warc.capture>> | null = null;
        for (const [i, hop] of redirects.entries()) {
          const from = i === 0 ? url : deps.route ? deps.route.back(hop.url) : hop.url;
          const place = await warc.capture({
            url: from,
            at,
            request: hop.request,
            status: hop.status,
            statusText: hop.statusText,
            httpVersion: hop.httpVersion,
            headers: hop.headers.map(([name, value]): [string, string] =>
              name.toLowerCase() === 'location' && deps.route
                ? [name, deps.route.back(new URL(value, hop.url).href)]
                : [name, value],
            ),
            body: Buffer.alloc(0),
          });
          first ??= place;
        }
        const capture: Capture = {
          url: redirects.length > 0 ? finalUrl : url,
          at,
          request,
          status: out.status,
          statusText: page.statusText,
          httpVersion: page.httpVersion,
          headers: page.headers,
          body: page.body,
        };
        const landed = await warc.capture(capture);
        const place = first ?? landed;
        captures.push({
          url,
          at,
          status: out.status,
          capture: {
            size: page.body.length,
            mime: page.mime ?? 'application/octet-stream',
            sha256: createHash('sha256').update(page.body).digest('hex'),
            finalUrl,
            wacz: '',
            ...place,
          },
          reason: null,
          message: null,
          title: titleOf(page.body, page.mime),
        });
        p.captured++;
        p.bytes += page.body.length;
        await keepImages(page.body, page.mime, finalUrl);
      } else {
        await deps.store.recordOutcome({
          url,
          at,
          status: out.status,
          capture: null,
          reason: out.reason,
          message: out.message,
        });
        p.failed++;
        p.reasons[out.reason] = (p.reasons[out.reason] ?? 0) + 1;
      }
      report();
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, deps.concurrency ?? 4) }, work));
  } catch (error) {
    await warc.abandon();
    await rm(warcPath, { force: true });
    throw error;
  }
  const { sha256, size } = await warc.close();
  if (captures.length === 0) {
    await rm(warcPath, { force: true });
    return result(null);
  }
  const wacz = `${name}.wacz`;
  let written: { sha256: string; size: number };
  try {
    const pages: WaczPage[] = captures.map((c) => ({ url: c.url, at: c.at, title: c.title }));
    written = await writeWacz({
      warcPath,
      warcSha256: sha256,
      warcSize: size,
      pages,
      target: join(deps.folder, wacz),
      created: runAt,
      software: deps.software,
      title: `Linked pages, captured ${new Date(runAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    });
    // the file's hash first, so every WACZ a capture names has what a later check compares it with
    await deps.store.recordWacz({ name: wacz, ...written, at: runAt });
  } finally {
    await rm(warcPath, { force: true });
  }
  for (const { url, at, status, capture } of captures)
    if (capture)
      await deps.store.recordOutcome({ url, at, status, capture: { ...capture, wacz }, reason: null, message: null });
  // a cancelled run's WACZ is timestamped too: capturing again never fetches what it holds, so it would never be
  const timestamp = deps.timestamp
    ? await timestampRun(
        [{ sha256: written.sha256, size: written.size, url: wacz }],
        { ...deps.timestamp, kind: PAGES_MANIFEST },
        deps.store,
        deps.folder,
        deps.now,
      )
    : null;
  return result(join(deps.folder, wacz), timestamp);
}
