/**
 * The twarc-csv and 4CAT column sets (research-conventions.md), read back by Python's csv module and DuckDB:
 * the columns in their tools' order, exact ids, a retweet's whole text, JSON-encoded lists for twarc and
 * comma-joined ones for 4CAT, line breaks as `\n` for twarc, provenance last.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { duckdb } from '../../testing/duckdb';
import { describe, expect, it } from 'vitest';
import type { ExportOptions, ViewDescriptor } from '../../../shared/ipc/export';
import { FakeClock } from '../../testing/fake-clock';
import { FOURCAT_POST_COLUMNS, TWARC_POST_COLUMNS, TWARC_USER_COLUMNS } from './presets';
import { ExportService } from '../../export/export-service';
import type { ExportManifest } from '../manifest';
import { memorySource, post } from '../../export/testing/memory-source';
import { sidecarPath } from '../format';

const context = () => ({ appName: 'Skein', appVersion: '0.1.0', mode: 'demo' as const, baseUrl: 'http://127.0.0.1:1' });
const BIG = '9223372036854775807';
const ORIGINAL = 'the whole original,\nwith "quotes" and =1+1';

const items = [
  post(BIG, null, {
    text: 'RT @orig: the whole…',
    retweeted_tweet: post('1111111111111111111', null, {
      text: ORIGINAL,
      author: { id: '3000000000000000003', userName: 'orig' },
    }),
    entities: {
      hashtags: [{ text: 'tag' }, { text: 'two' }],
      user_mentions: [{ screen_name: 'orig', id_str: '3000000000000000003' }],
      urls: [{ expanded_url: 'https://example.invalid/a,b' }],
    },
    likeCount: 5,
    viewCount: '17',
    source: '<a href="x">client</a>',
  }),
  post('9007199254740993', BIG, { inReplyToUsername: 'ann', inReplyToUserId: '2000000000000000002' }),
];

async function exportCsv(options: ExportOptions, view?: ViewDescriptor, data: unknown[] = items) {
  const dir = await mkdtemp(join(tmpdir(), 'skein-preset-'));
  const service = new ExportService({
    source: memorySource([{ items: data }]),
    stateDir: join(dir, 'state'),
    clock: new FakeClock(),
    context,
  });
  const target = join(dir, 'x.csv');
  const job = await service.start({
    view: view ?? { kind: 'timeline', operation: 'userTimeline', params: { userId: '2000000000000000002' } },
    format: 'csv',
    scope: 'all',
    targetPath: target,
    options,
  });
  expect((await service.settled(job.id)).status).toBe('complete');
  const manifest = JSON.parse(await readFile(sidecarPath(target), 'utf8')) as ExportManifest;
  return { target, manifest, text: await readFile(target, 'utf8') };
}

function pythonRows(path: string): Array<Record<string, string>> {
  const script =
    'import csv,json,sys; print(json.dumps(list(csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")))))';
  return JSON.parse(execFileSync('python3', ['-c', script, path], { encoding: 'utf8' })) as Array<
    Record<string, string>
  >;
}

describe('CSV column presets', () => {
  it('twarc: its columns in its order, the original text of a retweet on one line, JSON lists, __twarc last', async () => {
    const { target, manifest, text } = await exportCsv({ csvFlavour: 'analysis', csvColumns: 'twarc' });
    expect(text.split('\n')[0]).toBe(
      [...TWARC_POST_COLUMNS, '__twarc.retrieved_at', '__twarc.url', '__twarc.version'].join(','),
    );
    // one physical line per row (twarc's way), whatever the dialog said
    expect(text.trimEnd().split('\n')).toHaveLength(3);
    expect(manifest.csv?.columns).toBe('twarc');
    const rows = pythonRows(target);
    expect(rows[0]?.id).toBe(BIG);
    expect(rows[0]?.text).toBe(ORIGINAL.replace('\n', '\\n'));
    expect(rows[0]?.['referenced_tweets.retweeted.id']).toBe('1111111111111111111');
    expect(rows[0]?.retweeted_username).toBe('orig');
    expect(JSON.parse(rows[0]?.['entities.hashtags'] ?? '')).toEqual([{ tag: 'tag' }, { tag: 'two' }]);
    expect(rows[0]?.['public_metrics.impression_count']).toBe('17');
    expect(rows[1]?.['referenced_tweets.replied_to.id']).toBe(BIG);
    expect(rows[1]?.in_reply_to_username).toBe('ann');
    expect(rows[0]?.['__twarc.url']).toBe(`${manifest.base_url}${manifest.view.path}`);
    expect(rows[0]?.['__twarc.version']).toBe('Skein 0.1.0');
    const typed = await duckdb(
      `SELECT id, "author.id" AS author, "public_metrics.like_count" AS likes FROM read_csv('${target}', types={'id': 'VARCHAR', 'author.id': 'VARCHAR'})`,
    );
    expect(typed[0]).toEqual({ id: BIG, author: '2000000000000000002', likes: 5n });
  });

  it('twarc for users; other kinds keep Skein columns', async () => {
    const users = [{ type: 'user', id: BIG, userName: 'u', name: 'U', followers: 3, pinnedTweetIds: ['42', '43'] }];
    const { target } = await exportCsv(
      { csvFlavour: 'analysis', csvColumns: 'twarc' },
      { kind: 'usersByIds', operation: 'usersByIds', params: { userIds: BIG } },
      users,
    );
    const rows = pythonRows(target);
    expect(Object.keys(rows[0] ?? {})).toEqual([
      ...TWARC_USER_COLUMNS,
      '__twarc.retrieved_at',
      '__twarc.url',
      '__twarc.version',
    ]);
    expect(rows[0]).toMatchObject({
      id: BIG,
      username: 'u',
      pinned_tweet_id: '42',
      'public_metrics.followers_count': '3',
    });
  });

  it("4CAT: its required import columns first, the post's text as body, comma-joined lists, a 4CAT timestamp", async () => {
    const { target, text } = await exportCsv({ csvFlavour: 'spreadsheet', csvColumns: '4cat' });
    expect(text.startsWith('\ufeffid,thread_id,author,body,timestamp,')).toBe(true);
    const rows = await duckdb(`SELECT * FROM read_csv('${target}', all_varchar = true)`);
    expect(Object.keys(rows[0] ?? {})).toEqual([
      ...FOURCAT_POST_COLUMNS,
      'retrieved_at',
      'operation',
      'page',
      'cursor',
      'first_retrieved_at',
    ]);
    expect(rows[0]?.id).toBe(`="${BIG}"`);
    // neutralised for spreadsheets: the formula-like original keeps its text after the apostrophe
    expect(rows[0]?.body).toBe(ORIGINAL);
    expect(rows[0]?.timestamp).toBe('2026-11-22 02:13:21');
    expect(rows[0]?.hashtags).toBe('tag,two');
    expect(rows[0]?.is_retweet).toBe('true');
    expect(rows[1]?.replied_author).toBe('ann');
  });

  it("4CAT, read by Python's csv module as 4CAT's importer reads a file: the required columns by name, plain ids", async () => {
    const { target } = await exportCsv({ csvFlavour: 'analysis', csvColumns: '4cat' });
    const rows = pythonRows(target);
    expect(Object.keys(rows[0] ?? {}).slice(0, 5)).toEqual(['id', 'thread_id', 'author', 'body', 'timestamp']);
    expect(rows[0]).toMatchObject({ id: BIG, body: ORIGINAL, timestamp: '2026-11-22 02:13:21' });
    expect(rows[1]?.thread_id).toMatch(/^\d+$/);
  });
});
