import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, open, readdir, readFile, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { isSkeinError } from '../../shared/errors';
import {
  chunked,
  holdFileAtomic,
  removeStaleTemps,
  TEXT_CHUNK_CHARS,
  tempPathFor,
  toWriteError,
  writeFileAtomic,
  writeJoined,
  type Sink,
} from './atomic-file';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), '..', 'export', 'testing', 'write-child.ts');

/** Runs the writer in a child process; with `stall`, kills it (SIGKILL) once it is half-way through. */
function runChild(
  target: string,
  tag: string,
  stall: boolean,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', CHILD, target, '4000', tag, ...(stall ? ['stall'] : [])],
      {
        cwd: process.cwd(),
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      if (text.includes('stalled')) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
}

describe('writeFileAtomic', () => {
  it('a writer killed mid-write leaves the target absent, or the previous complete file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skein-atomic-'));
    const target = join(dir, 'export.json');

    expect((await runChild(target, 'first', true)).signal).toBe('SIGKILL');
    expect(await readdir(dir)).not.toContain('export.json');

    expect((await runChild(target, 'complete', false)).code).toBe(0);
    const complete = await readFile(target, 'utf8');
    expect((JSON.parse(complete) as { items: unknown[] }).items).toHaveLength(4000);

    expect((await runChild(target, 'second', true)).signal).toBe('SIGKILL');
    expect(await readFile(target, 'utf8')).toBe(complete);
    // the killed writer's temp file is cleaned up by the next write
    await writeFileAtomic(target, async (sink) => sink.write('{}'));
    expect(await readdir(dir)).toEqual(['export.json']);
  });

  it("clears what a killed writer staged for this target only: a temp file and a dataset's hidden folder", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skein-atomic-'));
    const target = join(dir, 'posts.parquet');
    // a dataset is built in a hidden folder named as a temp file is (parquet.ts), part files inside it
    const staged = tempPathFor(target);
    await mkdir(join(staged, 'collected_date=2026-11-29'), { recursive: true });
    await writeFile(join(staged, 'collected_date=2026-11-29', 'part-00000.parquet'), 'half');
    await writeFile(tempPathFor(target), 'half a file');
    // another export's temp beside it, and a file that only looks alike, are not ours to clear
    const other = tempPathFor(join(dir, 'users.parquet'));
    await writeFile(other, 'someone else');
    await writeFile(join(dir, 'posts.parquet.skein-tmp-notes.txt'), 'kept');
    expect(await removeStaleTemps(target)).toBe(2);
    expect((await readdir(dir)).sort()).toEqual([basename(other), 'posts.parquet.skein-tmp-notes.txt'].sort());
  });

  it('keeps every byte in order while a write is in flight and the next chunk is made', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skein-atomic-'));
    const target = join(dir, 'big.csv');
    let expected = '';
    const bytes = await writeFileAtomic(target, async (sink) => {
      for (let i = 0; i < 20_000; i++) {
        const line = `${i},${'é'.repeat(i % 97)}\n`;
        expected += line;
        // awaited and not awaited, as the writers do
        if (i % 2 === 0) await sink.write(line);
        else void sink.write(Buffer.from(line));
      }
    });
    expect(await readFile(target, 'utf8')).toBe(expected);
    expect(bytes).toBe(Buffer.byteLength(expected));
  });

  it('writes every byte of chunks of any size and script, however they fall on its buffers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skein-atomic-'));
    const target = join(dir, 'mixed.jsonl');
    const expected: Buffer[] = [];
    // a small buffer the producer fills again after each write, as a row builder may
    const reused = Buffer.alloc(1000);
    const bytes = await writeFileAtomic(target, async (sink) => {
      for (let i = 0; i < 600; i++) {
        // text of every width (1 to 4 bytes a character, a lone surrogate written as U+FFFD), some near a buffer's size
        const unit = ['a', 'é', '語', '😀', '\ud800'][i % 5]!;
        const text = unit.repeat([1, 77, 4_099, 30_000, 90_000, 131_071][i % 6]!);
        expected.push(Buffer.from(text, 'utf8'));
        await sink.write(text);
        reused.fill(i % 251);
        expected.push(Buffer.from(reused));
        await sink.write(reused);
        if (i % 29 === 0 || i % 7 === 3) {
          // bytes that go to the disk as they are, between two pieces of text in one buffer
          const own = Buffer.alloc(i % 29 === 0 ? 300_000 + i : 20_000 + i, i % 7);
          expected.push(own);
          await sink.write(own);
          const after = `after ${i}\n`;
          expected.push(Buffer.from(after));
          await sink.write(after);
        }
        if (i % 5 === 0) await sink.write('');
      }
    });
    const want = Buffer.concat(expected);
    const got = await readFile(target);
    expect(got.length).toBe(want.length);
    expect(got.equals(want)).toBe(true);
    expect(bytes).toBe(want.length);
  });

  it("copies bytes lent to it, whatever their size: the lender's buffer filled again does not change the file", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skein-atomic-'));
    const target = join(dir, 'lent.jsonl');
    // one buffer filled afresh for each write, as the journal's is for each page: small and big views of it lent
    const lender = Buffer.alloc(300_000);
    const expected: Buffer[] = [];
    await writeFileAtomic(target, async (sink) => {
      for (let i = 0; i < 40; i++) {
        lender.fill(i + 1);
        const view = lender.subarray(0, [100, 20_000, 299_000][i % 3]);
        expected.push(Buffer.from(view));
        const flushed = sink.write(view, true);
        if (flushed) await flushed;
      }
    });
    expect((await readFile(target)).equals(Buffer.concat(expected))).toBe(true);
  });

  it('holds many files open at the cost of their bytes, not of a big buffer each (a dataset holds a file per day)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skein-atomic-'));
    const before = process.memoryUsage().arrayBuffers;
    const held = await Promise.all(Array.from({ length: 200 }, (_, i) => holdFileAtomic(join(dir, `part-${i}.bin`))));
    for (const [i, file] of held.entries()) {
      await file.sink.write(Buffer.from('PAR1'));
      await file.sink.write(`day ${i}`);
    }
    const grown = process.memoryUsage().arrayBuffers - before;
    for (const file of held) file.close(false);
    await Promise.allSettled(held.map((file) => file.done));
    // 200 files of a few bytes: a 512 KB buffer each would be 100 MB
    expect(grown).toBeLessThan(200 * 48 * 1024);
  });

  it('writes a long file through a few buffers, whether the disk is quicker or slower than the producer', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skein-atomic-'));
    const target = join(dir, 'long.jsonl');
    const made = vi.spyOn(Buffer, 'allocUnsafeSlow');
    const page = (i: number) => `${String(i).padStart(8, '0')}${'x'.repeat(90_000)}\n`;
    try {
      await writeFileAtomic(target, async (sink) => {
        for (let i = 0; i < 600; i++) {
          await sink.write(page(i));
          // a producer that sometimes waits (for the network) while the disk finishes every write in flight
          if (i % 6 === 5) await new Promise((resolve) => setTimeout(resolve, 2));
        }
      });
      // the first few buffers, each twice the one before; never one made again for each write the disk returns
      expect(made.mock.calls.length).toBeLessThanOrEqual(8);
    } finally {
      made.mockRestore();
    }
    const text = await readFile(target, 'utf8');
    expect(text.length).toBe(600 * page(0).length);
    expect(text.startsWith(page(0)) && text.endsWith(page(599))).toBe(true);
  });

  it('a failure while producing leaves the previous file and no temp file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skein-atomic-'));
    const target = join(dir, 'x.csv');
    await writeFile(target, 'previous');
    const full = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    const error = await writeFileAtomic(target, async (sink) => {
      await sink.write('a'.repeat(1 << 20));
      throw full;
    }).catch((e: unknown) => e);
    expect(isSkeinError(error) && error.code).toBe('write-failed');
    expect((error as Error).message).toContain('disk is full');
    expect(await readFile(target, 'utf8')).toBe('previous');
    expect(await readdir(dir)).toEqual(['x.csv']);
  });

  it('hands a long file to the disk as it grows, so its end waits for its last part only; a failed sync fails the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skein-atomic-'));
    const probe = await open(join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as FileHandle;
    await probe.close();
    // the bytes handed to the disk when each sync was asked for, and whether the file's end sync came after them
    const asked: Array<{ at: number; end: boolean }> = [];
    let size = 0;
    const datasync = vi.spyOn(proto, 'datasync').mockImplementation(() => {
      asked.push({ at: size, end: false });
      return Promise.resolve();
    });
    const sync = vi.spyOn(proto, 'sync').mockImplementation(() => {
      asked.push({ at: size, end: true });
      return Promise.resolve();
    });
    const chunk = Buffer.alloc(1 << 20, 'x');
    const produce = async (sink: Sink, megabytes: number) => {
      for (let i = 0; i < megabytes; i++) {
        await sink.write(chunk);
        size = sink.bytes;
      }
    };
    try {
      const target = join(dir, 'long.jsonl');
      expect(await writeFileAtomic(target, (sink) => produce(sink, 200))).toBe(200 << 20);
      expect((await stat(target)).size).toBe(200 << 20);
      const mid = asked.filter((a) => !a.end);
      // every 64 MB or so while it was written, then once at its end
      expect(mid.length).toBeGreaterThanOrEqual(2);
      expect(mid.every((a) => a.at < 200 << 20)).toBe(true);
      expect(asked.findIndex((a) => a.end)).toBe(mid.length);
      // a short file is synced at its end only, as before (the file, then its folder)
      asked.length = 0;
      await writeFileAtomic(join(dir, 'short.jsonl'), (sink) => produce(sink, 3));
      expect(asked.length).toBeGreaterThan(0);
      expect(asked.every((a) => a.end)).toBe(true);
      // a disk that fails a sync while the file is written: the file fails in plain words, nothing is left behind
      datasync.mockImplementation(() => Promise.reject(Object.assign(new Error('EIO'), { code: 'EIO' })));
      await writeFile(target, 'previous');
      const error = await writeFileAtomic(target, (sink) => produce(sink, 100)).catch((e: unknown) => e);
      expect(isSkeinError(error) && error.code).toBe('write-failed');
      expect(await readFile(target, 'utf8')).toBe('previous');
      expect((await readdir(dir)).sort()).toEqual(['long.jsonl', 'probe', 'short.jsonl']);
    } finally {
      datasync.mockRestore();
      sync.mockRestore();
    }
  });

  it('says what to do for permission and read-only problems', () => {
    for (const [code, words] of [
      ['EACCES', 'not allowed'],
      ['EPERM', 'not allowed'],
      ['EROFS', 'read-only'],
    ] as const) {
      const e = toWriteError(Object.assign(new Error(code), { code }), '/data/out.json');
      expect(isSkeinError(e) && e.code).toBe('write-failed');
      expect((e as Error).message).toContain(words);
      expect(isSkeinError(e) && e.details?.action).toBeTruthy();
    }
    const other = new Error('other');
    expect(toWriteError(other, '/x')).toBe(other);
  });
});

