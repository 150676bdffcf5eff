import { describe, expect, it } from 'vitest';
import { CsvRecords } from './csv-records';
import { importIds, MAX_LISTED, previewIdFile, type IdImportOptions } from './id-import';

const read = (text: string, options: IdImportOptions) => importIds([text], options);
/** The same text cut into chunks of every size from 1 to 7: the result must not depend on where chunks end. */
async function everyCut(text: string, options: IdImportOptions) {
  const whole = await read(text, options);
  for (let size = 1; size <= 7; size++) {
    const chunks: string[] = [];
    for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
    expect(await importIds(chunks, options)).toEqual(whole);
  }
  return whole;
}

describe('id import', () => {
  it('txt: one per line; quotes, spaces, CRLF and Skein ="…" cells stripped; repeats counted; blanks skipped', async () => {
    const text = '1234567890123456789\r\n "22" \n\n="9223372036854775807"\n22\n\'33\'\n1234567890123456789';
    const s = await everyCut(text, { kind: 'posts', source: { format: 'txt' } });
    expect(s.ids).toEqual(['1234567890123456789', '22', '9223372036854775807', '33']);
    expect(s).toMatchObject({ lines: 7, accepted: 4, duplicates: 2, blank: 1, damagedTotal: 0, invalidTotal: 0 });
  });

  it('refuses, with line and reason, ids a spreadsheet damaged and anything that is not an id', async () => {
    const text = [
      '1.23457E+18',
      '1850000000000000000',
      '1234567890123456000.00',
      '1850000000000000001',
      '<script>alert(1)</script>',
      '12345678901234567890123',
      '0123',
      '@ada',
      '\u0000\ud800',
      '-5',
    ].join('\n');
    const s = await everyCut(text, { kind: 'posts', source: { format: 'txt' } });
    expect(s.ids).toEqual(['1850000000000000001']);
    expect(s.damaged.map((d) => [d.line, d.token])).toEqual([
      [1, '1.23457E+18'],
      [2, '1850000000000000000'],
      [3, '1234567890123456000.00'],
    ]);
    expect(s.damaged[0]?.why).toMatch(/scientific notation/);
    expect(s.damaged[1]?.why).toMatch(/15 digits, then zeros/);
    expect(s.invalid.map((d) => d.line)).toEqual([5, 6, 7, 8, 9, 10]);
    expect(s.invalid[1]?.why).toMatch(/longer than any id/);
    expect(s.invalid[2]?.why).toMatch(/starts with 0/);
    expect(s.invalid[3]?.why).toMatch(/not a post id/);
  });

  describe('ids ending in zeros past the 15th digit are judged over the whole list', () => {
    // genuine 19-digit ids: all their digits, a few of them ending in zeros by chance (1 in 10,000)
    const genuine = Array.from({ length: 300 }, (_, i) => `18500000000${String(i * 7919 + 12345678).padStart(8, '0')}`);
    const zeros = '1850000001234560000';
    const txt: IdImportOptions = { kind: 'posts', source: { format: 'txt' } };

    it('among many long ids with all their digits, one ending in zeros is a genuine id, in its place', async () => {
      const list = [...genuine.slice(0, 150), zeros, ...genuine.slice(150)];
      const s = await read(list.join('\n'), txt);
      expect(s).toMatchObject({ accepted: 301, damagedTotal: 0 });
      expect(s.ids).toEqual(list);
    });

    it('ids given out as they are read are taken back when the verdict refuses them, the counts as if it had waited', async () => {
      const given: string[] = [];
      const withdrawn: string[][] = [];
      const other = '1850000001234590000';
      // refused (1 in 51 is more than chance): the zeros twice (a repeat), and another whose text form (a JSON
      // string, which no spreadsheet rounds) comes later
      const lines = [...genuine.slice(0, 50), zeros, other, zeros].map((id) => `{"id":${id}}`);
      const s = await importIds([[...lines, `{"id":"${other}"}`].join('\n')], {
        kind: 'posts',
        source: { format: 'jsonl', path: 'id' },
        onId: (id) => given.push(id),
        onWithdraw: (ids) => withdrawn.push([...ids]),
      });
      expect(withdrawn).toEqual([[zeros]]);
      expect(given.filter((id) => !withdrawn[0]!.includes(id))).toEqual([...genuine.slice(0, 50), other]);
      expect(s).toMatchObject({ accepted: 51, duplicates: 0, damagedTotal: 3 });
      expect(s.damaged.map((d) => d.line)).toEqual([51, 52, 53]);
      // judged genuine: nothing taken back
      const kept: string[] = [];
      await importIds([[...genuine.slice(0, 150), zeros, ...genuine.slice(150)].join('\n')], {
        kind: 'posts',
        source: { format: 'txt' },
        onId: (id) => kept.push(id),
        onWithdraw: () => expect.unreachable('nothing to take back'),
      });
      expect(kept.indexOf(zeros)).toBe(150);
    });

    it('when the other long numbers look rounded too, or are too few to tell, each is refused with its line', async () => {
      const rounded = await read(['1850000001234560000', '1850000001234570000', '1850000001234580000'].join('\n'), txt);
      expect(rounded.ids).toEqual([]);
      expect(rounded.damaged.map((d) => d.line)).toEqual([1, 2, 3]);
      // an edited cell among 50 long ids: 1 in 51 is far more than chance gives
      const edited = await read([...genuine.slice(0, 50), zeros].join('\n'), txt);
      expect(edited).toMatchObject({ accepted: 50, damagedTotal: 1 });
      expect(edited.damaged[0]).toMatchObject({ line: 51, token: zeros });
      expect(edited.damaged[0]?.why).toMatch(/15 digits, then zeros/);
    });

    it('text is never rounded: a Skein ="…" cell and a JSON string are ids whatever their last digits', async () => {
      const csv = await read(`id\n"=""${zeros}"""\n`, {
        kind: 'posts',
        source: { format: 'csv', column: 'id', header: true },
      });
      expect(csv.ids).toEqual([zeros]);
      const jsonl = await read(`{"id":"${zeros}"}\n{"id":1850000001234570000}\n`, {
        kind: 'posts',
        source: { format: 'jsonl', path: 'id' },
      });
      expect(jsonl.ids).toEqual([zeros]);
      expect(jsonl.damaged.map((d) => d.line)).toEqual([2]);
    });
  });

  it('users: ids, @handles and profile URLs; handles counted once whatever their case', async () => {
    const s = await read('12\n@Ada\nada\nhttps://x.com/grace\nhttps://x.com/home\n', {
      kind: 'users',
      source: { format: 'txt' },
    });
    expect(s.ids).toEqual(['12']);
    expect(s.handles).toEqual(['Ada', 'grace']);
    expect(s.duplicates).toBe(1);
    expect(s.invalid.map((i) => i.token)).toEqual(['https://x.com/home']);
  });

  it('pasted text: spaces, commas and lines; a decimal-comma 1,23E+18 is one damaged token', async () => {
    const s = await read('11, 22 33\n1,23E+18; https://x.com/a/status/44', {
      kind: 'posts',
      source: { format: 'paste' },
    });
    expect(s.ids).toEqual(['11', '22', '33', '44']);
    expect(s.damaged.map((d) => d.token)).toEqual(['1.23E+18']);
  });

  it('CSV: a column by name in Skein\'s spreadsheet flavour (BOM, ="…" ids, quoted line breaks)', async () => {
    const text =
      '\ufeffid,text,author_id\r\n="1234567890123456789","a, ""quoted""\r\nmulti-line",="2"\r\n1.23E+18,x,3\r\n="1234567890123456789",dup,4\r\n';
    const s = await everyCut(text, { kind: 'posts', source: { format: 'csv', column: 'id', header: true } });
    expect(s.ids).toEqual(['1234567890123456789']);
    expect(s).toMatchObject({ duplicates: 1, damagedTotal: 1, lines: 4 });
    expect(s.damaged[0]).toMatchObject({ line: 3, token: '1.23E+18' });
    const byPosition = await read(text, { kind: 'users', source: { format: 'csv', column: 2, header: true } });
    expect(byPosition.ids).toEqual(['2', '3', '4']);
  });

  it('TSV and a missing column are told, not guessed', async () => {
    const tsv = 'user_id\tname\n5\tA\n6\tB';
    expect(
      (await read(tsv, { kind: 'users', source: { format: 'csv', column: 'user_id', header: true, delimiter: '\t' } }))
        .ids,
    ).toEqual(['5', '6']);
    const missing = await read(tsv, {
      kind: 'users',
      source: { format: 'csv', column: 'nope', header: true, delimiter: '\t' },
    });
    expect(missing.ids).toEqual([]);
    expect(missing.invalid[0]?.why).toMatch(/no such column/);
  });

  it('JSONL: a field path; a JSON number id keeps its exact digits; broken lines are listed', async () => {
    const text = [
      '{"item":{"id":"1234567890123456789"}}',
      '{"item":{"id":9223372036854775807}}',
      '{"item":{}}',
      '{not json',
      '{"item":{"id":{"x":1}}}',
      '{"item":{"id":"1.2E+18"}}',
    ].join('\n');
    const s = await everyCut(text, { kind: 'posts', source: { format: 'jsonl', path: 'item.id' } });
    expect(s.ids).toEqual(['1234567890123456789', '9223372036854775807']);
    expect(s.invalid.map((i) => [i.line, i.why])).toEqual([
      [3, 'no value at item.id'],
      [4, 'not a JSON line'],
      [5, 'the value at item.id is not an id'],
    ]);
    expect(s.damaged.map((d) => d.line)).toEqual([6]);
  });

  it('lists at most MAX_LISTED refusals but counts them all; streams ids to a callback without keeping them', async () => {
    const bad = Array.from({ length: MAX_LISTED + 5 }, () => 'x').join('\n');
    const got: string[] = [];
    const s = await read(`${bad}\n7\n8\n7`, { kind: 'posts', source: { format: 'txt' }, onId: (id) => got.push(id) });
    expect(s.invalid).toHaveLength(MAX_LISTED);
    expect(s.invalidTotal).toBe(MAX_LISTED + 5);
    expect(got).toEqual(['7', '8']);
    expect(s.ids).toBeUndefined();
  });

  it('preview: delimiter, columns, first rows and the column that holds ids', () => {
    expect(previewIdFile('name;tweet_id\nA;11\nB;22\n', 'posts')).toEqual({
      delimiter: ';',
      columns: ['name', 'tweet_id'],
      rows: [
        ['A', '11'],
        ['B', '22'],
      ],
      suggested: 1,
    });
    expect(previewIdFile('a\tb\nx\t1234567890123456789\n', 'posts').suggested).toBe(1);
    expect(previewIdFile('', 'posts')).toMatchObject({ columns: [], rows: [], suggested: null });
  });
});

describe('CsvRecords', () => {
  it('reads quoted cells, doubled quotes, CR, LF and CRLF, and a last line without a break', () => {
    const out: string[][] = [];
    const r = new CsvRecords(',');
    r.push('a,"b,""c""\nd"\r\ne,,\rf', (x) => out.push([...x]));
    r.end((x) => out.push([...x]));
    expect(out).toEqual([['a', 'b,"c"\nd'], ['e', '', ''], ['f']]);
  });
});
