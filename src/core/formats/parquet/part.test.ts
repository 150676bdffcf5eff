/**
 * A part file lets go of what hyparquet-writer would keep to its end without changing a byte of the file: the
 * same rows written with and without that, over row groups whose long text columns take several pages.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Cell } from '../csv/table';
import { PartFile, plainBySample } from './part';

const NAMES = ['id', 'text', 'likeCount', 'isReply', 'created_at', 'author_userName'] as const;

/** text that does not compress: a row group's text column is then more than one 1 MB page */
function noise(i: number, length: number): string {
  let s = '';
  let x = i * 2_654_435_761;
  for (let k = 0; k < length; k++) {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    s += String.fromCharCode(97 + (x % 26));
  }
  return s;
}

function row(i: number): Cell[] {
  return [
    String(1_000_000_000 + i),
    `${noise(i, 500 + (i % 97))} <script>${i}</script> 🦩`,
    i % 5 === 0 ? null : i,
    i % 2 === 0,
    new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString(),
    `user${i % 13}`,
  ];
}

async function written(rows: number, names: readonly string[] = NAMES, make = row): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = {
    bytes: 0,
    write: (chunk: string | Uint8Array) => {
      chunks.push(Buffer.from(chunk));
      sink.bytes += chunks.at(-1)?.length ?? 0;
    },
  };
  const part = new PartFile(sink, { names, kv: [{ key: 'skein.view', value: '{}' }], createdBy: 'Skein test' });
  for (let i = 0; i < rows; i++) await part.add(make(i));
  await part.finish();
  return Buffer.concat(chunks);
}

afterEach(() => vi.restoreAllMocks());

describe('a Parquet part file', () => {
  it('writes the same bytes while it lets go of metadata and page indexes the file does not need', async () => {
    const lean = await written(6_100);
    vi.spyOn(PartFile.prototype as unknown as { compact: () => void }, 'compact').mockImplementation(() => undefined);
    const kept = await written(6_100);
    expect(lean.equals(kept)).toBe(true);
    // the rows do make page indexes the file holds: letting go of all of them would change it
    vi.restoreAllMocks();
    vi.spyOn(PartFile.prototype as unknown as { compact: () => void }, 'compact').mockImplementation(function (
      this: unknown,
    ) {
      (this as { writer: { pendingIndexes: unknown[] } }).writer.pendingIndexes = [];
    });
    expect((await written(6_100)).equals(kept)).toBe(false);
  });

  /** free-text columns: unique text (plain), text that repeats (a dictionary), mostly empty, hostile */
  const FREE = ['id', 'text', 'url', 'description', 'full_text'] as const;
  const freeRow = (i: number): Cell[] => [
    String(1_000_000_000 + i),
    i % 11 === 0 ? null : `${noise(i, 40 + (i % 50))} 日本 é \u0000 🧵 ${'"'.repeat(i % 3)}`,
    `https://example.invalid/${i % 7}`,
    i % 4 === 0 ? '' : null,
    i % 200 === 0 ? `lone \ud800 surrogate ${i}` : `${noise(i, 8)}`,
  ];

  it('encodes free text itself only where the writer would write it plain, and the bytes are the same', async () => {
    const column = (k: number, n: number) => Array.from({ length: n }, (_, i) => freeRow(i)[k] as string | null);
    expect(plainBySample(column(1, 2_500))).toBe(true);
    expect(plainBySample(column(2, 2_500))).toBe(false);
    expect(plainBySample(column(3, 2_500))).toBe(false);
    expect(plainBySample([null, null])).toBe(true);
    const here = await written(6_100, FREE, freeRow);
    const spy = vi
      .spyOn(PartFile.prototype as unknown as { encodedHere: () => null }, 'encodedHere')
      .mockImplementation(() => null);
    const writers = await written(6_100, FREE, freeRow);
    expect(spy).toHaveBeenCalled();
    expect(here.equals(writers)).toBe(true);
  });
});
