/**
 * Verifying the files of captured pages a project kept: every WACZ re-hashed from the disk, streamed, and
 * compared with the SHA-256 recorded when it was written; then every capture run's timestamp token checked as
 * media's are (core/timestamp's `checkTokens`: its manifest and the token unchanged, the token verifying, the
 * WACZ it names still unchanged). A project made before that hash was recorded has
 * WACZ files with none: each of those is checked as far as it can be, against the hashes the package lists
 * inside it (`datapackage.json`: the archived pages, the index, the page list; `datapackage-digest.json`: the
 * list itself), and the report counts them apart so nobody reads that weaker check as the whole-file one.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { createInflateRaw } from 'node:zlib';
import type { PagesCheck, WaczProblem } from '../../shared/ipc/pages';
import { checkTokens, type KeptToken } from '../timestamp';
import type { WaczRow } from './tables/tables';

const notFound = (error: unknown): boolean => (error as { code?: string }).code === 'ENOENT';

async function hashOf(path: string): Promise<string | null> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  } catch (error) {
    if (notFound(error)) return null;
    throw error;
  }
  return hash.digest('hex');
}

interface ZipEntry {
  name: string;
  method: number;
  compressed: number;
  size: number;
  /** where its local header starts */
  header: number;
}

/** the most a package's own lists (datapackage.json and its digest) are read into memory */
const LIST_BYTES = 4 * 1024 * 1024;
const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** A zip's entries from its central directory (the end of the file), or null when it is not a readable zip. */
async function entriesOf(path: string): Promise<Map<string, ZipEntry> | null> {
  const file = await open(path, 'r');
  const read = async (start: number, length: number): Promise<Buffer> => {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await file.read(buf, 0, length, start);
    return buf.subarray(0, bytesRead);
  };
  try {
    const { size } = await file.stat();
    const tailLength = Math.min(size, 22 + 0xffff);
    const tail = await read(size - tailLength, tailLength);
    let at = -1;
    for (let i = tail.length - 22; i >= 0; i--)
      if (tail.readUInt32LE(i) === EOCD) {
        at = i;
        break;
      }
    if (at < 0) return null;
    const count = tail.readUInt16LE(at + 10);
    const dirSize = tail.readUInt32LE(at + 12);
    const dirStart = tail.readUInt32LE(at + 16);
    if (dirStart + dirSize > size) return null;
    const dir = await read(dirStart, dirSize);
    const entries = new Map<string, ZipEntry>();
    let p = 0;
    for (let n = 0; n < count; n++) {
      if (p + 46 > dir.length || dir.readUInt32LE(p) !== CENTRAL) return null;
      const nameLength = dir.readUInt16LE(p + 28);
      const name = dir.subarray(p + 46, p + 46 + nameLength).toString('utf8');
      entries.set(name, {
        name,
        method: dir.readUInt16LE(p + 10),
        compressed: dir.readUInt32LE(p + 20),
        size: dir.readUInt32LE(p + 24),
        header: dir.readUInt32LE(p + 42),
      });
      p += 46 + nameLength + dir.readUInt16LE(p + 30) + dir.readUInt16LE(p + 32);
    }
    return entries;
  } finally {
    await file.close();
  }
}

/** where an entry's bytes start in the file (after its local header), or null when the header is not there */
async function dataStart(path: string, e: ZipEntry): Promise<number | null> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(30);
    const { bytesRead } = await file.read(head, 0, 30, e.header);
    if (bytesRead < 30 || head.readUInt32LE(0) !== LOCAL) return null;
    return e.header + 30 + head.readUInt16LE(26) + head.readUInt16LE(28);
  } finally {
    await file.close();
  }
}

/** an entry's own bytes (stored or deflated) hashed as a stream: its SHA-256 and size, or null when unreadable */
async function hashEntry(path: string, e: ZipEntry): Promise<{ sha256: string; size: number } | null> {
  const start = await dataStart(path, e);
  if (start === null || (e.method !== 0 && e.method !== 8)) return null;
  const hash = createHash('sha256');
  let size = 0;
  if (e.compressed > 0)
    try {
      const raw = createReadStream(path, { start, end: start + e.compressed - 1 });
      const bytes = e.method === 8 ? raw.pipe(createInflateRaw()) : raw;
      for await (const chunk of bytes as AsyncIterable<Buffer>) {
        hash.update(chunk);
        size += chunk.length;
      }
    } catch {
      return null;
    }
  return { sha256: hash.digest('hex'), size };
}

/** an entry's bytes, whole (for the package's own small lists) */
async function readEntry(path: string, e: ZipEntry): Promise<Buffer | null> {
  if (e.size > LIST_BYTES) return null;
  const start = await dataStart(path, e);
  if (start === null) return null;
  const chunks: Buffer[] = [];
  if (e.compressed === 0) return Buffer.alloc(0);
  try {
    const raw = createReadStream(path, { start, end: start + e.compressed - 1 });
    const bytes = e.method === 8 ? raw.pipe(createInflateRaw()) : raw;
    for await (const chunk of bytes as AsyncIterable<Buffer>) chunks.push(chunk);
  } catch {
    return null;
  }
  return Buffer.concat(chunks);
}

