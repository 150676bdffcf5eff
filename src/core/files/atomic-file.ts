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
  write: (chunk: string | Uint8Array) => Promise<void> | void;
  /** bytes handed to the disk so far (buffered text not counted) */
  readonly bytes: number;
}

/** bytes gathered before they go to the disk in one call */
const CHUNK = 256 * 1024;
/**
 * The buffers a file's bytes are gathered in: each is reused once its write is done, so a file of any size is
 * written through a few of them. A buffer per chunk, as before, left a long export's buffers to V8's collector:
 * an export of a million posts held 20-40 MB of them at times, written and waiting to be collected.
 */
const BUFFER = 2 * CHUNK;
/** a chunk at least this big goes to the disk as it is, never copied */
const OWN_BUFFER = CHUNK;

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
    // what the next write hands the disk: the filled part of a buffer of `free`'s, and chunks big enough to go alone
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    /** the pooled buffers in `pending`, back to `free` once their write is done */
    let lent: Buffer[] = [];
    const free: Buffer[] = [];
    /** the buffer being filled, and how much of it is */
    let filling: Buffer | null = null;
    let used = 0;
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
    };
    /** the buffer being filled joins what the next write hands the disk */
    const seal = () => {
      if (!filling) return;
      if (used > 0) {
        pending.push(filling.subarray(0, used));
        pendingBytes += used;
        lent.push(filling);
      } else free.push(filling);
      filling = null;
      used = 0;
    };
    /** a buffer with `size` bytes of room: the one being filled, or a free one */
    const room = (size: number): Buffer => {
      if (filling && filling.length - used >= size) return filling;
      seal();
      filling = free.pop() ?? Buffer.allocUnsafeSlow(BUFFER);
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
        // two kept: one being written while the other fills
        for (const buffer of done) if (free.length < 2) free.push(buffer);
      });
      // handled here so a failure while the producer is busy is not an unhandled rejection; awaited below
      inFlight.catch(() => undefined);
      return previous;
    };
    const sink: Sink = {
      write(chunk: string | Uint8Array) {
        if (signal?.aborted) throw signal.reason;
        if (chunk.length === 0) return;
        // a chunk joins the buffer being filled (which has room: it is written out once it holds CHUNK), unless it
        // is big enough to go alone; a UTF-16 unit is at most 3 bytes of UTF-8, so most text is never measured
        const size =
          typeof chunk !== 'string' ? chunk.length : chunk.length * 3 < OWN_BUFFER ? -1 : Buffer.byteLength(chunk);
        if (size >= OWN_BUFFER) {
          seal();
          pending.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
          pendingBytes += size;
        } else if (typeof chunk === 'string') {
          const into = room(size < 0 ? chunk.length * 3 : size);
          used += into.write(chunk, used, 'utf8');
        } else {
          room(size).set(chunk, used);
          used += size;
        }
        if (pendingBytes + used >= CHUNK || pending.length >= 1024) return flush();
      },
      get bytes() {
        return bytes;
      },
    };
    try {
      await produce(sink);
    } finally {
      // never close the file under a write in flight
      await inFlight.catch(() => undefined);
    }
    await flush();
    await inFlight;
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
