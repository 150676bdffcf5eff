/**
 * A project's kept answers on disk (host.ts): one JSON line per answer, in the order they came. The host holds a
 * window of them in memory and reads the rest from here as it writes, so a server away for hours costs disk, not
 * the archive worker's heap; these are the file's operations, synchronous (the archive's worker is one thread).
 */
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import type { IngestRecord } from './answer';

const CHUNK = 1 << 20;

export const spoolLine = (r: IngestRecord): string => `${JSON.stringify(r)}\n`;

/** The answers of `lines`; a line torn by a kill, or not an answer, is left out. */
function parsed(lines: readonly string[]): IngestRecord[] {
  const out: IngestRecord[] = [];
  for (const line of lines) {
    if (line === '') continue;
    try {
      const r = JSON.parse(line) as IngestRecord;
      if (typeof r.operation === 'string' && typeof r.text === 'string' && typeof r.at === 'number') out.push(r);
    } catch {
      /* torn: the rest is whole */
    }
  }
  return out;
}

/**
 * The answers from byte `offset` on, until their text reaches `maxText` (UTF-16 code units; at least one line
 * is read) or the file ends; `offset` where the next read starts, `lines` how many lines were read (a torn or
 * foreign one included), `end` whether the file has nothing after them. A last line without its newline is read
 * only at the file's end (it is torn: an append in progress never is, the host being the one writer).
 */
export function readSpool(
  path: string,
  offset: number,
  maxText: number,
): { records: IngestRecord[]; offset: number; lines: number; end: boolean } {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const lines: string[] = [];
    let text = 0;
    let at = offset;
    let pending: Buffer[] = [];
    const buffer = Buffer.allocUnsafe(CHUNK);
    while (at < size && (lines.length === 0 || text < maxText)) {
      const n = readSync(fd, buffer, 0, Math.min(CHUNK, size - at), at);
      if (n <= 0) break;
      let start = 0;
      let nl = buffer.indexOf(10, start);
      while (nl !== -1 && nl < n) {
        pending.push(buffer.subarray(start, nl));
        const line = Buffer.concat(pending).toString('utf8');
        pending = [];
        lines.push(line);
        text += line.length;
        at += nl - start + 1;
        start = nl + 1;
        if (text >= maxText) break;
        nl = buffer.indexOf(10, start);
      }
      if (text >= maxText) break;
      // the rest of this chunk begins a line the next chunk ends
      pending.push(Buffer.from(buffer.subarray(start, n)));
      at += n - start;
    }
    if (pending.length > 0) {
      // a line cut by the file's end: torn, read (and left out) so the file counts as read
      lines.push(Buffer.concat(pending).toString('utf8'));
    }
    return { records: parsed(lines), offset: Math.min(at, size), lines: lines.length, end: at >= size };
  } finally {
    closeSync(fd);
  }
}

/** The file's lines and bytes, counted without holding them. */
export function countSpool(path: string): { lines: number; bytes: number } {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const buffer = Buffer.allocUnsafe(CHUNK);
    let lines = 0;
    let endsWithNewline = true;
    for (let at = 0; at < size;) {
      const n = readSync(fd, buffer, 0, Math.min(CHUNK, size - at), at);
      if (n <= 0) break;
      for (let i = buffer.indexOf(10); i !== -1 && i < n; i = buffer.indexOf(10, i + 1)) lines++;
      endsWithNewline = buffer[n - 1] === 10;
      at += n;
    }
    return { lines: lines + (endsWithNewline ? 0 : 1), bytes: size };
  } finally {
    closeSync(fd);
  }
}

/**
 * The spool made again: `head`'s lines, then the old file's bytes from `from` on (answers not in memory), into a
 * new file renamed over the old, so a kill leaves one or the other whole. Returns where the copied bytes begin.
 */
export function rewriteSpool(path: string, head: readonly IngestRecord[], from: number | null): number {
  mkdirSync(dirname(path), { recursive: true });
  const text = head.map(spoolLine).join('');
  writeFileSync(`${path}.new`, text);
  if (from !== null) {
    const source = openSync(path, 'r');
    const target = openSync(`${path}.new`, 'a');
    try {
      const buffer = Buffer.allocUnsafe(CHUNK);
      for (let at = from; ;) {
        const n = readSync(source, buffer, 0, CHUNK, at);
        if (n <= 0) break;
        writeSync(target, buffer, 0, n);
        at += n;
      }
    } finally {
      closeSync(source);
      closeSync(target);
    }
  }
  renameSync(`${path}.new`, path);
  return Buffer.byteLength(text);
}

/** The spool's bytes now (0 when there is none). */
export function spoolSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
