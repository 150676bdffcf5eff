/**
 * A WACZ 1.1.1 package of one capture run (the format ReplayWeb.page opens): a zip, every entry stored as it
 * is (the WARC is gzip already), holding `archive/data.warc.gz`, its CDXJ index `indexes/index.cdx` (made by
 * warcio's own indexer, the one ReplayWeb.page's stack uses), `pages/pages.jsonl` (the pages a person opens),
 * `datapackage.json` (each file's SHA-256 and size) and `datapackage-digest.json` (the hash of that). Written
 * to a temporary file beside its target and renamed when whole: never half a package. The whole file is hashed
 * as it is written, so the project can record what it was (a later check re-hashes it against that).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { Zip, ZipPassThrough } from 'fflate';
import { CDXIndexer } from 'warcio';

const WACZ_VERSION = '1.1.1';
const WARC_NAME = 'data.warc.gz';

export interface WaczPage {
  url: string;
  /** when it was captured */
  at: number;
  title: string | null;
}

export interface WaczInput {
  /** the finished WARC file */
  warcPath: string;
  warcSha256: string;
  warcSize: number;
  pages: readonly WaczPage[];
  /** the package's path; written beside it first */
  target: string;
  created: number;
  software: string;
  title: string;
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The CDXJ lines of a WARC, sorted as a CDXJ index is. */
async function cdxjOf(warcPath: string, filename = WARC_NAME): Promise<string[]> {
  const indexer = new CDXIndexer({ format: 'cdxj' } as ConstructorParameters<typeof CDXIndexer>[0]);
  const lines: string[] = [];
  const reader = createReadStream(warcPath);
  try {
    for await (const cdx of indexer.iterIndex([{ reader, filename }] as Parameters<CDXIndexer['iterIndex']>[0]))
      lines.push(indexer.serializeCDXJ(cdx).trimEnd());
  } finally {
    reader.destroy();
  }
  return lines.sort();
}

/** the pages.jsonl of a run: its header line, then one line per page */
function pagesJsonl(pages: readonly WaczPage[]): string {
  const lines = [JSON.stringify({ format: 'json-pages-1.0', id: 'pages', title: 'All Pages' })];
  for (const p of pages)
    lines.push(
      JSON.stringify({
        id: sha256(Buffer.from(p.url)).slice(0, 32),
        url: p.url,
        ts: new Date(p.at).toISOString(),
        ...(p.title ? { title: p.title } : {}),
      }),
    );
  return `${lines.join('\n')}\n`;
}

/** Writes the package; the SHA-256 and size of the whole file as written. */
export async function writeWacz(input: WaczInput): Promise<{ sha256: string; size: number }> {
  const index = Buffer.from(`${(await cdxjOf(input.warcPath)).join('\n')}\n`);
  const pages = Buffer.from(pagesJsonl(input.pages));
  const created = new Date(input.created).toISOString();
  const datapackage = Buffer.from(
    `${JSON.stringify(
      {
        profile: 'data-package',
        wacz_version: WACZ_VERSION,
        title: input.title,
        created,
        modified: created,
        software: input.software,
        mainPageURL: input.pages[0]?.url,
        mainPageDate: input.pages[0] ? new Date(input.pages[0].at).toISOString() : undefined,
        resources: [
          { name: 'pages.jsonl', path: 'pages/pages.jsonl', hash: `sha256:${sha256(pages)}`, bytes: pages.length },
          { name: WARC_NAME, path: `archive/${WARC_NAME}`, hash: `sha256:${input.warcSha256}`, bytes: input.warcSize },
          { name: 'index.cdx', path: 'indexes/index.cdx', hash: `sha256:${sha256(index)}`, bytes: index.length },
        ],
      },
      null,
      2,
    )}\n`,
  );
  const digest = Buffer.from(
    `${JSON.stringify({ path: 'datapackage.json', hash: `sha256:${sha256(datapackage)}` }, null, 2)}\n`,
  );

  const temp = `${input.target}.partial`;
  const file = await open(temp, 'wx');
  const whole = createHash('sha256');
  let size = 0;
  let writing: Promise<unknown> = Promise.resolve();
  const zipped: { error?: Error } = {};
  let ended!: () => void;
  const done = new Promise<void>((resolve) => (ended = resolve));
  const zip = new Zip((error, chunk, final) => {
    if (error) zipped.error = error;
    else {
      whole.update(chunk);
      size += chunk.length;
      writing = writing.then(() => file.write(chunk));
    }
    if (final || error) ended();
  });
  const mtime = new Date(input.created);
  const add = (path: string, bytes: Buffer) => {
    const entry = new ZipPassThrough(path);
    entry.mtime = mtime;
    zip.add(entry);
    entry.push(bytes, true);
  };
  try {
    const warc = new ZipPassThrough(`archive/${WARC_NAME}`);
    warc.mtime = mtime;
    zip.add(warc);
    const stream = createReadStream(input.warcPath, { highWaterMark: 1024 * 1024 });
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      warc.push(chunk);
      await writing; // one chunk in memory at a time
    }
    warc.push(new Uint8Array(0), true);
    add('indexes/index.cdx', index);
    add('pages/pages.jsonl', pages);
    add('datapackage.json', datapackage);
    add('datapackage-digest.json', digest);
    zip.end();
    await done;
    await writing;
    if (zipped.error) throw zipped.error;
    await file.sync();
    await file.close();
    await rename(temp, input.target);
    return { sha256: whole.digest('hex'), size };
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
}

/** A page's title from its HTML: the text of its first `<title>`, entities of the common few decoded. */
export function titleOf(html: Buffer, mime: string | null): string | null {
  if (mime && !/html/i.test(mime)) return null;
  const head = html.subarray(0, 64 * 1024).toString('utf8');
  const m = /<title[^>]*>([^<]{1,500})<\/title>/i.exec(head);
  if (!m) return null;
  const text = (m[1] as string)
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return text || null;
}
