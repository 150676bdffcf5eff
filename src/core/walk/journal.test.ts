import { appendFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rawText } from '../formats/format';
import { Journal, type FailedFetch, type PageRecord } from './journal';

function page(kept: number, cursor: string | null, nextCursor: string | null): PageRecord {
  return {
    request: 0,
    cursor,
    nextCursor,
    hasNextPage: nextCursor !== null,
    fetchedAt: 1,
    fromCache: false,
    httpStatus: 200,
    credits: 15 * kept,
    attempts: 1,
    received: kept,
    kept,
    duplicates: 0,
    dropped: [],
    notFound: [],
    stop: null,
  };
}
const item = (id: string, raw: unknown) => ({ id, position: 'null', raw: JSON.stringify(raw) });

async function collectItems(j: Journal) {
  const out = [];
  for await (const it of j.items()) out.push(it);
  return out;
}

describe('Journal', () => {
  it('opens a journal as the code before the walk moved here wrote it, and appends after it', async () => {
    // the bytes an export's journal held before the page walk was shared: the format has not changed
    const path = join(await mkdtemp(join(tmpdir(), 'skein-journal-')), 'before.log');
    const record = {
      request: 0,
      cursor: null,
      nextCursor: 'c1',
      hasNextPage: true,
      fetchedAt: 1,
      fromCache: false,
      httpStatus: 200,
      credits: 30,
      attempts: 1,
      received: 2,
      kept: 2,
      duplicates: 0,
      dropped: [],
      notFound: [],
      stop: null,
    };
    const failure = { request: 0, cursor: 'c1', at: 2, calls: 3, credits: 45, code: 'upstream', message: '503' };
    await writeFile(
      path,
      'i\t"1"\tnull\t{"id":"1"}\n' +
        'i\t"2"\tnull\t{"id":"2"}\n' +
        `p\t${JSON.stringify(record)}\n` +
        `f\t${JSON.stringify(failure)}\n`,
    );
    const ids: Array<string | null> = [];
    const pages: PageRecord[] = [];
    const failures: FailedFetch[] = [];
    const j = await Journal.open(path, {
      onItem: (id) => ids.push(id),
      onPage: (p) => pages.push(p),
      onFailure: (f) => failures.push(f),
    });
    expect(ids).toEqual(['1', '2']);
    expect(pages).toEqual([record]);
    expect(failures).toEqual([failure]);
    await j.appendPage([item('3', { id: '3' })], page(1, 'c1', null));
    const raws = (await collectItems(j)).map((i) => rawText(i));
    await j.close();
    expect(raws).toEqual(['{"id":"1"}', '{"id":"2"}', '{"id":"3"}']);
  });

  it('replays committed pages and items in order after reopening', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'skein-journal-')), 'journal.log');
    const j = await Journal.open(path);
    await j.appendPage(
      [item('1', { id: '1', text: 'tab\there\nnewline ✓' }), item('2', { id: '2' })],
      page(2, null, 'c1'),
    );
    await j.appendPage([item('3', { id: '3' })], page(1, 'c1', null));
    await j.close();

    const ids: Array<string | null> = [];
    const pages: PageRecord[] = [];
    const again = await Journal.open(path, { onItem: (id) => ids.push(id), onPage: (p) => pages.push(p) });
    expect(ids).toEqual(['1', '2', '3']);
    expect(pages.map((p) => p.cursor)).toEqual([null, 'c1']);
    const items = await collectItems(again);
    expect(items.map((i): unknown => JSON.parse(rawText(i)))).toEqual([
      { id: '1', text: 'tab\there\nnewline ✓' },
      { id: '2' },
      { id: '3' },
    ]);
    await again.close();
  });

  it('writes an outsized item whole without keeping a buffer its size for the rest of the walk', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'skein-journal-')), 'journal.log');
    const j = await Journal.open(path);
    const huge = { id: '1', text: 'ü'.repeat(5_000_000) };
    const outsized = [item('1', huge)];
    await j.appendPage(outsized, page(1, null, 'c1'));
    // nor is its buffer held to hand its text out: a writer beside the journal encodes it itself
    expect(j.writtenTexts(outsized)).toBeNull();
    await j.appendPage([item('2', { id: '2' })], page(1, 'c1', null));
    // what the journal holds between pages: a page's text three times over would be 30 MB here
    expect((j as unknown as { scratch: Buffer }).scratch.length).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect((await collectItems(j)).map((i): unknown => JSON.parse(rawText(i)))).toEqual([huge, { id: '2' }]);
    await j.close();
  });

  it("hands out the last page's items as it wrote them, and nothing for any other page", async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'skein-journal-')), 'journal.log');
    const j = await Journal.open(path);
    const first = [
      { id: '1', position: '{"depth":1}', raw: '{\n "id": "1", "t": "日本 ✓"\n}' },
      item('2', { id: '2', t: '😀' }),
    ];
    await j.appendPage(first, page(2, null, 'c1'));
    const texts = j.writtenTexts(first);
    // each item's text as its journal line holds it: UTF-8, its line breaks made spaces
    expect(texts?.map((t) => Buffer.from(t).toString('utf8'))).toEqual([
      '{  "id": "1", "t": "日本 ✓" }',
      '{"id":"2","t":"😀"}',
    ]);
    expect(j.writtenTexts([...first])).toBeNull();
    const second = [item('3', { id: '3' })];
    await j.appendPage(second, page(1, 'c1', null));
    expect(j.writtenTexts(first)).toBeNull();
    expect(j.writtenTexts(second)?.map((t) => Buffer.from(t).toString('utf8'))).toEqual(['{"id":"3"}']);
    // a page that could not be written (its file gone from under it) leaves none to hand out
    await (j as unknown as { handle: { close: () => Promise<void> } }).handle.close();
    const third = [item('4', { id: '4' })];
    await expect(j.appendPage(third, page(1, null, null))).rejects.toThrow();
    expect(j.writtenTexts(second)).toBeNull();
    expect(j.writtenTexts(third)).toBeNull();
  });

  it('keeps an item as the text that arrived, a pretty-printed one on one line with its values unchanged', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'skein-journal-')), 'journal.log');
    const j = await Journal.open(path);
    const pretty = '{\r\n\t"id": "1",\n\t"big": 12345678901234567890,\n\t"t": "a\\nb \\u2028"\n}';
    const flat = '{"id":"2","n":1E+2}';
    await j.appendPage(
      [
        { id: '1', position: 'null', raw: pretty },
        { id: '2', position: 'null', raw: flat },
      ],
      page(2, null, null),
    );
    await j.close();
    const again = await Journal.open(path);
    const raws = (await collectItems(again)).map((i) => rawText(i));
    expect(raws).toHaveLength(2);
    // the digits, escapes and spellings as they arrived; the line breaks between tokens became spaces
    expect(raws[0]).toBe(pretty.replace(/[\r\n]/g, ' '));
    expect(raws[1]).toBe(flat);
    expect(JSON.parse(raws[0] ?? '')).toEqual(JSON.parse(pretty));
    await again.close();
  });

  it('reads a journal of many read chunks, lines across their edges, whole and in order', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'skein-journal-')), 'journal.log');
    const j = await Journal.open(path);
    const expected: string[] = [];
    for (let p = 0; p < 40; p++) {
      const items = Array.from({ length: 20 }, (_, i) => {
        const n = p * 20 + i;
        expected.push(String(n));
        return item(String(n), { id: String(n), text: '✓'.repeat((n * 7919) % 3000) });
      });
      await j.appendPage(items, page(20, p === 0 ? null : `c${p}`, `c${p + 1}`));
    }
    await j.close();
    const again = await Journal.open(path);
    expect(again.size).toBeGreaterThan(4 * (1 << 18));
    const items = await collectItems(again);
    expect(items.map((i) => i.id)).toEqual(expected);
    expect(items.map((i) => (JSON.parse(rawText(i)) as { text: string }).text.length)).toEqual(
      expected.map((n) => (Number(n) * 7919) % 3000),
    );
    // a reader that stops early leaves nothing in flight on the handle
    for await (const first of again.items()) {
      expect(first.id).toBe('0');
      break;
    }
    await again.close();
  });

  it('cuts off a torn write after the last complete page', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'skein-journal-')), 'journal.log');
    const j = await Journal.open(path);
    await j.appendPage([item('1', { id: '1' })], page(1, null, 'c1'));
    await j.close();
    const good = await readFile(path);
    // items of a page whose commit line never made it, then half a line
    await appendFile(path, 'i\t"2"\tnull\t{"id":"2"}\ni\t"3"\tnull\t{"id":');

    const ids: Array<string | null> = [];
    const again = await Journal.open(path, { onItem: (id) => ids.push(id) });
    expect(ids).toEqual(['1']);
    expect(await readFile(path)).toEqual(good);
    // appending continues cleanly after the cut
    await again.appendPage([item('2', { id: '2' })], page(1, 'c1', null));
    expect((await collectItems(again)).map((i) => i.id)).toEqual(['1', '2']);
    await again.close();
  });

  it('does not trust a commit line whose item count does not match', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'skein-journal-')), 'journal.log');
    await writeFile(path, `i\t"1"\tnull\t{"id":"1"}\np\t${JSON.stringify(page(2, null, null))}\n`);
    const pages: PageRecord[] = [];
    const j = await Journal.open(path, { onPage: (p) => pages.push(p) });
    expect(pages).toEqual([]);
    expect(j.size).toBe(0);
    await j.close();
  });

  it('keeps failed fetches between pages, replays them in order, and cuts a torn one', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'skein-journal-')), 'journal.log');
    const failed: FailedFetch = {
      request: 0,
      cursor: 'c1',
      at: 5,
      calls: 4,
      credits: 60,
      code: 'upstream',
      message: 'HTTP 503',
    };
    const j = await Journal.open(path);
    await j.appendPage([item('1', { id: '1' })], page(1, null, 'c1'));
    await j.appendFailure(failed);
    await j.appendPage([item('2', { id: '2' })], page(1, 'c1', null));
    await j.close();
    const good = await readFile(path);
    await appendFile(path, 'f\t{"request":0,"cursor":"c2","calls":');

    const seen: string[] = [];
    const again = await Journal.open(path, {
      onPage: (p) => seen.push(`page ${p.cursor}`),
      onFailure: (f) => seen.push(`failed ${f.cursor} ${f.calls} ${f.credits}`),
    });
    expect(seen).toEqual(['page null', 'failed c1 4 60', 'page c1']);
    expect(await readFile(path)).toEqual(good);
    expect((await collectItems(again)).map((i) => i.id)).toEqual(['1', '2']);
    await again.close();
  });
  it('remembers a page asked for and never kept (a walk killed between paying and keeping), and no other', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'skein-journal-')), 'journal.log');
    const j = await Journal.open(path);
    await j.appendAsked({ request: 0, cursor: null, at: 10 });
    await j.appendPage([item('1', { id: '1' })], page(1, null, 'c1'));
    await j.appendAsked({ request: 0, cursor: 'c1', at: 20 });
    await j.appendFailure({
      request: 0,
      cursor: 'c1',
      at: 21,
      calls: 1,
      credits: 15,
      code: 'upstream',
      message: '503',
    });
    await j.appendAsked({ request: 0, cursor: 'c1', at: 30 });
    await j.close();
    // a torn line after it changes nothing
    await appendFile(path, 'a\t{"request":0,"cur');
    const again = await Journal.open(path);
    expect(again.asksBefore(0, null)).toEqual([]);
    expect(again.asksBefore(0, 'c1')).toEqual([30]);
    expect(again.asksBefore(1, null)).toEqual([]);
    // what this life asks is not an earlier life's
    await again.appendAsked({ request: 1, cursor: null, at: 40 });
    expect(again.asksBefore(1, null)).toEqual([]);
    expect((await collectItems(again)).map((i) => i.id)).toEqual(['1']);
    await again.close();
  });

  it('keeps every unsettled ask of earlier lives: a failure settles only the ask just before it', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'skein-journal-')), 'lives.log');
    const j = await Journal.open(path);
    // a life asks and is killed in flight; the next asks again, fails, asks once more and is killed too
    await j.appendAsked({ request: 0, cursor: null, at: 10 });
    await j.appendAsked({ request: 0, cursor: null, at: 20 });
    await j.appendFailure({ request: 0, cursor: null, at: 21, calls: 1, credits: 0, code: 'upstream', message: '503' });
    await j.appendAsked({ request: 0, cursor: null, at: 30 });
    await j.close();
    const again = await Journal.open(path);
    expect(again.asksBefore(0, null)).toEqual([10, 30]);
    // a page settles them all
    await again.appendPage([item('1', { id: '1' })], page(1, null, 'c1'));
    await again.close();
    const third = await Journal.open(path);
    expect(third.asksBefore(0, null)).toEqual([]);
    await third.close();
  });
});
