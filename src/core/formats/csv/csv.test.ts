import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../testing/fake-clock';
import { MAX_POLL_CHOICES } from '../../../shared/api/normalize/card';
import { csvId, decodeCsvId, TABLES } from './rows';
import { isoFromCreatedAt, mediaUrls } from '../item-fields';
import { ExportService } from '../../export/export-service';
import type { ExportManifest } from '../manifest';
import { memorySource, post } from '../../export/testing/memory-source';

const ROOT = '1234567890123456789';

/** Rows as csv-parse gives them, ids decoded as the manifest says. */
function readCsv(text: string, idColumns: string[]): Array<Record<string, string>> {
  return parse<Record<string, string>>(text, {
    bom: true,
    columns: true,
    cast: (value, ctx) =>
      typeof ctx.column === 'string' && idColumns.includes(ctx.column) ? decodeCsvId(value) : value,
  });
}

describe('CSV export', () => {
  it('keeps ids above 2^53 as exact strings and rebuilds the thread tree from its rows', async () => {
    // a small tree: root ← a ← b, root ← c, and d whose parent is not in the export
    const ids = { a: '9007199254740993', b: '9223372036854775807', c: '1234567890123456790', d: '1234567890123456791' };
    const items = [
      post(ROOT, null, {
        text: 'root, with "quotes",\nand a newline',
        viewCount: '1200',
        entities: { hashtags: [{ text: 'ok', indices: [0, 3] }] },
      }),
      post(ids.a, ROOT),
      post(ids.b, ids.a, {
        extendedEntities: { media: [{ type: 'photo', media_url_https: 'https://img.invalid/1.jpg' }] },
      }),
      post(ids.c, ROOT, { viewCount: [0] }),
      post(ids.d, '5555555555555555555'),
    ];
    const dir = await mkdtemp(join(tmpdir(), 'skein-csv-'));
    const service = new ExportService({
      source: memorySource([{ items: items.slice(0, 3) }, { items: items.slice(3) }]),
      stateDir: join(dir, 'state'),
      clock: new FakeClock(),
      context: () => ({ appName: 'Skein', appVersion: '0.1.0', mode: 'demo', baseUrl: 'http://127.0.0.1:1' }),
    });
    const target = join(dir, 'thread.csv');
    const job = await service.start({
      view: { kind: 'thread', operation: 'postRepliesV2', params: { tweetId: ROOT } },
      format: 'csv',
      scope: 'all',
      targetPath: target,
    });
    expect((await service.settled(job.id)).status).toBe('complete');

    const manifest = JSON.parse(await readFile(join(dir, 'thread.csv.manifest.json'), 'utf8')) as ExportManifest;
    const idColumns = manifest.csv!.id_columns['thread.csv']!;
    expect(idColumns).toEqual(expect.arrayContaining(['id', 'author_id', 'inReplyToId', 'root_id', 'parent_id']));
    const text = await readFile(target, 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    // a spreadsheet sees a text formula, never a bare 19-digit number
    expect(text).toContain('"=""9223372036854775807"""');
    expect(text).not.toMatch(/,9223372036854775807,/);

    const rows = readCsv(text, idColumns);
    expect(rows.map((r) => r.id)).toEqual([ROOT, ids.a, ids.b, ids.c, ids.d]);
    expect(rows[0]).toMatchObject({
      text: 'root, with "quotes",\nand a newline',
      createdAt: 'Sun Nov 22 02:13:21 +0000 2026',
      created_at: '2026-11-22T02:13:21.000Z',
      author_id: '2000000000000000002',
      author_userName: 'ann',
      viewCount: '1200',
      hashtags: 'ok',
      depth: '0',
      parent_id: '',
      isReply: 'false',
    });
    expect(rows[2]!.media_urls).toBe('https://img.invalid/1.jpg');
    expect(rows[3]!.viewCount).toBe('');

    // the tree from the CSV's parent_id equals the tree from the raw items' inReplyToId
    const tree = (pairs: Array<[string, string | null]>) =>
      pairs.map(([id, parent]) => `${parent ?? '-'}>${id}`).sort();
    expect(tree(rows.map((r) => [r.id!, r.parent_id || null]))).toEqual(
      tree(items.map((p) => [p.id as string, (p.inReplyToId as string | null) ?? null])),
    );
    expect(rows.map((r) => r.root_id)).toEqual(Array(5).fill(ROOT));
    expect(rows.map((r) => r.depth)).toEqual(['0', '1', '2', '1', '']);
  });

  it('flattens live-service variants too', () => {
    expect(isoFromCreatedAt('Mon Jan 05 23:59:59 -0130 2026')).toBe('2026-01-06T01:29:59.000Z');
    expect(isoFromCreatedAt('not a date')).toBeNull();
    expect(csvId(null)).toBe('');
    expect(decodeCsvId(csvId('0042'))).toBe('0042');
    expect(
      mediaUrls({
        entities: {
          media: [{ media_results: { result: { media_info: { original_img_url: 'https://a.invalid/x.png' } } } }],
        },
        extendedEntities: {
          media: [
            { media_url_https: 'https://a.invalid/x.png' },
            {
              media_url_https: 'https://a.invalid/v.jpg',
              video_info: { variants: [{ url: 'https://a.invalid/v.mp4' }] },
            },
          ],
        },
      }),
    ).toEqual(['https://a.invalid/x.png', 'https://a.invalid/v.jpg', 'https://a.invalid/v.mp4']);
    const [trend] = TABLES.trend[0]!.rows({ trend: { name: '#x', target: { query: '%23x' }, rank: 1 } }, null, {
      params: {},
      index: 0,
    });
    expect(trend).toMatchObject({ position: 1, name: '#x', query: '%23x' });
  });

  it('gives every post row each of its columns, a poll choice column for each choice the reader keeps', () => {
    const posts = TABLES.post[0]!;
    const [row] = posts.rows({ id: '1', card: { name: 'poll4choice_text_only' } }, null, { params: {}, index: 0 });
    expect(Object.keys(row!).sort()).toEqual([...posts.columns].sort());
    expect(posts.columns.filter((c) => /^poll_choice\d+_label$/.test(c))).toHaveLength(MAX_POLL_CHOICES);
  });

  it.each([
    ['csv', undefined],
    ['csv', 'exact'],
    ['json', undefined],
  ] as const)('formula cells (attack: =HYPERLINK, +, -, @, TAB, CR) in %s, cells %s', async (format, csvCells) => {
    const hostile = ['=HYPERLINK("http://evil.invalid","x")', '+1+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1', 'plain'];
    const items = hostile.map((t, i) =>
      post(`10000000000000000${10 + i}`, null, {
        text: t,
        author: { type: 'user', id: '2000000000000000002', userName: 'ann', name: t },
      }),
    );
    const dir = await mkdtemp(join(tmpdir(), 'skein-csv-'));
    const service = new ExportService({
      source: memorySource([{ items }]),
      stateDir: join(dir, 'state'),
      clock: new FakeClock(),
      context: () => ({ appName: 'Skein', appVersion: '0.1.0', mode: 'demo', baseUrl: 'http://127.0.0.1:1' }),
    });
    const target = join(dir, `f.${format}`);
    const view = { kind: 'thread', operation: 'postRepliesV2', params: { tweetId: ROOT } } as const;
    const job = await service.start({
      view,
      format,
      scope: 'all',
      targetPath: target,
      csvCells,
    });
    expect((await service.settled(job.id)).status).toBe('complete');
    const text = await readFile(target, 'utf8');
    if (format === 'json') {
      // JSON keeps every item byte-exact
      const parsed = JSON.parse(text) as { items: Array<{ item: { text: string } }> };
      expect(parsed.items.map((e) => e.item.text)).toEqual(hostile);
      return;
    }
    const manifest = JSON.parse(await readFile(join(dir, 'f.csv.manifest.json'), 'utf8')) as ExportManifest;
    const rows = readCsv(text, manifest.csv!.id_columns['f.csv']!);
    const texts = rows.map((r) => r.text);
    if (csvCells === 'exact') {
      expect(texts).toEqual(hostile);
      expect(manifest.csv!.text_cells).toMatch(/exactly as received/);
    } else {
      expect(texts).toEqual(hostile.map((t) => (t === 'plain' ? t : `'${t}`)));
      expect(rows.map((r) => r.author_name)).toEqual(hostile.map((t) => (t === 'plain' ? t : `'${t}`)));
      expect(manifest.csv!.text_cells).toMatch(/leading apostrophe/);
      // Skein's own id formulas stay as they are
      expect(rows[0]!.id).toBe('1000000000000000010');
    }
  });
});
