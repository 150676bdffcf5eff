/**
 * A kept id list read in batches from its file, never held whole: one pass over `<id>.ids` notes where every
 * `batchSize`-th id starts (8 bytes per batch: 80 KB for a million ids), and each batch is read from there when
 * it is asked for. A hydration of millions of ids holds one batch of them at a time.
 */
import { closeSync, createReadStream, fsyncSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { open } from 'node:fs/promises';
import type { MissingId } from '../../shared/ipc/ids';

export interface IdList {
  /** ids in the list */
  readonly count: number;
  /** ids per batch */
  readonly batchSize: number;
  /** batches: ⌈count / batchSize⌉ */
  readonly batches: number;
  /** ids `[i·batchSize, (i+1)·batchSize)`, in order, read from disk */
  batch: (i: number) => Promise<string[]>;
}

/** A hydration's missing ids, read as they are consumed: the total first, then each with why. */
export interface MissingList {
  count: number;
  /** of `count`: ids not returned that look rounded by a spreadsheet (`looksRounded`), listed with that reason */
  possiblyRounded: number;
  ids: () => AsyncIterable<MissingId>;
}

const NL = 0x0a;
const ID = /^\d{1,20}$/;

/** Indexes an id file (one id per line, as `ImportStore.seal` writes it) into batches. */
export async function indexIdFile(path: string, batchSize: number): Promise<IdList> {
  const starts: number[] = [0];
  let count = 0;
  let offset = 0;
  /** the current line has characters */
  let inLine = false;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    for (let at = 0; at < chunk.length; at++) {
      if (chunk[at] !== NL) {
        inLine = true;
        continue;
      }
      if (inLine) {
        count++;
        if (count % batchSize === 0) starts.push(offset + at + 1);
      }
      inLine = false;
    }
    offset += chunk.length;
  }
  if (inLine) count++;
  const index = Float64Array.from(starts);
  const end = offset;
  const batches = Math.ceil(count / batchSize);
  return {
    count,
    batchSize,
    batches,
    batch: async (i) => {
      if (!Number.isInteger(i) || i < 0 || i >= batches) return [];
      const from = index[i] ?? end;
      // the last batch runs to the end of the file
      const to = index[i + 1] ?? end;
      const handle = await open(path, 'r');
      try {
        const buf = Buffer.allocUnsafe(to - from);
        const { bytesRead } = await handle.read(buf, 0, to - from, from);
        return buf
          .toString('utf8', 0, bytesRead)
          .split('\n')
          .filter((line) => ID.test(line));
      } finally {
        await handle.close();
      }
    },
  };
}

/** bytes per piece of an `IdLines` */
const PIECE = 1 << 20;

/**
 * Ids as the lines of an id file, written to `path` a piece of bytes at a time as they are read: what an import
 * holds until it is sealed is one piece (a million ids would be 20 MB of buffers, and more for each million).
 */
export class IdLines {
  private readonly piece = Buffer.allocUnsafe(PIECE);
  private at = 0;
  /** the file, opened (afresh, its folder made) when the first piece is written out: a list of no ids writes none */
  private fd: number | null = null;
  private closed = false;
  count = 0;

  constructor(readonly path: string) {}

  /** Adds an id (digits: one byte a character). */
  add(id: string): void {
    if (this.at + id.length + 1 > PIECE) this.spill();
    this.at += this.piece.write(id, this.at, 'latin1');
    this.piece[this.at++] = NL;
    this.count++;
  }

  /**
   * Takes these ids out of the list, the others kept in their order: the file read back and written again without
   * them (rare: ids a spreadsheet rounded, known only once the whole list is read).
   */
  withdraw(ids: ReadonlySet<string>): void {
    if (ids.size === 0) return;
    const fd = this.open();
    this.spill();
    closeSync(fd);
    this.fd = null;
    const kept = readFileSync(this.path, 'latin1')
      .split('\n')
      .filter((id) => id !== '' && !ids.has(id));
    this.count = 0;
    this.fd = openSync(this.path, 'w', 0o644);
    for (const id of kept) this.add(id);
  }

  /** Writes out the lines not yet on disk, flushes the file to disk and closes it. */
  finish(): void {
    const fd = this.open();
    this.spill();
    fsyncSync(fd);
    closeSync(fd);
    this.fd = null;
    this.closed = true;
  }

  /** Closes and removes the file (a list not kept). */
  drop(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    this.closed = true;
    rmSync(this.path, { force: true });
  }

  private open(): number {
    if (this.closed) throw new Error('this id list is closed');
    if (this.fd === null) {
      mkdirSync(dirname(this.path), { recursive: true });
      this.fd = openSync(this.path, 'w', 0o644);
    }
    return this.fd;
  }

  private spill(): void {
    const fd = this.open();
    for (let done = 0; done < this.at;) done += writeSync(fd, this.piece, done, this.at - done);
    this.at = 0;
  }
}
