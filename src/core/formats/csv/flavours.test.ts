/**
 * What a researcher gets when the export is opened in an analysis tool: the
 * two CSV flavours read back by Python's csv module and DuckDB's CSV reader
 * with every id exact, per-row provenance, join columns, one-line rows, file
 * names that never collide, and the order a thread was collected in.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { duckdb } from '../../testing/duckdb';
import { describe, expect, it } from 'vitest';
import type { ExportFormat, ExportOptions, ViewDescriptor } from '../../../shared/ipc/export';
import { FakeClock } from '../../testing/fake-clock';
import { ExportService } from '../../export/export-service';
import type { ExportManifest } from '../manifest';
import { memorySource, post, type MemoryPage } from '../../export/testing/memory-source';
import { fileStamp, suggestedFileName } from '../../export/views';
import { sidecarPath } from '../format';
import { idCell } from './write';

const ROOT = '1234567890123456789';
const BIG = '9223372036854775807';
const context = () => ({ appName: 'Skein', appVersion: '0.1.0', mode: 'demo' as const, baseUrl: 'http://127.0.0.1:1' });

// hostile text: quotes, commas, every kind of line break, a leading formula character, right-to-left text
const HOSTILE = 'line one,\r\nline "two"\rthree\nend =1+1 \u202Eevil';

const pages: MemoryPage[] = [
  {
    items: [
      post(ROOT, null, {
        text: HOSTILE,
        quoted_tweet: post('1111111111111111111', null, {
          author: { id: '3000000000000000003', userName: 'quoted_q' },
        }),
      }),
      post('9007199254740993', ROOT, { inReplyToUserId: '2000000000000000002', inReplyToUsername: 'ann' }),
    ],
  },
  { items: [post(BIG, '9007199254740993', { inReplyToUserId: '', inReplyToUsername: null })] },
];
const IDS = [ROOT, '9007199254740993', BIG];

const threadView = (queryType?: string): ViewDescriptor => ({
  kind: 'thread',
  operation: 'postRepliesV2',
  params: { tweetId: ROOT, ...(queryType ? { queryType } : {}) },
  title: 'Replies to @ann: “a thread”',
});

async function exportTo(
  format: ExportFormat,
  options?: ExportOptions,
  view: ViewDescriptor = threadView('Latest'),
  name = `t.${format}`,
  dir?: string,
) {
  const folder = dir ?? (await mkdtemp(join(tmpdir(), 'skein-flavour-')));
  const service = new ExportService({
    source: memorySource(pages),
    stateDir: join(folder, 'state'),
    clock: new FakeClock(),
    context,
  });
  const target = join(folder, name);
  const job = await service.start({ view, format, scope: 'all', targetPath: target, options });
  expect((await service.settled(job.id)).status).toBe('complete');
  const text = await readFile(target, 'utf8');
  const manifest = (
    format === 'json'
      ? (JSON.parse(text) as { manifest: unknown }).manifest
      : JSON.parse(await readFile(sidecarPath(target), 'utf8'))
  ) as ExportManifest;
  return { dir: folder, target, manifest, text };
}

function python(script: string, path: string): unknown {
  return JSON.parse(execFileSync('python3', ['-c', script, path], { encoding: 'utf8' }));
}

const hasPython = (() => {
  try {
    execFileSync('python3', ['--version']);
    return true;
  } catch {
    return false;
  }
})();

describe('CSV for analysis', () => {
  it('has no byte order mark and plain ids that Python csv and DuckDB read back exactly', async () => {
    const { target, manifest, text } = await exportTo('csv', { csvFlavour: 'analysis' });
    expect(text.charCodeAt(0)).not.toBe(0xfeff);
    expect(text).not.toContain('="');
    expect(manifest.csv).toMatchObject({
      flavour: 'analysis',
      encoding: expect.stringContaining('no byte order mark'),
    });

    if (hasPython) {
      const rows = python(
        "import csv,json,sys\nr=csv.DictReader(open(sys.argv[1],newline='',encoding='utf-8'))\nprint(json.dumps({'fields':r.fieldnames,'rows':list(r)}))",
        target,
      ) as { fields: string[]; rows: Array<Record<string, string>> };
      expect(rows.fields[0]).toBe('id');
      expect(rows.rows.map((r) => r.id)).toEqual(IDS);
      expect(rows.rows[0]!.text).toBe(HOSTILE);
    }

    // DuckDB typed by the manifest's column types: ids are text, exactly as written
    const types = Object.keys(manifest.csv!.column_types).map((c) => `'${c}': 'VARCHAR'`);
    const typed = await duckdb(
      `SELECT id, author_id, parent_id, text FROM read_csv('${target}', types={${types.join(', ')}})`,
    );
    expect(typed.map((r) => r.id)).toEqual(IDS);
    expect(typed[0]!.author_id).toBe('2000000000000000002');
    expect(typed[0]!.text).toBe(HOSTILE);
    // and left to guess, it reads them as 64-bit integers: still exact
    const guessed = await duckdb(`SELECT CAST(id AS VARCHAR) AS id FROM read_csv_auto('${target}')`);
    expect(guessed.map((r) => r.id)).toEqual(IDS);
  });

  it('puts one row on one physical line when asked, and says so in the manifest', async () => {
    const { target, manifest, text } = await exportTo('csv', { csvFlavour: 'analysis', oneLinePerRow: true });
    expect(text.trimEnd().split('\n')).toHaveLength(1 + IDS.length);
    expect(manifest.csv!.newlines).toMatch(/one physical line per row/);
    const rows = await duckdb(`SELECT id, text FROM read_csv('${target}', types={'id': 'VARCHAR'})`);
    expect(rows[0]!.text).toBe('line one,\\nline "two"\\nthree\\nend =1+1 \u202Eevil');
    const kept = await exportTo('csv', { csvFlavour: 'analysis' });
    expect(kept.manifest.csv!.newlines).toMatch(/keep their line breaks/);
  });
});

describe('CSV for spreadsheets', () => {
  it('keeps the byte order mark and wraps only numeric ids', async () => {
    const { target, manifest, text } = await exportTo('csv', { csvFlavour: 'spreadsheet' });
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(text).toContain(`"=""${BIG}"""`);
    expect(manifest.csv!.flavour).toBe('spreadsheet');
    if (hasPython) {
      const ids = python(
        "import csv,json,re,sys\nr=csv.DictReader(open(sys.argv[1],newline='',encoding='utf-8-sig'))\nprint(json.dumps([re.sub(r'^=\"|\"$','',x['id']) for x in r]))",
        target,
      );
      expect(ids).toEqual(IDS);
    }
  });

  it('never wraps an id that is not a number (a space id stays plain text)', () => {
    expect(idCell('="1OyKAZaYmEbJb"', 'spreadsheet')).toBe('1OyKAZaYmEbJb');
    expect(idCell('1OyKAZaYmEbJb', 'spreadsheet')).toBe('1OyKAZaYmEbJb');
    expect(idCell('="1234"', 'spreadsheet')).toBe('="1234"');
    expect(idCell('1 2', 'spreadsheet')).toBe('1 2');
    expect(idCell('="1234"', 'analysis')).toBe('1234');
  });
});

describe('every row says where it came from', () => {
  it('CSV: retrieved_at, operation, page and cursor on each row', async () => {
    const { target } = await exportTo('csv', { csvFlavour: 'analysis' });
    const rows = await duckdb(
      `SELECT id, retrieved_at, operation, page, cursor FROM read_csv('${target}', all_varchar=true)`,
    );
    expect(rows.map((r) => [r.id, r.page, r.cursor ?? ''])).toEqual([
      [ROOT, '0', ''],
      ['9007199254740993', '0', ''],
      [BIG, '1', 'c1'],
    ]);
    expect(rows[2]!.retrieved_at).toBe(new Date(1_700_000_000_001).toISOString());
    expect(new Set(rows.map((r) => r.operation))).toEqual(new Set(['postRepliesV2']));
  });

  it('JSONL: a `__skein` object beside the raw item, never inside it', async () => {
    const { text, manifest } = await exportTo('jsonl');
    const lines = text
      .trimEnd()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as { __skein: Record<string, unknown>; item: Record<string, unknown>; depth: number | null },
      );
    expect(lines.map((l) => l.item)).toEqual(pages.flatMap((p) => p.items));
    expect(lines.every((l) => !('__skein' in l.item))).toBe(true);
    expect(lines[2]!.__skein).toEqual({
      retrieved_at: new Date(1_700_000_000_001).toISOString(),
      operation: 'postRepliesV2',
      page: 1,
      cursor: 'c1',
      first_retrieved_at: new Date(1_700_000_000_001).toISOString(),
    });
    expect(lines.map((l) => l.depth)).toEqual([0, 1, 2]);
    expect(manifest.layout).toMatchObject({ items: 'wrapped', provenance_key: '__skein', raw_key: 'item' });
    expect(manifest.row_provenance?.fields).toHaveProperty('retrieved_at');
  });
});

describe('columns researchers join on', () => {
  it('carries the replied-to user and the quoted post author', async () => {
    const { target } = await exportTo('csv', { csvFlavour: 'analysis' });
    const rows = await duckdb(
      `SELECT in_reply_to_user_id AS ru, in_reply_to_username AS rn, quoted_user_id AS qu, quoted_username AS qn FROM read_csv('${target}', all_varchar=true)`,
    );
    expect(rows.map((r) => [r.ru, r.rn, r.qu, r.qn])).toEqual([
      [null, null, '3000000000000000003', 'quoted_q'],
      ['2000000000000000002', 'ann', null, null],
      [null, null, null, null],
    ]);
  });
});

describe('file names', () => {
  it('suggests a unique stem with the UTC time, shared by the data file and its manifest', async () => {
    const now = Date.UTC(2026, 10, 23, 19, 54, 7, 512);
    expect(fileStamp(now)).toBe('20261123T195407Z');
    expect(suggestedFileName(threadView(), 'csv', now)).toBe(`skein-thread-${ROOT}-20261123T195407Z.csv`);
    expect(suggestedFileName(threadView(), 'csv', now + 1000)).not.toBe(suggestedFileName(threadView(), 'csv', now));

    // a CSV and a JSONL export given the same stem keep their own manifests
    const first = await exportTo('csv', { csvFlavour: 'analysis' }, threadView('Latest'), 'same.csv');
    await exportTo('jsonl', undefined, threadView('Latest'), 'same.jsonl', first.dir);
    expect((await readdir(first.dir)).filter((f) => f !== 'state').sort()).toEqual([
      'same.csv',
      'same.csv.load.R',
      'same.csv.load.py',
      'same.csv.manifest.json',
      'same.jsonl',
      'same.jsonl.manifest.json',
    ]);
    const csvManifest = JSON.parse(await readFile(join(first.dir, 'same.csv.manifest.json'), 'utf8')) as ExportManifest;
    expect(csvManifest.format).toBe('csv');
  });
});

describe('the order a thread was collected in', () => {
  it('is recorded, and a relevance-ranked collection says it can leave replies out', async () => {
    expect((await exportTo('json', undefined, threadView('Latest'))).manifest.order).toMatchObject({
      value: 'Latest',
      note: expect.stringMatching(/time order/),
    });
    expect((await exportTo('json', undefined, threadView('Relevance'))).manifest.order).toMatchObject({
      value: 'Relevance',
      note: expect.stringMatching(/leave replies out/),
    });
    // the API's default when the view names none
    expect((await exportTo('json', undefined, threadView())).manifest.order?.value).toBe('Relevance');
  });
});