describe('text joined into chunks', () => {
  // items of every length up to a third of a chunk, some outside Latin-1 (the text a CSV line or a GEXF node is)
  const items = Array.from(
    { length: 3_000 },
    (_, i) => `${i},${'é日'.repeat(i % 97)}${'x'.repeat((i * 7919) % 5_000)}\n`,
  );
  const whole = 'header\n' + items.join('');

  it('keeps every character in order, the header first, each chunk but the last a full one and none much over', () => {
    const chunks = [...chunked(items, (t) => t, 'header\n')];
    expect(chunks.join('')).toBe(whole);
    expect(chunks.length).toBeGreaterThan(10);
    for (const c of chunks.slice(0, -1)) {
      expect(c.length).toBeGreaterThanOrEqual(TEXT_CHUNK_CHARS);
      expect(c.length).toBeLessThan(TEXT_CHUNK_CHARS + 5_000 + 2 * 97 + 8);
    }
    expect([...chunked([], (t: string) => t)]).toEqual([]);
    expect([...chunked([], (t: string) => t, 'only a header\n')]).toEqual(['only a header\n']);
    expect([...chunked(['a', 'b'], (t, i) => `${i}${t}`)]).toEqual(['0a1b']);
  });

  it('hands items arriving over time to a file in the same chunks, the last one too', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skein-chunks-'));
    const target = join(dir, 'joined.txt');
    async function* arriving() {
      for (const t of items) {
        if (t.length % 11 === 0) await new Promise((r) => setImmediate(r));
        yield t;
      }
    }
    const sizes: number[] = [];
    await writeFileAtomic(target, async (sink) => {
      const counting: Sink = {
        write: (c, borrowed) => {
          sizes.push(c.length);
          return sink.write(c, borrowed);
        },
        get bytes() {
          return sink.bytes;
        },
      };
      await writeJoined(counting, arriving(), (t) => t, 'header\n');
    });
    expect(await readFile(target, 'utf8')).toBe(whole);
    expect(sizes).toEqual([...chunked(items, (t) => t, 'header\n')].map((c) => c.length));
  });
});

describe('holdFileAtomic', () => {
  it('holds a file open for rows that come later: kept, it replaces the target whole; dropped, nothing changes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skein-held-'));
    const target = join(dir, 'rows.csv');
    await writeFile(target, 'the previous export\n');

    const dropped = await holdFileAtomic(target);
    await dropped.sink.write('half of a new export\n');
    dropped.close(false);
    await expect(dropped.done).rejects.toThrow();
    expect(await readFile(target, 'utf8')).toBe('the previous export\n');
    expect(await readdir(dir)).toEqual(['rows.csv']);

    const kept = await holdFileAtomic(target);
    await kept.sink.write('a,b\n');
    await kept.sink.write('1,2\n');
    expect(await readFile(target, 'utf8')).toBe('the previous export\n');
    kept.close(true);
    expect(await kept.done).toBe(8);
    expect(await readFile(target, 'utf8')).toBe('a,b\n1,2\n');
    expect(await readdir(dir)).toEqual(['rows.csv']);
  });

  it('says in plain words when the file cannot be opened', async () => {
    const error = await holdFileAtomic(join(tmpdir(), 'no-such-folder-skein', 'x.csv')).catch((e: unknown) => e);
    expect(isSkeinError(error) && error.code).toBe('write-failed');
  });
});
