/**
 * What only a team project has: several Skeins writing one project at once, a server that goes away and comes
 * back, the schema's own checks, the password and TLS. Against a real PostgreSQL started by the test
 * (testing/postgres.ts); skipped with the reason without one, except in CI.
 */
import {
  appendFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { postFixture } from '../../../shared/api/fixtures';
import { ArchiveQuery } from '../../../shared/ipc/archive';
import type { IngestRecord } from '../answer';
import { PROJECT_LOCK } from '../common';
import { ArchiveHost } from '../host';
import { post, rec, repliesAnswer, repliesPage } from '../testing/answers';
import { skipWithoutPostgres, startTestCluster, type TestCluster } from '../../db/testing/postgres';
import { parseConnection } from '../../db/postgres/connection';
import { pgDb } from '../../db/postgres/db';
import { pgExecutor } from '../../db/postgres/executor';
import { createPool } from '../../db/postgres/pool';
import type { Db } from '../../db/executor';
import { sql, type Sql } from '../../db/sql';
import { PostgresProject } from './project';
import { search } from './query';
import { PG_SCHEMA_VERSION } from './schema';
import { PARTS } from '../../compose/parts';
import { countSpool, spoolLine } from '../spool';
import { startArchiveThread, type ArchiveThread } from '../thread';
import type { WatchTables } from '../../watch';

const skip = skipWithoutPostgres();
let cluster: TestCluster;
let n = 0;
const schema = () => `team_${process.pid}_${++n}`;
const init = (researcher: string) => ({ name: 'Team', kind: 'live' as const, now: 1, researcher });

/** A thread's page: the root post in every page (as the service sends it), and replies of its own. */
function threadPage(root: string, first: number, at: number, likes = 0): IngestRecord {
  const replies = Array.from({ length: 19 }, (_, i) => ({
    ...postFixture,
    id: String(first + i),
    text: `reply ${first + i} to ${root}`,
    quoted_tweet: null,
  }));
  return {
    operation: 'postReplies',
    params: `{"tweetId":"${root}"}`,
    cursor: first === 0 ? null : `c${first}`,
    at,
    baseUrl: 'https://api.example',
    httpStatus: 200,
    text: JSON.stringify({
      replies: [
        { ...postFixture, id: root, text: `the thread ${root}`, likeCount: likes, quoted_tweet: null },
        ...replies,
      ],
      next_cursor: `c${first + 19}`,
      status: 'success',
    }),
  };
}

describe.skipIf(skip)(`a team project on PostgreSQL${skip ? ` (${skip})` : ''}`, () => {
  beforeAll(async () => {
    cluster = await startTestCluster();
  }, 120_000);
  afterAll(() => cluster?.stop());

  it('takes three Skeins writing at once: every answer kept, each item once, each write with its researcher', async () => {
    const where = cluster.connection(schema());
    const skeins = await Promise.all(['Ada', 'Grace', 'Edsger'].map((r) => PostgresProject.open(where, init(r))));
    // each collects its own thread, and all of them the same shared one, in batches at once
    await Promise.all(
      skeins.map(async (p, k) => {
        for (let batch = 0; batch < 8; batch++) {
          await p.ingest([
            ...Array.from({ length: 6 }, (_, i) =>
              threadPage(`${k + 1}00`, 1_000_000 * (k + 1) + (batch * 6 + i) * 19, 1000 + batch),
            ),
            threadPage('999', 50_000_000 + batch * 19, 1000 + batch),
          ]);
        }
      }),
    );
    const s = await skeins[0]!.summary();
    // 3 × 48 pages of their own threads + 3 × 8 pages of the shared one, 19 replies each and the roots
    expect(s.requests).toBe(3 * 8 * 7);
    expect(s.items).toBe(3 * 48 * 19 + 8 * 19 + 4);
    expect(s.researchers.map((r) => [r.name, r.answers]).sort()).toEqual([
      ['Ada', 56],
      ['Edsger', 56],
      ['Grace', 56],
    ]);
    const twice = cluster.psql(
      `SELECT count(*) FROM (SELECT kind, id FROM ${where.schema}.items GROUP BY kind, id HAVING count(*) > 1) d`,
    );
    expect(twice.trim()).toBe('0');
    // the shared thread's page 3 was recorded by all three, each under its name
    const prov = await skeins[2]!.provenance('post', String(50_000_000 + 2 * 19));
    expect(prov?.requests.map((r) => r.researcher).sort()).toEqual(['Ada', 'Edsger', 'Grace']);
    expect(prov?.versions).toEqual([]);
    await Promise.all(skeins.map((p) => p.close()));
  }, 60_000);

  it('keeps one current row and every earlier version when two Skeins record changes of one item at once', async () => {
    const where = cluster.connection(schema());
    const [a, b] = await Promise.all([
      PostgresProject.open(where, init('Ada')),
      PostgresProject.open(where, init('Grace')),
    ]);
    await Promise.all([
      (async () => {
        for (let i = 0; i < 20; i++) await a.ingest([threadPage('700', 0, 1000 + 2 * i, 2 * i)]);
      })(),
      (async () => {
        for (let i = 0; i < 20; i++) await b.ingest([threadPage('700', 0, 1001 + 2 * i, 2 * i + 1)]);
      })(),
    ]);
    const prov = await a.provenance('post', '700');
    expect(prov?.requests).toHaveLength(40);
    // 40 different counts were seen: the newest is the item, the 39 others its versions (late answers among them)
    expect(prov?.versions).toHaveLength(39);
    const [hit] = (await b.search(ArchiveQuery.parse({ text: 'thread' }), 0, 1)).hits;
    expect(hit).toMatchObject({ id: '700', lastSeen: 1039 });
    expect((hit?.item as { likeCount: number }).likeCount).toBe(39);
    await Promise.all([a.close(), b.close()]);
  }, 60_000);

  it('keeps the answers while the server is away and writes them once it is back: nothing lost', async () => {
    const reports: string[] = [];
    const host = new ArchiveHost((e) => reports.push(e.message));
    const where = cluster.connection(schema());
    await host.api.open('current', {
      store: 'postgres',
      connection: where,
      name: 'Away',
      kind: 'live',
      researcher: 'Ada',
    });
    for (let i = 0; i < 5; i++) host.api.ingest('current', repliesPage(i * 20, 20, 1000));
    await host.api.flush();
    cluster.pause();
    try {
      for (let i = 5; i < 15; i++) host.api.ingest('current', repliesPage(i * 20, 20, 1000));
      await host.api.flush();
      await expect
        .poll(() => reports.join('\n'), { timeout: 20_000 })
        .toMatch(/cannot take answers now; \d+ answers are kept/);
      expect(reports.join('\n')).not.toContain(cluster.password);
      // it cannot say what it holds either: a researcher is told that opening such a page costs again
      expect(reports.join('\n')).toMatch(
        /\)\. Until it answers, pages it holds from before cannot be looked up in it, so opening one buys it from the API again\.$/m,
      );
    } finally {
      cluster.resume();
    }
    await expect
      .poll(async () => (await host.api.summary('current').catch(() => ({ items: -1 }))).items, {
        timeout: 40_000,
        interval: 500,
      })
      .toBe(300);
    expect((await host.api.summary('current')).requests).toBe(15);
    // and says it is over, once, after saying it began
    expect(reports.filter((r) => r.startsWith('the project takes answers again'))).toEqual([
      'the project takes answers again: those kept meanwhile are being written',
    ]);
    await host.dispose();
  }, 90_000);

  it('keeps the answers on disk when Skein quits with the server away; the next Skein writes each once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-spool-'));
    const spool = join(dir, 'team', 'held-answers.jsonl');
    const where = cluster.connection(schema());
    const open = async (reports: string[]) => {
      const host = new ArchiveHost((e) => reports.push(e.message));
      await host.api.open('current', {
        store: 'postgres',
        connection: where,
        name: 'Away',
        kind: 'live',
        researcher: 'Ada',
        spool,
      });
      return host;
    };
    const first: string[] = [];
    const a = await open(first);
    for (let i = 0; i < 5; i++) a.api.ingest('current', repliesPage(i * 20, 20, 1000));
    await a.api.flush();
    cluster.pause();
    try {
      for (let i = 5; i < 15; i++) a.api.ingest('current', repliesPage(i * 20, 20, 1000));
      await a.api.flush();
      await expect.poll(() => first.join('\n'), { timeout: 20_000 }).toMatch(/cannot take answers now/);
      // the spool is written whole once; after that it is only added to (a rewrite would be a new file, which a
      // second name for the first one does not see)
      linkSync(spool, `${spool}.seen`);
      // while the server is away, what comes in waits on disk at once
      for (let i = 15; i < 18; i++) a.api.ingest('current', repliesPage(i * 20, 20, 1000));
      expect(readFileSync(spool, 'utf8').trim().split('\n')).toHaveLength(13);
      // Skein quits before the server is back: nothing is lost, and it says where the answers wait
      await a.dispose();
      expect(first.join('\n')).toMatch(/13 answers could not be written before the project closed: they are kept/);
      expect(readFileSync(spool, 'utf8').trim().split('\n')).toHaveLength(13);
      expect(statSync(spool).nlink).toBe(2);
      rmSync(`${spool}.seen`);
    } finally {
      cluster.resume();
    }
    const kept = readFileSync(spool, 'utf8');

    const second: string[] = [];
    const b = await open(second);
    expect(await b.api.summary('current')).toMatchObject({ items: 360, requests: 18 });
    expect(second.join('\n')).toMatch(/13 answers kept on disk .* are written now/);
    expect(existsSync(spool)).toBe(false);
    await b.dispose();

    // a Skein killed after writing them and before letting go of its spool: the next writes none twice
    mkdirSync(dirname(spool), { recursive: true });
    writeFileSync(spool, kept);
    const c = await open([]);
    expect(await c.api.summary('current')).toMatchObject({ items: 360, requests: 18 });
    expect(existsSync(spool)).toBe(false);
    await c.dispose();
    rmSync(dir, { recursive: true, force: true });
  }, 90_000);

  /**
   * The archive's own worker, with the heap it has in the app (128 MB), and an opener of one team project in it
   * keeping its answers in `spool`; what the worker reports goes to `reports`.
   */
  function teamWorker(spool: string, reports: string[]) {
    const where = cluster.connection(schema());
    const threads: ArchiveThread[] = [];
    onTestFinished(async () => {
      for (const thread of threads) await thread.close();
      rmSync(dirname(dirname(spool)), { recursive: true, force: true });
    });
    const start = async () => {
      const thread = await startArchiveThread({
        entry: new URL('../../compose/archive-worker.ts', import.meta.url),
        execArgv: ['--import', 'tsx'],
        onError: (e) => reports.push(e.message),
      });
      threads.push(thread);
      expect(thread.inWorker).toBe(true);
      await thread.call('open', 'current', {
        store: 'postgres',
        connection: where,
        name: 'Outage',
        kind: 'live',
        researcher: 'Ada',
        spool,
      });
      return thread;
    };
    return Object.assign(start, { where });
  }

  /** Every answer written once (`pages` of 20 posts), the spool let go, and nothing went wrong on the way. */
  async function writtenOnce(thread: ArchiveThread, pages: number, spool: string, reports: string[]) {
    expect(await thread.call('summary', 'current')).toMatchObject({ items: pages * 20, requests: pages });
    expect(existsSync(spool)).toBe(false);
    expect(reports.join('\n')).not.toMatch(/stopped|memory|given up|could not be/);
  }

  /** Pages of replies from the `first`th on, until their text passes `bytes` (at least up to the fifth). */
  function* pagesPast(first: number, bytes: number): Generator<IngestRecord> {
    let text = 0;
    for (let n = first; n < 5 || text < bytes; n++) {
      const page = repliesPage(n * 20, 20, 1000);
      text += page.text.length;
      yield page;
    }
  }

  it('keeps a long outage’s answers on disk, not in the archive worker’s heap, and writes each once the server is back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-outage-'));
    const spool = join(dir, 'team', 'held-answers.jsonl');
    const reports: string[] = [];
    const thread = await teamWorker(spool, reports)();
    for (let i = 0; i < 5; i++) thread.ingest('current', repliesPage(i * 20, 20, 1000));
    await thread.call('flush');
    cluster.pause();
    let pages = 5;
    try {
      for (; pages < 10; pages++) thread.ingest('current', repliesPage(pages * 20, 20, 1000));
      await thread.call('flush');
      await expect.poll(() => reports.join('\n'), { timeout: 20_000 }).toMatch(/cannot take answers now/);
      // hours of collecting: 160 MB of answers, more than the worker's whole heap
      for (const page of pagesPast(pages, 160_000_000)) {
        thread.ingest('current', page);
        pages++;
      }
      await expect.poll(() => (existsSync(spool) ? countSpool(spool).lines : 0), { timeout: 60_000 }).toBe(pages - 5);
      expect(reports.join('\n')).not.toMatch(/stopped|memory|given up/);
    } finally {
      cluster.resume();
    }
    // back: every answer written once, a batch at a time, and the spool let go
    await expect
      .poll(async () => (await thread.call('summary', 'current').catch(() => ({ items: -1 }))).items, {
        timeout: 120_000,
        interval: 1_000,
      })
      .toBe(pages * 20);
    await writtenOnce(thread, pages, spool, reports);
  }, 300_000);

  it('keeps what a server slower than the answers has not taken on disk past the memory window, never in the archive worker’s heap, and writes each once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-slow-'));
    const spool = join(dir, 'team', 'held-answers.jsonl');
    const reports: string[] = [];
    const start = teamWorker(spool, reports);
    const thread = await start();
    thread.ingest('current', repliesPage(0, 20, 1000));
    await thread.call('flush');
    // another writer holds the project's lock: the server answers, but takes nothing, as a busy one far away
    const other = new pg.Client({ connectionString: cluster.url });
    await other.connect();
    let pages = 1;
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [PROJECT_LOCK, start.where.schema]);
      // a collection at the sandbox's pace: 160 MB of answers, more than the worker's whole heap
      for (const page of pagesPast(pages, 160_000_000)) {
        thread.ingest('current', page);
        pages++;
      }
      // they wait on disk (all but the memory window and the batch under way)
      await expect
        .poll(() => (existsSync(spool) ? countSpool(spool).lines : 0), { timeout: 60_000 })
        .toBeGreaterThan(pages / 2);
      expect(reports.join('\n')).not.toMatch(/stopped|memory|given up/);
    } finally {
      await other.query('COMMIT');
      await other.end();
    }
    await thread.call('flush');
    await writtenOnce(thread, pages, spool, reports);
  }, 300_000);

  it('opens with a spool bigger than the archive worker’s heap that a killed Skein left, and writes each answer once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-big-spool-'));
    const spool = join(dir, 'team', 'held-answers.jsonl');
    const reports: string[] = [];
    const start = teamWorker(spool, reports);
    const first = await start();
    for (let i = 0; i < 5; i++) first.ingest('current', repliesPage(i * 20, 20, 1000));
    await first.close();
    // what a killed Skein kept on disk: the five it wrote before (to be written once only), then 150 MB more
    mkdirSync(dirname(spool), { recursive: true });
    let pages = 0;
    let lines: string[] = [];
    for (const page of pagesPast(0, 150_000_000)) {
      lines.push(spoolLine(page));
      pages++;
      if (lines.length === 200) {
        appendFileSync(spool, lines.join(''));
        lines = [];
      }
    }
    appendFileSync(spool, lines.join(''));
    await writtenOnce(await start(), pages, spool, reports);
    expect(reports.join('\n')).toMatch(new RegExp(`${pages - 5} answers kept on disk .* are written now`));
  }, 300_000);

  it('migrates a team project of the first format (before codes and watches) in place, keeping what it holds', async () => {
    const where = cluster.connection(schema());
    const first = await PostgresProject.open(where, init('Ada'), Date.now, PARTS);
    // read as the author's timeline: the posting history the migrated JSON functions are checked on below
    const page = threadPage('7', 100, 1000);
    await first.ingest([
      {
        ...page,
        operation: 'userTimeline',
        params: `{"userId":"${postFixture.author.id}"}`,
        text: page.text.replace('"replies":', '"tweets":'),
      },
    ]);
    await first.close();
    // format 1 was today's without migrations 2 and 3's tables and functions (nor the parts' later tables)
    const s = where.schema;
    cluster.psql(
      `DROP TABLE ${s}.codebooks, ${s}.codebook_versions, ${s}.coders, ${s}.codings, ${s}.adjudications,
         ${s}.samples, ${s}.sample_items, ${s}.assignments, ${s}.opt_outs, ${s}.coder_switches,
         ${s}.watches, ${s}.watch_runs,
         ${s}.watch_gaps, ${s}.watch_presence, ${s}.watch_counters, ${s}.watch_runner, ${s}.activity_counts, ${s}.parts;
       DROP TABLE ${s}.fts_words; DROP FUNCTION ${s}.skein_fts_words_added, ${s}.skein_fts_words_changed CASCADE;
       DROP FUNCTION ${s}.skein_json_text, ${s}.skein_json_type; DELETE FROM ${s}.schema_version WHERE version > 1`,
    );
    const again = await PostgresProject.open(where, init('Grace'), Date.now, PARTS);
    expect(await again.summary()).toMatchObject({ items: 20, requests: 1 });
    // the words the migration read from the posts held: a prefix finds them
    expect((await again.search(ArchiveQuery.parse({ text: 'thre' }), 0, 50)).hits.map((h) => h.id)).toEqual(['7']);
    // the chart of all posts reads counts the migration made from the posts held
    expect((await again.activity(ArchiveQuery.parse({}), 'day', 0)).total).toBe(20);
    const watches = again.parts.get('watch') as WatchTables;
    expect(await watches.watches()).toEqual([]);
    expect(await watches.postingHistory([postFixture.author.id], 0)).toEqual([
      expect.objectContaining({ author: postFixture.author.id, posts: 20 }),
    ]);
    await again.close();
    expect(cluster.psql(`SELECT max(version) FROM ${s}.schema_version`).trim()).toBe(String(PG_SCHEMA_VERSION));
  });

  it('a connection killed half-way through the words migration leaves the older format whole; the next open makes it', async () => {
    const where = cluster.connection(schema());
    const first = await PostgresProject.open(where, init('Ada'), Date.now, PARTS);
    await first.ingest([threadPage('7', 100, 1000)]);
    await first.close();
    const s = where.schema;
    // the format before the words table: migration 3 undone
    cluster.psql(
      `DROP TABLE ${s}.fts_words; DROP FUNCTION ${s}.skein_fts_words_added, ${s}.skein_fts_words_changed CASCADE;
       DELETE FROM ${s}.schema_version WHERE version > 2`,
    );
    // another session's writes hold the posts' table: the migration makes its table and functions, then waits to
    // put its triggers on the posts, and is killed there (as a Skein quit mid-open would leave it)
    const other = new pg.Client({ connectionString: cluster.url });
    // a transaction sees the server's activity as it was at its start: the waiting migration is looked for apart
    const watcher = new pg.Client({ connectionString: cluster.url });
    await Promise.all([other.connect(), watcher.connect()]);
    try {
      await other.query('BEGIN');
      await other.query(`LOCK TABLE ${s}.items IN ROW EXCLUSIVE MODE`);
      const opening = PostgresProject.open(where, init('Ada'), Date.now, PARTS).catch((e: unknown) => e);
      let waiting: number | null = null;
      for (let tries = 0; waiting === null && tries < 400; tries++) {
        const found = await watcher.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%CREATE TABLE fts_words%'`,
        );
        waiting = found.rows[0]?.pid ?? null;
        if (waiting === null) await new Promise((r) => setTimeout(r, 25));
      }
      expect(waiting).not.toBeNull();
      await watcher.query('SELECT pg_terminate_backend($1)', [waiting]);
      const failed = (await opening) as Error;
      expect(failed).toBeInstanceOf(Error);
      // said in plain words: the connection was lost, where to (never the password)
      expect(failed.message).toMatch(/^The connection to 127\.0\.0\.1:\d+ was lost/);
      await other.query('ROLLBACK');
    } finally {
      await Promise.all([other.end(), watcher.end()]);
    }
    // nothing of the half-made migration was kept: the older format, as it was
    expect(
      cluster.psql(`SELECT count(*) FROM pg_tables WHERE schemaname = '${s}' AND tablename = 'fts_words'`).trim(),
    ).toBe('0');
    expect(cluster.psql(`SELECT max(version) FROM ${s}.schema_version`).trim()).toBe('2');
    const again = await PostgresProject.open(where, init('Ada'), Date.now, PARTS);
    expect(await again.summary()).toMatchObject({ items: 20, requests: 1 });
    // the words were read from the posts held: a prefix finds them, and a new post's words are kept as written
    expect((await again.search(ArchiveQuery.parse({ text: 'thre' }), 0, 50)).hits.map((h) => h.id)).toEqual(['7']);
    await again.ingest([rec(repliesAnswer([post('900', 'quixotic marmalade')]), { at: 3000 })]);
    expect((await again.search(ArchiveQuery.parse({ text: 'quixo' }), 0, 50)).hits.map((h) => h.id)).toEqual(['900']);
    await again.close();
    expect(cluster.psql(`SELECT max(version) FROM ${s}.schema_version`).trim()).toBe(String(PG_SCHEMA_VERSION));
  }, 60_000);

  it('finds by a prefix every word a post holds, as written, as changed, and past the words a prefix is named by', async () => {
    const p = await PostgresProject.open(cluster.connection(schema()), init('Ada'));
    const found = async (text: string) =>
      (await p.search(ArchiveQuery.parse({ text }), 0, 100)).hits.map((h) => h.id).sort((a, b) => a.localeCompare(b));
    await p.ingest([
      rec(
        repliesAnswer([
          post('1', 'gardens in bloom after the storm'),
          post('2', 'the gardener sleeps'),
          post('3', 'garlic and a storm'),
          // more words of one prefix than a search names: that prefix is asked of the index as a prefix
          ...Array.from({ length: 70 }, (_, k) => post(String(100 + k), `zz${k} apart`)),
        ]),
      ),
    ]);
    expect(await found('gard')).toEqual(['1', '2']);
    expect(await found('gar')).toEqual(['1', '2', '3']);
    expect(await found('storm gard')).toEqual(['1']);
    expect(await found('gard* storm')).toEqual(['1']);
    expect(await found('after-the-sto')).toEqual(['1']);
    expect(await found('gardenias')).toEqual([]);
    expect(await found('zz')).toHaveLength(70);
    expect(await found('zz6')).toEqual(['106', '160', '161', '162', '163', '164', '165', '166', '167', '168', '169']);
    // a post changed to hold a word no post held before is found by its prefix at once
    await p.ingest([rec(repliesAnswer([post('3', 'gardenias instead')]), { at: 2000 })]);
    expect(await found('gardeni')).toEqual(['3']);
    expect(await found('gar')).toEqual(['1', '2', '3']);
    expect(await found('garl')).toEqual([]);
    await p.close();
  });

  it('refuses a schema from a newer Skein, or one holding other tables, in plain words, and leaves it untouched', async () => {
    const newer = schema();
    await (await PostgresProject.open(cluster.connection(newer), init('Ada'))).close();
    cluster.psql(`INSERT INTO ${newer}.schema_version VALUES (${PG_SCHEMA_VERSION + 1}, 0)`);
    await expect(PostgresProject.open(cluster.connection(newer), init('Ada'))).rejects.toThrow(
      `was written by a newer version of Skein (project format ${PG_SCHEMA_VERSION + 1}; this version reads up to ${PG_SCHEMA_VERSION})`,
    );
    expect(cluster.psql(`SELECT count(*) FROM ${newer}.schema_version`).trim()).toBe(String(PG_SCHEMA_VERSION + 1));
    const other = schema();
    cluster.psql(`CREATE SCHEMA ${other}; CREATE TABLE ${other}.grades (student text)`);
    await expect(PostgresProject.open(cluster.connection(other), init('Ada'))).rejects.toThrow(
      /holds tables that are not a Skein project's/,
    );
    expect(cluster.psql(`SELECT string_agg(tablename, ',') FROM pg_tables WHERE schemaname = '${other}'`).trim()).toBe(
      'grades',
    );
  });

  it('opens for a member who may only read, says so, keeps what they collect until rights come, and refuses a stranger’s schema_version', async () => {
    const where = cluster.connection(schema());
    const s = where.schema;
    const owner = await PostgresProject.open(where, init('Ada'), Date.now, PARTS);
    await owner.ingest([threadPage('7', 100, 1000)]);
    expect((await owner.summary()).readOnly).toBeNull();
    // USAGE and SELECT only: no CREATE on the database, no write on the tables
    const role = `reader_${process.pid}_${n}`;
    cluster.psql(
      `CREATE ROLE ${role} LOGIN PASSWORD 'reads-only'; GRANT USAGE ON SCHEMA ${s} TO ${role};
       GRANT SELECT ON ALL TABLES IN SCHEMA ${s} TO ${role}; REVOKE CREATE ON DATABASE ${where.database} FROM PUBLIC;`,
    );
    const reader = await PostgresProject.open(
      { ...where, user: role, password: 'reads-only' },
      init('Grace'),
      Date.now,
      PARTS,
    );
    const said = (await reader.summary()).readOnly;
    expect(said).toMatch(
      new RegExp(`${role} may only read the team project “${s}”.*Ask the database’s administrator for write rights`),
    );
    expect(await reader.summary()).toMatchObject({ items: 20, requests: 1 });
    // read rights given table by table before the project kept its words: a prefix is asked as typed, still found
    cluster.psql(`REVOKE SELECT ON ${s}.fts_words FROM ${role}`);
    expect((await reader.search(ArchiveQuery.parse({ text: 'thre' }), 0, 50)).hits.map((h) => h.id)).toEqual(['7']);
    cluster.psql(`GRANT SELECT ON ${s}.fts_words TO ${role}`);
    // what is collected anyway is refused in plain words, never dropped silently
    const refused = (await reader.ingest([threadPage('8', 200, 2000)]).catch((e: unknown) => e)) as Error;
    expect(refused.message).toMatch(/may only read the team project/);
    expect(reader.skipped).toBe(0);
    // rights given back: the same batch is written, and the state clears with its cause
    // write rights given table by table before the project kept its words (none on them): the database keeps
    // the words of what this member writes all the same
    cluster.psql(
      `GRANT INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${role}; GRANT USAGE ON ALL SEQUENCES IN SCHEMA ${s} TO ${role};
       REVOKE ALL ON ${s}.fts_words FROM ${role};`,
    );
    await reader.ingest([threadPage('8', 200, 2000)]);
    expect(await reader.summary()).toMatchObject({ items: 40, requests: 2, readOnly: null });
    await reader.ingest([rec(repliesAnswer([post('900', 'quixotic marmalade')]), { at: 3000 })]);
    expect((await owner.search(ArchiveQuery.parse({ text: 'quixo' }), 0, 50)).hits.map((h) => h.id)).toEqual(['900']);
    expect(cluster.psql(`SELECT count(*) FROM ${s}.fts_words WHERE word = 'quixotic'`).trim()).toBe('1');
    await reader.close();
    await owner.close();
    cluster.psql(`GRANT CREATE ON DATABASE ${where.database} TO PUBLIC`);
    // another tool's table of that name is not taken for Skein's
    const other = schema();
    cluster.psql(`CREATE SCHEMA ${other}; CREATE TABLE ${other}.schema_version (id text, applied timestamptz)`);
    await expect(PostgresProject.open(cluster.connection(other), init('Ada'))).rejects.toThrow(
      /holds tables that are not a Skein project's/,
    );
  });

  it('says what is wrong in plain words, never with the password: a wrong password, no server, no TLS', async () => {
    const wrong = { ...cluster.connection(schema()), password: 'canary-Pa55word-never-shown' };
    const error = (await PostgresProject.open(wrong, init('Ada')).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/refused skein/);
    expect(JSON.stringify(error)).not.toContain('canary-Pa55word');
    const away = (await PostgresProject.open({ ...cluster.connection(schema()), port: 1 }, init('Ada')).catch(
      (e: unknown) => e,
    )) as Error;
    expect(away.message).toBe('Nothing answers at 127.0.0.1:1.');
    // TLS is on unless the address says otherwise: this server offers none
    const tls = (await PostgresProject.open({ ...cluster.connection(schema()), tls: 'verify-full' }, init('Ada')).catch(
      (e: unknown) => e,
    )) as Error;
    expect(tls.message).toMatch(/does not offer TLS/);
  }, 30_000);

  it('checks the server’s certificate unless told not to', async () => {
    const secure = await startTestCluster({ tls: true });
    try {
      const checked = (await PostgresProject.open(
        { ...secure.connection(schema()), tls: 'verify-full' },
        init('Ada'),
      ).catch((e: unknown) => e)) as Error;
      expect(checked.message).toMatch(/certificate .* could not be checked/);
      const encrypted = await PostgresProject.open({ ...secure.connection(schema()), tls: 'require' }, init('Ada'));
      expect(
        secure
          .psql(
            'SELECT count(*) FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE s.ssl AND a.client_addr IS NOT NULL',
          )
          .trim(),
      ).toBe('1');
      await encrypted.close();
    } finally {
      secure.stop();
    }
  }, 60_000);

  it('holds one batch parsed ahead while the server is slower than the answers, and writes them all', async () => {
    const host = new ArchiveHost(() => undefined);
    const where = cluster.connection(schema());
    await host.api.open('current', {
      store: 'postgres',
      connection: where,
      name: 'Slow',
      kind: 'live',
      researcher: 'Ada',
    });
    host.api.ingest('current', repliesPage(0, 20, 1000));
    await host.api.flush();
    // another writer holds the project's lock: the batch under way waits for it, as on a busy server
    const other = new pg.Client({ connectionString: cluster.url });
    await other.connect();
    const parsed = vi.spyOn(PostgresProject.prototype, 'prepare');
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [PROJECT_LOCK, where.schema]);
      for (let i = 1; i <= 1_000; i++) host.api.ingest('current', repliesPage(i * 20, 20, 1000 + i));
      await new Promise((resolve) => setTimeout(resolve, 500));
      // the batch being written and one parsed behind it; the rest waits as received
      expect(parsed.mock.calls.length).toBeLessThanOrEqual(2);
      await other.query('COMMIT');
      await host.api.flush();
      expect(await host.api.summary('current')).toMatchObject({ requests: 1_001, items: 20_020 });
    } finally {
      parsed.mockRestore();
      await other.end();
      await host.dispose();
    }
  }, 120_000);

  it('keeps every item and every earlier version of a batch larger than one statement carries', async () => {
    const name = schema();
    const p = await PostgresProject.open(cluster.connection(name), init('Ada'));
    try {
      const at = Date.UTC(2026, 10, 1);
      const pages = Array.from({ length: 300 }, (_, n) => repliesPage(n * 20, 20, at + n));
      expect(pages.reduce((n, r) => n + r.text.length, 0)).toBeGreaterThan(5_000_000);
      await p.ingest(pages);
      const edited = pages.map((r, n) => ({ ...r, at: at + 1_000 + n, text: r.text.replaceAll('"post ', '"edited ') }));
      await p.ingest(edited);
      const count = (table: string) => Number(cluster.psql(`SELECT count(*) FROM ${name}.${table}`).trim());
      expect(count('items')).toBe(6_000);
      expect(count('item_versions')).toBe(6_000);
      expect(count('request_items')).toBe(12_000);
      expect((await p.activity(ArchiveQuery.parse({ text: 'edited' }), 'day', 0)).total).toBe(6_000);
      // every post counted once by the chart's counts, though each came twice
      expect((await p.activity(ArchiveQuery.parse({}), 'day', 0)).total).toBe(6_000);
    } finally {
      await p.close();
    }
  }, 120_000);

  it('marks a big run’s pages all-visible once answers stop, so the chart counts from the index, and stays exact', async () => {
    const name = schema();
    // Skein's vacuum alone: an autovacuum worker's analyze of any table in the database (this project's others, an
    // earlier test's) holds a snapshot, and a vacuum leaves unmarked the pages newer than it (400 to 800 of 2,004 in
    // full runs on a busy machine), so no worker may run during this test
    cluster.psql('ALTER SYSTEM SET autovacuum = off');
    cluster.psql('SELECT pg_reload_conf()');
    onTestFinished(() => {
      cluster.psql('ALTER SYSTEM RESET autovacuum');
      cluster.psql('SELECT pg_reload_conf()');
    });
    const workers = () =>
      Number(cluster.psql(`SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'`).trim());
    const quiet = Date.now() + 60_000;
    while (workers() > 0 && Date.now() < quiet) await new Promise((r) => setTimeout(r, 100));
    expect(workers()).toBe(0);
    const p = await PostgresProject.open(cluster.connection(name), init('Ada'));
    try {
      const at = Date.UTC(2026, 10, 1);
      const pages = Array.from({ length: 501 }, (_, n) => repliesPage(n * 20, 20, at + n));
      for (let i = 0; i < pages.length; i += 100) await p.ingest(pages.slice(i, i + 100));
      const vacuums = () =>
        Number(
          cluster
            .psql(`SELECT vacuum_count FROM pg_stat_user_tables WHERE schemaname = '${name}' AND relname = 'items'`)
            .trim(),
        );
      const visible = () =>
        cluster
          .psql(`SELECT relpages, relallvisible FROM pg_class WHERE oid = '${name}.items'::regclass`)
          .trim()
          .split('|')
          .map(Number);
      const deadline = Date.now() + 30_000;
      while (vacuums() === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const [pagesHeld, allVisible] = visible();
      expect(pagesHeld).toBeGreaterThan(0);
      expect(allVisible).toBe(pagesHeld);
      const chart = async () => {
        const a = await p.activity(ArchiveQuery.parse({}), 'day', 0);
        return { total: a.total, dated: a.buckets.reduce((n, b) => n + b.count, 0) + a.undated };
      };
      expect(await chart()).toEqual({ total: 10_020, dated: 10_020 });
      // a newer version of a post is the same post; new posts count at once, vacuumed or not
      const newer = JSON.parse(pages[0]!.text) as { replies: Array<Record<string, unknown>> };
      newer.replies[0] = { ...newer.replies[0], text: 'edited' };
      await p.ingest([{ ...pages[0]!, at: at + 10_000, text: JSON.stringify(newer) }]);
      await p.ingest([repliesPage(20_000, 20, at + 10_001)]);
      expect(await chart()).toEqual({ total: 10_040, dated: 10_040 });
      const filtered = await p.activity(ArchiveQuery.parse({ text: 'edited' }), 'day', 0);
      expect(filtered.total).toBe(1);
    } finally {
      await p.close();
    }
  }, 120_000);

  /**
   * A project of 10,020 posts (none a reply), and `work` given its name and a Db on its schema that explains each
   * query before running it (in the same transaction, so under the query's own settings), the plans kept in order.
   */
  async function explained(work: (name: string, db: Db, plans: string[]) => Promise<void>): Promise<void> {
    const name = schema();
    const p = await PostgresProject.open(cluster.connection(name), init('Ada'));
    const connection = cluster.connection(name);
    const pool = createPool(connection);
    const db = pgExecutor(pgDb(pool, connection, Date.now));
    try {
      const at = Date.UTC(2026, 10, 1);
      const pages = Array.from({ length: 501 }, (_, n) => repliesPage(n * 20, 20, at + n));
      for (let i = 0; i < pages.length; i += 100) await p.ingest(pages.slice(i, i + 100));
      const plans: string[] = [];
      const explaining = (d: Db): Db => ({
        ...d,
        all: async <R extends object>(q: Sql) => {
          const plan = await d.all<{ 'QUERY PLAN': string }>(sql`EXPLAIN ${q}`);
          plans.push(plan.map((r) => r['QUERY PLAN']).join('\n'));
          return d.all<R>(q);
        },
        transaction: (w, lock) => d.transaction((tx) => w(explaining(tx)), lock),
      });
      await work(name, explaining(db), plans);
    } finally {
      await db.releaseLocks();
      await pool.end();
      await p.close();
    }
  }

  it(
    'finds a word by engagement with replies left out by walking the index, never reading every post',
    () =>
      explained(async (_, db, plans) => {
        const query = (text: string) => ArchiveQuery.parse({ text, sort: 'engagement', reply: false });
        // a common word: the page is found among the most engaging posts
        const common = await search(db, query('heron'), 0, 50, Date.now);
        expect(common.hits).toHaveLength(50);
        const likes = common.hits.map((h) => (h.item as { likeCount: number }).likeCount);
        expect(likes).toEqual([...likes].sort((a, b) => b - a));
        // a rare word: the walk finds no full page, the word's own matches are read
        const rare = await search(db, query('w123'), 0, 50, Date.now);
        expect(rare.hits.map((h) => h.id).sort()).toEqual(
          Array.from({ length: 10 }, (_, k) => String(1_000_000_123 + k * 1000)),
        );
        expect(plans.length).toBeGreaterThanOrEqual(3);
        for (const plan of plans) expect(plan).not.toMatch(/Seq Scan on items/);
      }),
    120_000,
  );

  it(
    'pages deep into a list without replies by walking the index (PostgreSQL 14 and later), never sorting every post',
    () =>
      explained(async (name, db, plans) => {
        const server = Number(cluster.psql('SHOW server_version_num').trim());
        // the twenty-first page, newest first, of the posts that are not replies
        const deep = await search(db, ArchiveQuery.parse({ reply: false }), 1000, 50, Date.now);
        expect(deep.hits).toHaveLength(50);
        const times = deep.hits.map((h) => Date.parse((h.item as { createdAt: string }).createdAt));
        expect(times).toEqual([...times].sort((a, b) => b - a));
        // statistics on expressions came with PostgreSQL 14; before it the planner still guesses
        if (server >= 140000) for (const plan of plans) expect(plan).not.toMatch(/Seq Scan on items/);
        const statistics = (of: string) =>
          cluster.psql(`SELECT stxname FROM pg_statistic_ext WHERE stxnamespace = '${of}'::regnamespace`).trim();
        expect(statistics(name)).toBe(server >= 140000 ? 'items_flag_bits' : '');
        // Skeins opening a new project at the same moment make them once, and none of them reports a failure
        const fresh = schema();
        const reported: Error[] = [];
        const skeins = await Promise.all(
          [1, 2, 3].map(() =>
            PostgresProject.open(cluster.connection(fresh), init('Ada'), Date.now, [], (e) => reported.push(e)),
          ),
        );
        for (const s of skeins) await s.close();
        expect(reported).toEqual([]);
        expect(statistics(fresh)).toBe(server >= 140000 ? 'items_flag_bits' : '');
      }),
    120_000,
  );

  it('reports a vacuum after a big run that fails, instead of keeping quiet about it', async () => {
    const name = schema();
    const reported: Error[] = [];
    const p = await PostgresProject.open(cluster.connection(name), init('Ada'), Date.now, [], (e) => reported.push(e));
    try {
      const at = Date.UTC(2026, 10, 1);
      await p.ingest(Array.from({ length: 501 }, (_, n) => repliesPage(n * 20, 20, at + n)));
      // the table is away when the vacuum starts, a second after the last answer
      cluster.psql(`ALTER TABLE ${name}.items RENAME TO items_away`);
      const deadline = Date.now() + 30_000;
      while (reported.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      cluster.psql(`ALTER TABLE ${name}.items_away RENAME TO items`);
      expect(reported.map((e) => e.message)).toEqual([
        expect.stringMatching(/could not be vacuumed after the run.*items/),
      ]);
    } finally {
      await p.close();
    }
  }, 120_000);
});

