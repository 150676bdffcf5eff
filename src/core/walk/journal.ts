/**
 * The journal of one walk (an export's job, a watch's run): an append-only file
 * holding every kept raw item and, after each page's items, a commit line
 * describing the page (cursor, fetch time, counts). It is what lets a walk
 * resume after a cancel, a cap, an error or a restart without buying a page
 * twice, and what an export's files are streamed from (items are never all
 * held in memory).
 *
 * Lines (JSON written out never contains a raw tab or newline, so both are safe separators; an item's JSON as it
 * arrived may hold either between its tokens: a tab is harmless after the last separator, a line break is made a
 * space, which changes no value):
 *   i <TAB> idJSON <TAB> positionJSON <TAB> rawJSON
 *   p <TAB> pageRecordJSON
 *   f <TAB> failedFetchJSON      (a page fetch that failed after requests had left: what it cost)
 *   a <TAB> askedJSON            (a page about to be asked for: which, and when; settled by its page or failure)
 * A page counts only once its commit line is complete; whatever follows the
 * last commit (a torn write) is cut off when the journal is opened again.
 */
import { writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { oneLine } from '../../shared/api/spans';
import type { AnswerSnapshot, DroppedItem, PagingStopReason } from '../../shared/ipc/api';

export interface JournalItem {
  id: string | null;
  /** JSON of the item's thread position, or `null` */
  position: string;
  /** the raw item as JSON (bytes when read back from disk: never decoded unless needed) */
  raw: string | Buffer;
}

export interface PageRecord {
  /** which planned request (batch views split their ids into several) */
  request: number;
  cursor: string | null;
  nextCursor: string | null;
  hasNextPage: boolean | null;
  fetchedAt: number;
  fromCache: boolean;
  /** a hydration's batch of ids the project already held: read from it, as it last received them */
  fromProject?: boolean;
  httpStatus: number;
  credits: number;
  attempts: number;
  /** items in the answer */
  received: number;
  /** items written to the journal for this page */
  kept: number;
  duplicates: number;
  dropped: DroppedItem[];
  notFound: string[];
  /** a paging guard stopped after this page */
  stop: { reason: PagingStopReason; message: string } | null;
  /** a hydration's batch: ids it returned that it was not asked for (kept once across the whole job) */
  foreign?: string[];
  /** the answer's own time and place, when it said them (trends' metadata) */
  snapshot?: AnswerSnapshot;
  /** the walker's own note on the page, kept as it is (a watch's run: which walk, and where it stands); export sets none */
  note?: unknown;
}

/**
 * A page fetch that ended without a page (ran out of retries, a rate limit waited out, a cancel,
 * an unreadable answer) after requests had left: the service counted them, so the manifest does.
 */
export interface FailedFetch {
  request: number;
  cursor: string | null;
  /** when it failed (epoch ms) */
  at: number;
  /** requests that left, retries included */
  calls: number;
  /** estimated credits they cost */
  credits: number;
  /** error code and message */
  code: string;
  message: string;
}

/** A page about to be asked for. One left unsettled by a page or a failure was asked by a walk that was killed. */
export interface Asked {
  request: number;
  cursor: string | null;
  /** when it was about to be asked (epoch ms) */
  at: number;
}

const askKey = (request: number, cursor: string | null) => `${request}\u0000${cursor ?? ''}`;

export interface JournalScan {
  onItem?: (id: string | null, position: string) => void;
  onPage?: (page: PageRecord) => void;
  onFailure?: (failure: FailedFetch) => void;
}

const READ_CHUNK = 1 << 18;
const NL = 0x0a;
const TAB = 0x09;
const I = 0x69;
const P = 0x70;
const F = 0x66;
const A = 0x61;

/** Reads complete lines of `[0, end)` as buffers with their end offsets. */
async function* lines(
  handle: FileHandle,
  end: number,
): AsyncGenerator<{ buf: Buffer; start: number; stop: number; next: number }> {
  let carry: Buffer = Buffer.alloc(0);
  let carryOffset = 0;
  let position = 0;
  const readAt = (at: number) => {
    const size = Math.min(READ_CHUNK, end - at);
    const read = handle.read(Buffer.allocUnsafe(size), 0, size, at);
    read.catch(() => undefined); // awaited below; a reader that stops early leaves it unread
    return read;
  };
  // the next chunk is read while the lines of this one are used: the disk's time overlaps the CPU's
  let ahead = position < end ? readAt(position) : null;
  try {
    while (ahead !== null) {
      const { bytesRead, buffer: chunk } = await ahead;
      ahead = null;
      if (bytesRead === 0) break;
      position += bytesRead;
      if (position < end) ahead = readAt(position);
      yield* linesOf(chunk.subarray(0, bytesRead));
    }
  } finally {
    // never leave a read in flight on a handle the caller may close
    await ahead?.catch(() => undefined);
  }

  function* linesOf(read: Buffer): Generator<{ buf: Buffer; start: number; stop: number; next: number }> {
    const buf = carry.length ? Buffer.concat([carry, read]) : read;
    let start = 0;
    for (let nl = buf.indexOf(NL, start); nl !== -1; nl = buf.indexOf(NL, start)) {
      yield { buf, start, stop: nl, next: carryOffset + nl + 1 };
      start = nl + 1;
    }
    carry = buf.subarray(start);
    carryOffset += start;
  }
}

function parseItemLine(buf: Buffer, start: number, stop: number, withRaw: boolean): JournalItem | null {
  if (buf[start] !== I || buf[start + 1] !== TAB) return null;
  const t1 = buf.indexOf(TAB, start + 2);
  const t2 = t1 === -1 || t1 > stop ? -1 : buf.indexOf(TAB, t1 + 1);
  if (t2 === -1 || t2 > stop) return null;
  try {
    const id = JSON.parse(buf.toString('utf8', start + 2, t1)) as string | null;
    return { id, position: buf.toString('utf8', t1 + 1, t2), raw: withRaw ? buf.subarray(t2 + 1, stop) : '' };
  } catch {
    return null;
  }
}

function parsePageLine(buf: Buffer, start: number, stop: number): PageRecord | null {
  if (buf[start] !== P || buf[start + 1] !== TAB) return null;
  try {
    const page = JSON.parse(buf.toString('utf8', start + 2, stop)) as PageRecord;
    return typeof page === 'object' && page !== null && typeof page.kept === 'number' ? page : null;
  } catch {
    return null;
  }
}

function parseFailureLine(buf: Buffer, start: number, stop: number): FailedFetch | null {
  if (buf[start] !== F || buf[start + 1] !== TAB) return null;
  try {
    const f = JSON.parse(buf.toString('utf8', start + 2, stop)) as FailedFetch;
    return typeof f === 'object' && f !== null && typeof f.calls === 'number' && typeof f.credits === 'number'
      ? f
      : null;
  } catch {
    return null;
  }
}

function parseAskLine(buf: Buffer, start: number, stop: number): Asked | null {
  if (buf[start] !== A || buf[start + 1] !== TAB) return null;
  try {
    const a = JSON.parse(buf.toString('utf8', start + 2, stop)) as Asked;
    return typeof a === 'object' && a !== null && typeof a.request === 'number' && typeof a.at === 'number' ? a : null;
  } catch {
    return null;
  }
}

/** the most a journal keeps between pages for encoding them: a page of ordinary posts is well under it */
const KEPT_BUFFER = 4 * 1024 * 1024;

/** A journal's committed part, as another thread reads it while the journal is not appended to. */
export interface CommittedPart {
  path: string;
  bytes: number;
}

/** The items of a journal's committed part, in order, read from disk as they are consumed (the file is only read). */
export async function* committedItems(part: CommittedPart): AsyncGenerator<JournalItem> {
  const handle = await open(part.path, 'r');
  try {
    for await (const { buf, start, stop } of lines(handle, part.bytes)) {
      const item = parseItemLine(buf, start, stop, true);
      if (item) yield item;
    }
  } finally {
    await handle.close();
  }
}

/** Parts a page's item takes in its write: its line's head, its text, the line's end. */
const ITEM_PARTS = 3;

export class Journal {
  private scratch = Buffer.alloc(0);
  /** the page last appended, as written: the buffer it was encoded into and where each of its parts ends */
  private written: { items: readonly JournalItem[]; buffer: Buffer; ends: number[] } | null = null;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    private committed: number,
    /**
     * pages earlier lives of the walk were about to ask for and never kept, with when each ask was made: each
     * may have been paid for
     */
    private readonly unsettled: Map<string, number[]>,
  ) {}

  /**
   * Opens (or creates) a journal, replays its committed pages through `scan`,
   * and cuts off anything after the last complete commit.
   */
  static async open(path: string, scan: JournalScan = {}): Promise<Journal> {
    const handle = await open(path, 'a+');
    try {
      const { size } = await handle.stat();
      let committed = 0;
      let pendingItems: Array<{ id: string | null; position: string }> = [];
      const unsettled = new Map<string, number[]>();
      for await (const { buf, start, stop, next } of lines(handle, size)) {
        const item = parseItemLine(buf, start, stop, false);
        if (item) {
          pendingItems.push({ id: item.id, position: item.position });
          continue;
        }
        const asked = pendingItems.length === 0 ? parseAskLine(buf, start, stop) : null;
        if (asked) {
          const key = askKey(asked.request, asked.cursor);
          unsettled.set(key, [...(unsettled.get(key) ?? []), asked.at]);
          committed = next;
          continue;
        }
        const failure = pendingItems.length === 0 ? parseFailureLine(buf, start, stop) : null;
        if (failure) {
          // a failure answers the ask just before it; an earlier life's ask left before it is still unsettled
          const key = askKey(failure.request, failure.cursor);
          const asks = unsettled.get(key)?.slice(0, -1) ?? [];
          if (asks.length > 0) unsettled.set(key, asks);
          else unsettled.delete(key);
          scan.onFailure?.(failure);
          committed = next;
          continue;
        }
        const page = parsePageLine(buf, start, stop);
        if (!page || page.kept !== pendingItems.length) break;
        unsettled.delete(askKey(page.request, page.cursor));
        for (const it of pendingItems) scan.onItem?.(it.id, it.position);
        scan.onPage?.(page);
        pendingItems = [];
        committed = next;
      }
      if (committed < size) await handle.truncate(committed);
      return new Journal(path, handle, committed, unsettled);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Bytes of committed pages. */
  get size(): number {
    return this.committed;
  }

  /** Appends one page's items and its commit line in a single write. */
  async appendPage(items: readonly JournalItem[], page: PageRecord): Promise<void> {
    // each item's text goes into the write as it is, never joined into one page-long string first
    const parts: Array<string | Buffer> = [];
    for (const item of items)
      parts.push(
        `i\t${JSON.stringify(item.id)}\t${item.position}\t`,
        typeof item.raw === 'string' ? oneLine(item.raw) : item.raw,
        '\n',
      );
    parts.push(`p\t${JSON.stringify(page)}\n`);
    // written before this returns its promise: the page's texts are there for whoever runs beside the write; not
    // an outsized page's, whose buffer is let go at once
    const { buffer, ends } = this.append(parts);
    if (buffer === this.scratch) this.written = { items, buffer, ends };
  }

  /**
   * The text of each item of the page last appended, if `items` is that page's, as the journal wrote it (UTF-8, on
   * one line): views of the journal's own buffer, good only until its next append, so a writer that keeps them
   * copies them (`Sink.write`'s `borrowed`). A JSON Lines file written beside the journal takes its items' bytes
   * from here instead of encoding the same text again. Null for any other page, and for one too big to keep its
   * buffer (the writer encodes its text then).
   */
  writtenTexts(items: readonly JournalItem[]): Uint8Array[] | null {
    const w = this.written;
    if (!w || w.items !== items) return null;
    return items.map((_, i) => w.buffer.subarray(w.ends[i * ITEM_PARTS] ?? 0, w.ends[i * ITEM_PARTS + 1] ?? 0));
  }

  /** Appends that a page is about to be asked for (one line, committed on its own), before its request leaves. */
  async appendAsked(asked: Asked): Promise<void> {
    this.append([`a\t${JSON.stringify(asked)}\n`]);
  }

  /**
   * When earlier lives of this walk were about to ask for this page and were killed before they kept it or a
   * failure of it (oldest first; empty when none was). Each may have been paid for: see `walk.ts`.
   */
  asksBefore(request: number, cursor: string | null): readonly number[] {
    return this.unsettled.get(askKey(request, cursor)) ?? [];
  }

  /** Appends the record of a failed page fetch (one line, committed on its own). */
  async appendFailure(failure: FailedFetch): Promise<void> {
    this.append([`f\t${JSON.stringify(failure)}\n`]);
  }

  /**
   * One write call, made at once: a page's lines (tens of KB) go to the OS's cache in microseconds, where an
   * awaited write waits its turn on the thread pool for each page, and that wait was most of a page's time.
   * Once the call returns the page is the OS's, so a kill of the process loses none of it (`sync` is for a
   * crash of the machine).
   */
  private append(parts: ReadonlyArray<string | Buffer>): { buffer: Buffer; ends: number[] } {
    // a page that fails to be written leaves no page behind it to be read as written
    this.written = null;
    // encoded once into a buffer kept between pages (a UTF-16 unit is at most 3 bytes of UTF-8); an outsized
    // page (one hostile 10 MB item) gets a buffer of its own, so the walk does not hold three times it to its end
    let most = 0;
    for (const part of parts) most += typeof part === 'string' ? part.length * 3 : part.length;
    let buffer = this.scratch;
    if (buffer.length < most) {
      buffer = Buffer.allocUnsafe(most);
      if (most <= KEPT_BUFFER) this.scratch = buffer;
    }
    let length = 0;
    const ends: number[] = [];
    for (const part of parts) {
      length += typeof part === 'string' ? buffer.write(part, length, 'utf8') : part.copy(buffer, length);
      ends.push(length);
    }
    for (let written = 0; written < length;)
      written += writeSync(this.handle.fd, buffer, written, length - written, this.committed + written);
    this.committed += length;
    return { buffer, ends };
  }

  /** Flushes appended pages to disk. */
  async sync(): Promise<void> {
    await this.handle.datasync();
  }

  /** Every committed item, in order, read from disk as it is consumed. */
  async *items(): AsyncGenerator<JournalItem> {
    for await (const { buf, start, stop } of lines(this.handle, this.committed)) {
      const item = parseItemLine(buf, start, stop, true);
      if (item) yield item;
    }
  }

  async close(): Promise<void> {
    this.written = null;
    await this.handle.close();
  }
}