/** what a package's own parts are, in plain words */
const PART_NAMES: Record<string, string> = {
  'archive/data.warc.gz': 'its archived pages',
  'indexes/index.cdx': 'its index of those pages',
  'pages/pages.jsonl': 'its list of pages',
  'datapackage.json': 'its list of hashes',
};
const partName = (path: string): string => PART_NAMES[path] ?? `its part “${path}”`;

/**
 * A WACZ with no hash recorded for the whole file, checked against the hashes it lists inside: null when every
 * one still holds, else what no longer does, in plain words.
 */
async function innerProblem(path: string): Promise<string | null> {
  const entries = await entriesOf(path).catch(() => null);
  if (!entries) return 'it can no longer be read as a package of captured pages';
  const list = entries.get('datapackage.json');
  const listBytes = list ? await readEntry(path, list) : null;
  if (!listBytes) return 'its list of hashes is missing or cannot be read';
  const bad: string[] = [];
  const digestEntry = entries.get('datapackage-digest.json');
  const digestBytes = digestEntry ? await readEntry(path, digestEntry) : null;
  if (digestBytes) {
    try {
      const digest = JSON.parse(digestBytes.toString('utf8')) as { hash?: unknown };
      if (digest.hash !== `sha256:${createHash('sha256').update(listBytes).digest('hex')}`)
        bad.push(partName('datapackage.json'));
    } catch {
      bad.push(partName('datapackage.json'));
    }
  }
  let resources: Array<{ path?: unknown; hash?: unknown; bytes?: unknown }>;
  try {
    const parsed = JSON.parse(listBytes.toString('utf8')) as { resources?: unknown };
    resources = Array.isArray(parsed.resources) ? (parsed.resources as typeof resources) : [];
  } catch {
    return 'its list of hashes cannot be read';
  }
  if (resources.length === 0) return 'its list of hashes names nothing to check';
  for (const r of resources) {
    const p = typeof r.path === 'string' ? r.path : '';
    const entry = entries.get(p);
    const found = entry ? await hashEntry(path, entry) : null;
    if (!found || r.hash !== `sha256:${found.sha256}` || (typeof r.bytes === 'number' && r.bytes !== found.size))
      bad.push(partName(p));
  }
  if (bad.length === 0) return null;
  return `the hashes listed inside it no longer hold for ${bad.join(' and ')}`;
}

/** What checking the files of captured pages needs of the project's page tables. */
export interface WaczStore {
  waczs: () => Promise<WaczRow[]>;
  tokens: () => Promise<KeptToken[]>;
}

/** the most token problems a report carries (the bridge's bound) */
const TOKEN_PROBLEMS = 500;

/**
 * Every WACZ of the project re-hashed (streamed, one at a time, the event loop given back between files), and
 * each one changed or missing named with the pages it holds.
 */
export async function verifyPages(
  store: WaczStore,
  folder: string,
  onProgress?: (checked: number, total: number) => void,
): Promise<PagesCheck> {
  const report: PagesCheck = {
    checked: 0,
    matched: 0,
    unrecorded: 0,
    problems: [],
    folder,
    tokens: 0,
    tokenProblems: [],
  };
  const files = await store.waczs();
  /** the SHA-256s of the WACZ files found as written: a token's manifest names its WACZ by that */
  const intact = new Set<string>();
  for (const w of files) {
    const path = join(folder, w.name);
    const problem = (state: WaczProblem['state'], found: string | null, what: string): WaczProblem => ({
      name: w.name,
      state,
      expected: w.sha256,
      found,
      problem: what,
      pages: w.pages,
      urls: w.urls,
    });
    report.checked++;
    if (w.sha256 === null) report.unrecorded++;
    if (w.sha256 !== null) {
      const found = await hashOf(path);
      if (found === null) report.problems.push(problem('missing', null, 'it is no longer in the pages folder'));
      else if (found !== w.sha256)
        report.problems.push(problem('changed', found, 'its bytes are no longer the ones written'));
      else {
        report.matched++;
        intact.add(found);
      }
    } else {
      const there = await hashOf(path);
      if (there === null) report.problems.push(problem('missing', null, 'it is no longer in the pages folder'));
      else {
        const inner = await innerProblem(path);
        if (inner)
          report.problems.push(
            problem('changed', there, `${inner} (it was written before Skein recorded a whole file's hash)`),
          );
        else {
          report.matched++;
          intact.add(there);
        }
      }
    }
    onProgress?.(report.checked, files.length);
    await yieldToLoop();
  }
  const tokens = await checkTokens(await store.tokens(), folder, intact, TOKEN_PROBLEMS);
  report.tokens = tokens.checked;
  report.tokenProblems = tokens.problems;
  return report;
}