describe('a connection string', () => {
  it('is read into its parts, the password apart, TLS checked by default', () => {
    expect(parseConnection('postgresql://ada:s%40cret@db.example.org:6432/research', 'skein')).toEqual({
      address: {
        host: 'db.example.org',
        port: 6432,
        database: 'research',
        user: 'ada',
        tls: 'verify-full',
        schema: 'skein',
      },
      password: 's@cret',
    });
    expect(parseConnection('postgres://ada@[::1]/r?sslmode=disable', 'lab_2026').address).toMatchObject({
      host: '::1',
      port: 5432,
      tls: 'disable',
      schema: 'lab_2026',
    });
  });

  it.each([
    ['https://ada@db/research', /starts with postgresql:\/\//],
    ['postgresql://db/research', /names no database user/],
    ['postgresql://ada@db', /names no database/],
    ['postgresql://ada@db/r?sslmode=prefer', /never falls back to an unencrypted connection/],
    ['postgresql://ada@db/r?sslrootcert=/etc/passwd', /does not use the option “sslrootcert”/],
    ['not a url', /not a PostgreSQL connection string/],
  ])('refuses %s in plain words', (text, message) => {
    expect(() => parseConnection(text, 'skein')).toThrow(message);
  });

  it('refuses a schema name that is not a plain lower-case name', () => {
    expect(() => parseConnection('postgresql://ada@db/r', 'x; DROP TABLE y')).toThrow(/not a schema name/);
  });
});
