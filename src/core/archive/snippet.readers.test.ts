/**
 * "Copy as Python / R / SQL", run as printed: each script is written to a file and run by the reader a researcher
 * uses (Debian's python3 with sqlite3 and pandas or psycopg2; Rscript with RSQLite or RPostgreSQL; the sqlite3
 * shell and psql; node:sqlite for the plain SQL, as a newer shell would run it; DuckDB for its script over the
 * project's Parquet dataset), on a project file and on a team project, and the ids it prints are the view's, in
 * the view's order. Without a reader (or PostgreSQL)
 * its tests are skipped with the reason, except in CI, where they fail.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postFixture, userFixture } from '../../shared/api/fixtures';
import { ArchiveQuery, type ArchiveQuery as Query, type SnippetLanguage } from '../../shared/ipc/archive';
import { DuckDBInstance } from '@duckdb/node-api';
import { writeDataset, type DatasetReport } from './dataset';
import type { OpenInit } from './host';
import { snippetOf, type SnippetPlace } from './snippet';
import type { ProjectStore } from './store';
import { rec, repliesAnswer } from './testing/answers';
import { makeStores } from './testing/stores';

const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 1);
const HOSTILE_LANG = `it's"\\ü`;

const dateText = (day: number) => {
  const d = new Date(START + day * DAY + 3_600_000 + day * 1234);
  const [wd, dd, mon, yyyy, hms] = d.toUTCString().replace(',', '').split(' ');
  return `${wd} ${mon} ${dd} ${hms} +0000 ${yyyy}`;
};

const POSTS: Array<[id: string, text: string, handle: string, lang: string, day: number]> = [
  ['1900000000000000001', 'the heron by the river', 'ada', 'en', 0],
  ['1900000000000000002', 'a storm over the garden', 'bob', 'en', 1],
  ['1900000000000000003', 'heron river delta at dawn', 'ada', 'fr', 2],
  ['1900000000000000004', 'storm heron', 'ada', 'en', 3],
  ['1900000000000000005', 'l\'été du héron \\ "quoted" 😀 中文', 'cyd', HOSTILE_LANG, 4],
  ['1900000000000000006', 'river garden heron', 'Bob', 'en', 5],
  ['1900000000000000007', 'nothing to see', 'ada', HOSTILE_LANG, 6],
  ['1900000000000000008', 'the river heron again', 'ada', 'en', 7],
];

const post = ([id, text, handle, lang, day]: (typeof POSTS)[number]) => ({
  ...postFixture,
  id,
  text,
  lang,
  createdAt: dateText(day),
  quoted_tweet: null,
  author: { ...userFixture, userName: handle },
});

/** the views: words, a phrase with from: and since:, OR and NOT, hostile text and filters, a collection (made first) */
const VIEWS: Array<{ name: string; query: Query | 'the collection'; fullText: boolean }> = [
  { name: 'plain words', query: { text: 'heron river' }, fullText: true },
  { name: 'a phrase, from: and since:', query: { text: '"heron river" from:ada since:2026-01-02' }, fullText: true },
  { name: 'OR and NOT', query: { text: '(storm OR river) -garden' }, fullText: true },
  { name: 'hostile words', query: { text: `"l'été" héron \\ 中文` }, fullText: true },
  {
    name: 'filters only, a hostile language among them',
    query: { lang: HOSTILE_LANG, from: START + DAY, to: START + 7 * DAY },
    fullText: false,
  },
  { name: 'an author, by engagement', query: { author: '@ADA', sort: 'engagement' }, fullText: false },
  { name: 'a collection', query: 'the collection', fullText: false },
];

