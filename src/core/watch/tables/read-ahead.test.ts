import { describe, expect, it } from 'vitest';
import { HOLD_MS, readAhead } from './read-ahead';
import type { CsvPage } from './records';

/** a table of `rows` numbered rows, read `limit` at a time after a number; each read recorded */
function table(rows: number, fail: (after: number | null) => boolean = () => false) {
  const reads: Array<number | null> = [];
  const read = async (q: { after: number | null; limit: number }): Promise<CsvPage<number>> => {
    reads.push(q.after);
    if (fail(q.after)) throw new Error(`the read after ${q.after} failed`);
    const from = (q.after ?? 0) + 1;
    const last = Math.min(rows, from + q.limit - 1);
    const n = Math.max(0, last - from + 1);
    const lines = Array.from({ length: n }, (_, i) => `${from + i}\n`);
    return { text: lines.join(''), rows: n, last: n ? last : null };
  };
  return { read, reads };
}

/** the next turn of the event loop, where a page is read ahead */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** every page, asked one after another as the export asks */
async function walk(pages: (q: { after: number | null; limit: number }) => Promise<CsvPage<number>>, limit: number) {
  let after: number | null = null;
  let text = '';
  for (;;) {
    const page: CsvPage<number> = await pages({ after, limit });
    text += page.text;
    after = page.last ?? after;
    if (page.rows < limit) return text;
  }
}

describe('readAhead', () => {
  it('reads the page after a full one before it is asked for, and answers the ask with it', async () => {
    const t = table(25);
    const pages = readAhead(t.read);
    const first = await pages({ after: null, limit: 10 });
    expect(first.last).toBe(10);
    await turn();
    // the second page is read already, with nothing asked
    expect(t.reads).toEqual([null, 10]);
    const second = await pages({ after: 10, limit: 10 });
    expect(second.text).toBe(Array.from({ length: 10 }, (_, i) => `${11 + i}\n`).join(''));
    await turn();
    // the ask took it (no second read of it); the third page was read ahead in its turn
    expect(t.reads).toEqual([null, 10, 20]);
  });

  it('gives the same table as reading every page when asked, each page read once', async () => {
    const plain = table(1234);
    const ahead = table(1234);
    expect(await walk(readAhead(ahead.read), 100)).toBe(await walk(plain.read, 100));
    expect(ahead.reads).toEqual(plain.reads);
  });

  it('reads nothing ahead after a short page (the table’s end)', async () => {
    const t = table(5);
    const pages = readAhead(t.read);
    expect((await pages({ after: null, limit: 10 })).rows).toBe(5);
    await turn();
    expect(t.reads).toEqual([null]);
  });

  it('never answers another ask with a page read ahead', async () => {
    const t = table(100);
    const pages = readAhead(t.read);
    await pages({ after: null, limit: 10 });
    await turn();
    // another export, from another place: read for it
    const other = await pages({ after: 50, limit: 10 });
    expect(other.text.startsWith('51\n')).toBe(true);
    // and the first page's read-ahead is dropped: asked now, the page after 10 is read again
    const again = await pages({ after: 10, limit: 10 });
    expect(again.text.startsWith('11\n')).toBe(true);
    expect(t.reads.filter((a) => a === 10)).toHaveLength(2);
  });

  it('reads again a page held longer than it may be', async () => {
    const t = table(100);
    let clock = 0;
    const pages = readAhead(t.read, () => clock);
    await pages({ after: null, limit: 10 });
    await turn();
    clock += HOLD_MS + 1;
    await pages({ after: 10, limit: 10 });
    expect(t.reads.filter((a) => a === 10)).toHaveLength(2);
  });

  it('reads again, when asked, a page whose read ahead failed', async () => {
    let failing = true;
    const t = table(30, (after) => after === 10 && failing);
    const pages = readAhead(t.read);
    await pages({ after: null, limit: 10 });
    await turn();
    failing = false;
    const second = await pages({ after: 10, limit: 10 });
    expect(second.text.startsWith('11\n')).toBe(true);
    expect(t.reads.filter((a) => a === 10)).toHaveLength(2);
  });

  it('fails the ask when its own read fails', async () => {
    const t = table(30, (after) => after === null);
    await expect(readAhead(t.read)({ after: null, limit: 10 })).rejects.toThrow('the read after null failed');
  });
});
