/**
 * The kept answers' file, read a window at a time: every answer back in order, whole, whatever its size or
 * script, a line torn by a kill left out, and a rewrite that keeps what only the disk held.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { IngestRecord } from './answer';
import { countSpool, readSpool, rewriteSpool, spoolLine, spoolSize } from './spool';

const dir = mkdtempSync(join(tmpdir(), 'skein-spool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = () => join(dir, `kept-${++n}.jsonl`);

const answer = (i: number, text: string): IngestRecord => ({
  operation: 'postReplies',
  params: '{"tweetId":"1"}',
  cursor: i === 0 ? null : `c${i}`,
  at: 1000 + i,
  baseUrl: 'https://api.example',
  httpStatus: 200,
  text,
});

/** every answer of the file, a window of `max` at a time */
function readAll(path: string, max: number): { records: IngestRecord[]; reads: number } {
  const records: IngestRecord[] = [];
  let offset = 0;
  let reads = 0;
  for (;;) {
    const read = readSpool(path, offset, max);
    reads++;
    expect(read.lines).toBeGreaterThan(0);
    records.push(...read.records);
    offset = read.offset;
    if (read.end) return { records, reads };
  }
}

describe('a project’s kept answers on disk', () => {
  it('reads them back in order, a window at a time, each whole: long ones, other scripts, markup', () => {
    const path = file();
    const answers = [
      answer(0, '{"replies":[]}'),
      // longer than a read's chunk (1 MB), and in scripts whose characters take 2 to 4 bytes each
      answer(1, JSON.stringify({ text: 'ж'.repeat(700_000) })),
      answer(2, JSON.stringify({ text: '<script>alert(1)</script>\u2028\u0000 "quoted" \\' })),
      answer(3, JSON.stringify({ text: '𝔖'.repeat(400_000) + '字'.repeat(10) })),
      ...Array.from({ length: 50 }, (_, i) => answer(4 + i, JSON.stringify({ i, text: 'a'.repeat(i * 997) }))),
    ];
    writeFileSync(path, answers.map(spoolLine).join(''));
    for (const max of [1, 10_000, 1_000_000, 100_000_000]) {
      const { records, reads } = readAll(path, max);
      expect(records).toEqual(answers);
      if (max === 1) expect(reads).toBe(answers.length);
      if (max === 100_000_000) expect(reads).toBe(1);
    }
    expect(countSpool(path)).toEqual({ lines: answers.length, bytes: spoolSize(path) });
  });

  it('leaves out a line a kill tore, and lines that are not answers, counting them as read', () => {
    const path = file();
    const whole = [answer(0, '{"a":1}'), answer(1, '{"b":2}')];
    writeFileSync(path, `${spoolLine(whole[0]!)}not json\n{"operation":1}\n${spoolLine(whole[1]!)}`);
    appendFileSync(path, spoolLine(answer(2, '{"c":3}')).slice(0, 30));
    const read = readSpool(path, 0, 1_000_000);
    expect(read).toMatchObject({ records: whole, lines: 5, end: true, offset: spoolSize(path) });
    expect(countSpool(path).lines).toBe(5);
    // read from the middle: only what follows
    const from = Buffer.byteLength(spoolLine(whole[0]!));
    expect(readSpool(path, from, 1_000_000).records).toEqual([whole[1]]);
  });

  it('is made again with the answers in memory first, then those only on disk, never torn', () => {
    const path = file();
    const onDisk = [answer(7, '{"x":"only on disk"}'), answer(8, '{"y":"ж"}')];
    const written = answer(1, '{"written":true}');
    writeFileSync(path, [written, ...onDisk].map(spoolLine).join(''));
    const tailAt = Buffer.byteLength(spoolLine(written));
    const inMemory = [answer(3, '{"z":3}'), answer(4, '{"w":4}')];
    const offset = rewriteSpool(path, inMemory, tailAt);
    expect(offset).toBe(Buffer.byteLength(inMemory.map(spoolLine).join('')));
    expect(readSpool(path, 0, 1e9).records).toEqual([...inMemory, ...onDisk]);
    expect(readSpool(path, offset, 1e9).records).toEqual(onDisk);
    expect(existsSync(`${path}.new`)).toBe(false);
    // nothing only on disk: the answers in memory alone
    rewriteSpool(path, inMemory, null);
    expect(readFileSync(path, 'utf8')).toBe(inMemory.map(spoolLine).join(''));
  });
});