/** a reader's SQLite version (null: the reader is absent) */
function readerSqlite(command: string, args: string[]): string | null {
  const run = spawnSync(command, args, { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim() : null;
}

const PYTHON = '/usr/bin/python3';
const READERS = {
  python: readerSqlite(PYTHON, ['-c', 'import sqlite3, pandas; print(sqlite3.sqlite_version)']),
  pythonPg: readerSqlite(PYTHON, ['-c', 'import psycopg2, pandas; print("ok")']),
  r: readerSqlite('Rscript', ['-e', 'library(DBI); library(RSQLite); cat(rsqliteVersion()[["library"]])']),
  rPg: readerSqlite('Rscript', ['-e', 'suppressMessages(library(RPostgreSQL)); cat("ok")']),
  sqlite3: readerSqlite('sqlite3', ['-version'])?.split(' ')[0] ?? null,
};

/** why a reader's tests cannot run here (null: they run); in CI a missing reader fails instead */
const missing = (what: string | null, name: string): string | null => {
  if (what !== null) return null;
  if (process.env.CI) throw new Error(`${name} is missing: .ci/run installs it`);
  return `${name} is not installed here`;
};

/** the ids a script printed as CSV (a header, then the id first on each line: ids are digits) */
const idsOf = (csv: string): string[] =>
  csv
    .split('\n')
    .slice(1)
    .filter((l) => l !== '')
    .map((l) => l.split(',')[0]!.replace(/^"|"$/g, ''));

for (const store of makeStores()) {
  describe.skipIf(store.skip !== null)(
    `a view's script on ${store.name}${store.skip ? ` (${store.skip})` : ''}`,
    () => {
      let dir = '';
      let init: OpenInit;
      let project: ProjectStore;
      let collection = 0;
      let dataset: DatasetReport;
      const queryOf = (view: (typeof VIEWS)[number]): Query =>
        view.query === 'the collection' ? { collection } : view.query;

      beforeAll(async () => {
        await store.setup();
        dir = mkdtempSync(join(tmpdir(), 'skein-snippet-'));
        init = store.fresh({ name: `Team's "herons" \\ ü` });
        project = await store.open(init);
        await project.ingest([rec(repliesAnswer(POSTS.map(post)))]);
        collection = (await project.saveSearch(ArchiveQuery.parse({ text: 'heron' }), 'Herons')).id;
        dataset = await writeDataset(project, join(dir, 'dataset'));
        await project.close();
      }, 60_000);
      afterAll(() => {
        store.teardown();
        rmSync(dir, { recursive: true, force: true });
      });

      const place = (): SnippetPlace =>
        init.store === 'postgres'
          ? { store: 'postgres', address: init.connection }
          : { store: 'sqlite', path: init.path };
      const password = () => (init.store === 'postgres' ? (init.connection.password ?? '') : '');

      /** the view's ids, as Skein's own search lists them (never none: a script printing nothing proves nothing) */
      async function viewIds(query: Query): Promise<string[]> {
        const p = await store.open(init);
        try {
          const ids = (await p.search(ArchiveQuery.parse(query), 0, 200)).hits.map((h) => h.id);
          expect(ids.length).toBeGreaterThan(0);
          expect(ids.length).toBeLessThan(POSTS.length);
          return ids;
        } finally {
          await p.close();
        }
      }

      function script(query: Query, language: SnippetLanguage, n: number): { file: string; text: string } {
        const { text, fileName } = snippetOf({
          query: ArchiveQuery.parse(query),
          language,
          project: { name: `Team's "herons" \\ ü`, place: place() },
          collectionName: 'Herons',
          at: Date.UTC(2026, 10, 28, 18, 30),
          version: '0.1.0',
          dataset,
        });
        const file = join(dir, `${n}-${fileName}`);
        writeFileSync(file, text);
        return { file, text };
      }

      const run = (command: string, args: string[], input?: string) =>
        spawnSync(command, args, {
          encoding: 'utf8',
          input,
          env: { ...process.env, PGPASSWORD: password() },
          timeout: 60_000,
        });

      it('says the project, the view and the date, and never the password', () => {
        for (const language of ['python', 'r', 'sql', 'duckdb'] as const) {
          const { text } = script({ text: 'heron from:ada' }, language, 0);
          expect(text).toContain('Skein 0.1.0');
          expect(text).toContain('2026-11-28 18:30 UTC');
          expect(text).toContain('matching the search “heron from:ada”');
          if (store.name === 'postgres' && language !== 'duckdb') {
            expect(password()).not.toBe('');
            expect(text).not.toContain(password());
            expect(text).toContain('PGPASSWORD');
          }
        }
      });

      VIEWS.forEach((view, n) => {
        it(`Python prints the view's ids: ${view.name}`, async (ctx) => {
          const why = missing(store.name === 'sqlite' ? READERS.python : READERS.pythonPg, 'python3 with pandas');
          if (why) return ctx.skip(why);
          const query = queryOf(view);
          const { file } = script(query, 'python', n);
          const out = run(PYTHON, [file]);
          expect(out.status, out.stderr).toBe(0);
          expect(out.stderr).not.toMatch(/Error/);
          expect(idsOf(out.stdout)).toEqual(await viewIds(query));
        });

        it(`R prints the view's ids: ${view.name}`, async (ctx) => {
          const why = missing(store.name === 'sqlite' ? READERS.r : READERS.rPg, 'Rscript with RSQLite / RPostgreSQL');
          if (why) return ctx.skip(why);
          const query = queryOf(view);
          const { file } = script(query, 'r', n);
          const out = run('Rscript', [file]);
          expect(out.status, out.stderr).toBe(0);
          expect(idsOf(out.stdout)).toEqual(await viewIds(query));
        });

        it(`DuckDB returns the view's ids from the project's dataset: ${view.name}`, async () => {
          const query = queryOf(view);
          const { text } = script(query, 'duckdb', n);
          expect(text).toContain(dataset.folder);
          const db = await DuckDBInstance.create(':memory:');
          const con = await db.connect();
          try {
            const rows = (await con.runAndReadAll(text)).getRowObjects() as Array<{
              id: string;
              created_at: string | null;
            }>;
            expect(rows.map((r) => r.id)).toEqual(await viewIds(query));
            expect(
              rows.every((r) => r.created_at === null || /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(r.created_at)),
            ).toBe(true);
          } finally {
            con.closeSync();
            db.closeSync();
          }
        });

        it(`the plain SQL returns the view's ids: ${view.name}`, async (ctx) => {
          const query = queryOf(view);
          const { file, text } = script(query, 'sql', n);
          const want = await viewIds(query);
          if (init.store === 'postgres') {
            const c = init.connection;
            const out = run('psql', [
              `postgresql://${c.user}@${c.host}:${c.port}/${c.database}?sslmode=disable`,
              ...['-X', '-q', '-A', '-F', ',', '-v', 'ON_ERROR_STOP=1', '-f', file],
            ]);
            if (out.error && !process.env.CI) return ctx.skip('psql is not installed here');
            expect(out.status, out.stderr).toBe(0);
            // psql's footer "(n rows)" is no row
            expect(idsOf(out.stdout).filter((l) => !l.startsWith('('))).toEqual(want);
            return;
          }
          // as a newer SQLite (DuckDB's ATTACH, a current sqlite3 shell) runs it: the whole text, as printed
          const db = new DatabaseSync(init.path, { readOnly: true });
          try {
            const rows = db.prepare(text).all() as Array<{ id: string }>;
            expect(rows.map((r) => r.id)).toEqual(want);
          } finally {
            db.close();
          }
          const why = missing(READERS.sqlite3, 'the sqlite3 shell');
          if (why) return ctx.skip(why);
          const out = run('sqlite3', ['-csv', '-header', init.path], text);
          expect(out.status, out.stderr).toBe(0);
          expect(idsOf(out.stdout)).toEqual(want);
        });
      });
    },
  );
}
