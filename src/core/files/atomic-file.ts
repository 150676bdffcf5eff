/**
 * Never half a file at the target path: content is streamed into a temporary
 * file in the same folder, flushed to disk (fsync), then renamed over the
 * target in one step, and the folder entry is flushed too. A crash or a kill
 * at any moment leaves the target absent or the previous complete file.
 */
import { randomBytes } from 'node:crypto';
import { open, readdir, rename, rm, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { SkeinError } from '../../shared/errors';

const TEMP_MARK = '.skein-tmp-';

/** Where a write is staged: hidden, beside the target, recognisable as ours. */
export function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}${TEMP_MARK}${randomBytes(6).toString('hex')}`);
}

/**
 * Removes what a killed writer left staged beside `target`: its hidden temp file, or the hidden folder a dataset is
 * built in. Only names made by `tempPathFor` for this target are touched.
 */
export async function removeStaleTemps(target: string): Promise<number> {
  const prefix = `.${basename(target)}${TEMP_MARK}`;
  let names: string[];
  try {
    names = await readdir(dirname(target));
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    await rm(join(dirname(target), name), { recursive: true, force: true }).then(
      () => removed++,
      () => undefined,
    );
  }
  return removed;
}

/** `removeStaleTemps` for each of an export's files (a writer that died could have staged any of them). */
export async function removeStaleTempsOf(targets: readonly string[]): Promise<void> {
  await Promise.all(targets.map((target) => removeStaleTemps(target)));
}

/** A plain-words `write-failed` error for a file-system failure, or the error itself. */
export function toWriteError(error: unknown, target: string): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const folder = dirname(target);
  const make = (message: string, action: string) =>
    new SkeinError('write-failed', message, { action, path: target, errno: code });
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return make(
        `The disk is full: ${basename(target)} could not be written in ${folder}.`,
        'Free some disk space or choose another drive, then retry.',
      );
    case 'EACCES':
    case 'EPERM':
      return make(
        `Skein is not allowed to write in ${folder}.`,
        'Choose a folder you can write to (for example Documents), then retry.',
      );
    case 'EROFS':
      return make(`${folder} is read-only.`, 'Choose a folder on a writable drive, then retry.');
    case 'ENOENT':
    case 'ENOTDIR':
      return make(`The folder ${folder} does not exist any more.`, 'Choose another folder, then retry.');
    case 'EISDIR':
      return make(`${target} is a folder, not a file.`, 'Choose a file name, then retry.');
    case 'EMFILE':
    case 'ENFILE':
    case 'EIO':
      return make(
        `${basename(target)} could not be written (${code}).`,
        'Retry; if it persists, choose another drive.',
      );
    default:
      return error;
  }
}

/** Something the writer streams into; `write` waits while the disk catches up. */
export interface Sink {
  /**
   * `borrowed`: bytes their owner fills again once this returns (a view of another writer's buffer), copied
   * whatever their size; others of `OWN_BYTES` or more go to the disk as they are
   */
  write: (chunk: string | Uint8Array, borrowed?: boolean) => Promise<void> | void;
  /** bytes handed to the disk so far (buffered text not counted) */
  readonly bytes: number;
}

/** bytes gathered before they go to the disk in one call */
const CHUNK = 256 * 1024;
/**
 * Characters of text a writer joins before handing them to a sink (CSV lines, a network file's elements). Joined
 * text is a tree of strings that V8 flattens when it is encoded, and a flat string over 128 KB (64K characters
 * once any of them is outside Latin-1: an emoji, an accent, a CJK name) is a large object: memory of its own,
 * mapped for it and unmapped after it, its pages touched afresh each time. Flattening and encoding such a chunk
 * cost four to nine times as much a character as one under the limit (a CSV of 100,000 posts written from the
 * journal: 1.8 s against 2.4 s with chunks of 64K characters; BENCHMARKS.md).
 */
export const TEXT_CHUNK_CHARS = 16 * 1024;

/** Each item's text joined into chunks of about `TEXT_CHUNK_CHARS` (`first`, a header, opens the first one). */
export function* chunked<T>(
  items: Iterable<T>,
  text: (item: T, index: number) => string,
  first = '',
): Generator<string> {
  let chunk = first;
  let i = 0;
  for (const item of items) {
    chunk += text(item, i++);
    if (chunk.length >= TEXT_CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}

/** `chunked` for items that arrive over time: each chunk goes to `sink` as it fills. */
export async function writeJoined<T>(
  sink: Sink,
  items: AsyncIterable<T>,
  text: (item: T) => string,
  first = '',
): Promise<void> {
  let chunk = first;
  for await (const item of items) {
    chunk += text(item);
    if (chunk.length >= TEXT_CHUNK_CHARS) {
      await sink.write(chunk);
      chunk = '';
    }
  }
  if (chunk !== '') await sink.write(chunk);
}
/**
 * The buffers a file's text is encoded into: each is reused once its write is done, so a file of any size is
 * written through two or three of them, where a Buffer made per chunk (several per post of a JSON file) was an allocation,
 * and work for V8's collector, each time (a million posts to JSON Lines: 12 % less CPU this way). A file's first
 * is small and each next one twice as big, up to `BUFFER`: a Parquet dataset holds a file open per day, most of
 * them small, and its row groups' bytes pass by.
 */
const FIRST_BUFFER = 16 * 1024;
const BUFFER = 2 * CHUNK;
/** written buffers kept to fill again */
const SPARE_BUFFERS = 2;
/** bytes at least this many go to the disk as they are (their owner does not fill them again); fewer are copied */
const OWN_BYTES = 16 * 1024;
/** bytes written between the syncs a long file gets while it is written */
const SYNC_EVERY = 64 * 1024 * 1024;
/** text this long (as UTF-8) is encoded into a buffer of its own */
const OWN_TEXT = CHUNK;

/**
 * Writes `target` atomically from `produce`, which writes through the sink.
 * Returns the bytes written. On any failure (or `signal` aborting) the temp
 * file is removed and the target is untouched; file-system errors become
 * `write-failed` errors that say what to do.
 */
export async function writeFileAtomic(
  target: string,
  produce: (sink: Sink) => Promise<void>,
  signal?: AbortSignal,
): Promise<number> {
  await removeStaleTemps(target);
  const temp = tempPathFor(target);
  let handle: FileHandle | undefined;
  try {
    handle = await open(temp, 'wx', 0o644);
    const fh = handle;
    // what the next write hands the disk: parts of the buffers text was encoded into, and chunks that go as they are
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    /** the buffers with parts in `pending`: kept for reuse once their write is done */
    let lent: Buffer[] = [];
    /**
     * Buffers written and free to fill again, the biggest first: two, because a disk quicker than the producer
     * hands back the one in flight while the last one handed back is not taken yet; keeping one dropped the other
     * and made a new one a moment later (a million posts to JSON Lines: 44 buffers of 512 KB, garbage the
     * collector frees late, on main's memory meanwhile).
     */
    const spare: Buffer[] = [];
    /** the buffer being filled, how much of it is, and where its part not yet in `pending` starts */
    let filling: Buffer | null = null;
    let used = 0;
    let mark = 0;
    let nextSize = FIRST_BUFFER;
    let bytes = 0;
    const writeOut = async (buffers: Uint8Array[], size: number) => {
      let written = (await fh.writev(buffers)).bytesWritten;
      if (written < size) {
        // a short write: finish the rest one buffer at a time
        const rest = Buffer.concat(buffers).subarray(written);
        let done = 0;
        while (done < rest.length) done += (await fh.write(rest, done, rest.length - done)).bytesWritten;
        written = size;
      }
      bytes += written;
      if (bytes - synced >= SYNC_EVERY && !syncBusy) {
        synced = bytes;
        syncBusy = true;
        lastSync = fh.datasync().finally(() => (syncBusy = false));
        // awaited (and its failure thrown) before the file is closed
        lastSync.catch(() => undefined);
      }
    };
    /**
     * A long file's bytes are handed to the disk as it grows, on the thread pool beside the writes, so that the
     * sync that ends the file waits for its last part only, not for all of it (a million posts: 1.5 GB, about a
     * second and a half after the collection ended)
     */
    let synced = 0;
    let syncBusy = false;
    let lastSync: Promise<void> = Promise.resolve();
    /** what was encoded since the last cut joins `pending`; the buffer goes on filling after it */
    const cut = () => {
      if (!filling || used === mark) return;
      pending.push(filling.subarray(mark, used));
      pendingBytes += used - mark;
      mark = used;
    };
    /** the buffer being filled is done with: its last part joins `pending` */
    const seal = () => {
      if (!filling) return;
      cut();
      if (used > 0) lent.push(filling);
      else keep(filling);
      filling = null;
      used = 0;
      mark = 0;
    };
    const keep = (buffer: Buffer) => {
      spare.push(buffer);
      spare.sort((a, b) => b.length - a.length);
      if (spare.length > SPARE_BUFFERS) spare.length = SPARE_BUFFERS;
    };
    /** a buffer with `size` bytes of room: the one being filled, a spare one, or a new one */
    const room = (size: number): Buffer => {
      if (filling && filling.length - used >= size) return filling;
      seal();
      if (spare.length > 0 && spare[0]!.length >= size) {
        filling = spare.shift()!;
      } else {
        filling = Buffer.allocUnsafeSlow(Math.max(size, nextSize));
        nextSize = Math.min(BUFFER, nextSize * 2);
      }
      return filling;
    };
    // one write in flight while the producer makes the next chunk: the disk's time overlaps the CPU's
    let inFlight: Promise<void> = Promise.resolve();
    const flush = (): Promise<void> => {
      seal();
      const previous = inFlight;
      if (pendingBytes === 0) return previous;
      const buffers = pending;
      const size = pendingBytes;
      const done = lent;
      pending = [];
      pendingBytes = 0;
      lent = [];
      inFlight = previous.then(async () => {
        await writeOut(buffers, size);
        // kept, to fill while the next one is written
        for (const buffer of done) keep(buffer);
      });
      // handled here so a failure while the producer is busy is not an unhandled rejection; awaited below
      inFlight.catch(() => undefined);
      return previous;
    };
    const sink: Sink = {
      write(chunk: string | Uint8Array, borrowed = false) {
        if (signal?.aborted) throw signal.reason;
        if (chunk.length === 0) return;
        if (typeof chunk === 'string') {
          // a UTF-16 unit is at most 3 bytes of UTF-8: most text is never measured, only encoded where it fits
          const size = chunk.length * 3 < OWN_TEXT ? chunk.length * 3 : Buffer.byteLength(chunk);
          if (size < OWN_TEXT) {
            // `room` may start another buffer (and `used` with it) before the text is written into it
            const into = room(size);
            used += into.write(chunk, used, 'utf8');
          } else {
            cut();
            pending.push(Buffer.from(chunk, 'utf8'));
            pendingBytes += size;
          }
        } else if (chunk.length < OWN_BYTES) {
          room(chunk.length).set(chunk, used);
          used += chunk.length;
        } else {
          cut();
          // a big borrowed chunk gets a buffer of its own, not a spare one that would keep its size to the end
          pending.push(borrowed ? Buffer.from(chunk) : chunk);
          pendingBytes += chunk.length;
        }
        if (pendingBytes + used - mark >= CHUNK || pending.length >= 1024) return flush();
      },
      get bytes() {
        return bytes;
      },
    };
    try {
      await produce(sink);
    } finally {
      // never close the file under a write or a sync in flight
      await inFlight.catch(() => undefined);
      await lastSync.catch(() => undefined);
    }
    await flush();
    await inFlight;
    await lastSync;
    if (signal?.aborted) throw signal.reason;
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temp, target);
    await syncFolder(dirname(target));
    return bytes;
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw toWriteError(error, target);
  }
}

/** Flushes a folder's entries (the rename) to disk; not possible on Windows, where rename is already durable enough. */
export async function syncFolder(folder: string): Promise<void> {
  let dir: FileHandle | undefined;
  try {
    dir = await open(folder, 'r');
    await dir.sync();
  } catch {
    // EISDIR/EPERM on Windows: folders cannot be opened for fsync there.
  } finally {
    await dir?.close().catch(() => undefined);
  }
}

/** An atomic file held open while its rows come from elsewhere: renamed into place or dropped on `close`. */
export interface HeldFile {
  sink: Sink;
  /** settles once closed: the bytes written, or the failure (a dropped file rejects) */
  done: Promise<number>;
  /** true: flush and rename it over the target; false: remove the temp file, the target untouched */
  close: (keep: boolean) => void;
}

/**
 * `writeFileAtomic` for a producer that is not one function: the file is opened now and its sink handed out
 * (rows arriving page by page, or interleaved across several files); it stays open until `close`. Rejects, as
 * `writeFileAtomic` does, when the file cannot be opened.
 */
export async function holdFileAtomic(target: string, signal?: AbortSignal): Promise<HeldFile> {
  let close: (keep: boolean) => void = () => undefined;
  const closed = new Promise<boolean>((resolve) => (close = resolve));
  let opened: (sink: Sink) => void = () => undefined;
  const sinkReady = new Promise<Sink>((resolve) => (opened = resolve));
  const done = writeFileAtomic(
    target,
    async (sink) => {
      opened(sink);
      if (!(await closed)) throw new Error(`${basename(target)} was dropped`);
    },
    signal,
  );
  done.catch(() => undefined); // the holder awaits it
  const sink = await Promise.race([sinkReady, done.then(() => null)]);
  if (!sink) throw new SkeinError('write-failed', `${basename(target)} could not be opened.`);
  return { sink, done, close };
}
