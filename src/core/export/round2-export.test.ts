/**
 * Exports of the second round of recorded live shapes, read back as a researcher would (DuckDB):
 * poll choices and counts as typed columns in CSV and Parquet, cards kept raw in JSON, `is_automated` and
 * `automated_by` for posts' authors and users, and the trends' own time and place in the manifest.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTOMATED_USER,
  RECORDED_ROUND2_POSTS,
  RECORDED_TRENDS_LIVE,
  recordedPollPost,
} from '../../shared/api/fixtures/recorded-round2';
import { recordedUser } from '../../shared/api/fixtures/recorded';
import type { ExportFormat, ViewDescriptor } from '../../shared/ipc/export';
import type { ExportManifest } from '../formats';
import { duckdb } from '../testing/duckdb';
import { sandboxExporter } from './testing/sandbox-export';

const USERS = [AUTOMATED_USER, recordedUser('1111111111111111111', 'orig')];

let server: Server;
let baseUrl = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const body =
      path === '/social/tweet/quotes'
        ? { tweets: RECORDED_ROUND2_POSTS, has_next_page: false, next_cursor: '', status: 'success', msg: 'success' }
        : path === '/social/user/batch_info_by_ids'
          ? { status: 'success', msg: 'success', users: USERS }
          : path === '/social/trends'
            ? RECORDED_TRENDS_LIVE
            : null;
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { detail: 'Not Found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const QUOTES: ViewDescriptor = { kind: 'quotes', operation: 'postQuotes', params: { tweetId: '1' }, title: 'round 2' };
const USERS_VIEW: ViewDescriptor = {
  kind: 'usersByIds',
  operation: 'usersByIds',
  params: { userIds: USERS.map((u) => String(u.id)).join(',') },
  title: 'users',
};
const TRENDS: ViewDescriptor = { kind: 'trends', operation: 'trends', params: { woeid: 1, count: 30 }, title: 't' };

async function exported(view: ViewDescriptor, format: ExportFormat, csvFlavour?: 'analysis') {
  const { dir, service } = await sandboxExporter(baseUrl);
  const path = join(dir, `x.${format}`);
  const job = await service.start({
    view,
    format,
    scope: 'all',
    targetPath: path,
    ...(csvFlavour ? { options: { csvFlavour } } : {}),
  });
  const done = await service.settled(job.id);
  expect(done.error).toBeNull();
  // a JSON export holds its manifest; the others have it beside them
  const manifestText = await readFile(format === 'json' ? path : `${path}.manifest.json`, 'utf8');
  const manifest = (
    format === 'json' ? (JSON.parse(manifestText) as { manifest: ExportManifest }).manifest : JSON.parse(manifestText)
  ) as ExportManifest;
  return { path, manifest };
}

const POLL = `SELECT poll_choice1_label, poll_choice1_count, poll_choice2_label, poll_choice2_count, poll_choice3_label,
  poll_counts_are_final, poll_duration_minutes, CAST(poll_ends_at AS VARCHAR) AS ends, card_name, card_url,
  typeof(poll_choice1_count) AS count_type, typeof(poll_counts_are_final) AS final_type, typeof(poll_ends_at) AS ends_type`;

describe('round-2 shapes exported', () => {
  it('Parquet: poll choices and counts as typed columns, link and broadcast cards by name, automated authors', async () => {
    const { path, manifest } = await exported(QUOTES, 'parquet');
    expect(manifest.counts).toMatchObject({ items: RECORDED_ROUND2_POSTS.length, dropped: 0 });
    const [poll] = await duckdb(`${POLL} FROM read_parquet('${path}') WHERE id = '${String(recordedPollPost.id)}'`);
    expect(poll).toEqual({
      poll_choice1_label: 'Open data by default',
      poll_choice1_count: 5678n,
      poll_choice2_label: 'Only on request',
      poll_choice2_count: 1234n,
      poll_choice3_label: null,
      poll_counts_are_final: true,
      poll_duration_minutes: 1440n,
      ends: expect.stringMatching(/^2025-10-08 09:30:00/),
      card_name: 'poll2choice_text_only',
      card_url: 'card://1934000000000000777',
      count_type: 'BIGINT',
      final_type: 'BOOLEAN',
      ends_type: expect.stringMatching(/^TIMESTAMP/),
    });
    const four = await duckdb(
      `SELECT poll_choice1_count + poll_choice2_count + poll_choice3_count + poll_choice4_count AS votes FROM read_parquet('${path}') WHERE card_name = 'poll4choice_text_only'`,
    );
    expect(four).toEqual([{ votes: 48n }]);
    const cards = await duckdb(
      `SELECT card_name, card_url, card_title, card_domain FROM read_parquet('${path}') WHERE card_name NOT LIKE 'poll%' ORDER BY card_name`,
    );
    expect(cards).toEqual([
      {
        card_name: '745291183405076480:broadcast',
        card_url: 'https://x.com/i/broadcasts/1ZkJzjKabcdEF',
        card_title: 'Harbour live: the storm comes in',
        card_domain: null,
      },
      {
        card_name: 'summary_large_image',
        card_url: 'https://www.example.org/harbour-data',
        card_title: 'Harbour data released in full',
        card_domain: 'www.example.org',
      },
    ]);
    const bots = await duckdb(
      `SELECT author_userName, author_automated_by FROM read_parquet('${path}') WHERE author_is_automated`,
    );
    expect(bots).toEqual([{ author_userName: 'weatherbot', author_automated_by: 'harbourlab' }]);
  });

  it('CSV (analysis): the same columns, read by DuckDB', async () => {
    const { path } = await exported(QUOTES, 'csv', 'analysis');
    const [poll] = await duckdb(
      `${POLL} FROM read_csv('${path}', types = {'id': 'VARCHAR', 'poll_ends_at': 'TIMESTAMP'}) WHERE id = '${String(recordedPollPost.id)}'`,
    );
    expect(poll).toMatchObject({
      poll_choice1_label: 'Open data by default',
      poll_choice1_count: 5678n,
      poll_choice2_count: 1234n,
      poll_counts_are_final: true,
      card_name: 'poll2choice_text_only',
    });
    const bots = await duckdb(
      `SELECT count(*) AS n FROM read_csv('${path}', types = {'id': 'VARCHAR'}) WHERE author_is_automated AND author_automated_by = 'harbourlab'`,
    );
    expect(bots).toEqual([{ n: 1n }]);
  });

  it('JSON: every card kept raw, its key/value pairs whole', async () => {
    const { path } = await exported(QUOTES, 'json');
    const doc = JSON.parse(await readFile(path, 'utf8')) as { items: unknown[] };
    expect(doc.items.map((i) => JSON.stringify(i))).toEqual(RECORDED_ROUND2_POSTS.map((p) => JSON.stringify(p)));
  });

  it('users: is_automated and automated_by', async () => {
    const { path } = await exported(USERS_VIEW, 'parquet');
    const rows = await duckdb(
      `SELECT userName, is_automated, automated_by FROM read_parquet('${path}') ORDER BY userName`,
    );
    expect(rows).toEqual([
      { userName: 'orig', is_automated: false, automated_by: null },
      { userName: 'weatherbot', is_automated: true, automated_by: 'harbourlab' },
    ]);
  });

  it('trends: the manifest records the answer’s own time and place', async () => {
    const { manifest } = await exported(TRENDS, 'csv');
    const said = {
      as_of: '2025-10-07T00:40:00.000Z',
      refresh_interval_ms: 300_000,
      place: { name: 'Worldwide', woeid: 1 },
    };
    expect(manifest.snapshot).toEqual(said);
    expect(manifest.pages.at(0)?.snapshot).toEqual(said);
  });
});
