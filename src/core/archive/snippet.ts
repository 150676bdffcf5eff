/**
 * "Copy as R / Python / SQL": a script that reads an archive view's rows straight from the project, outside
 * Skein. Its SELECT is the one the view runs (the same compiled WHERE: the search language through the store's own
 * full-text index, the filters, the collection) in the view's order, with ids as text and creation times as UTC
 * ISO strings. Python and R bind the values as their driver's parameters; the plain SQL (the sqlite3 shell,
 * DuckDB, psql) says them as literals quoted here. A team project's script never holds its password: the
 * driver reads PGPASSWORD. Pure: no database, no file.
 */
import type { ArchiveQueryParsed, SnippetLanguage } from '../../shared/ipc/archive';
import { SkeinError } from '../../shared/errors';
import { compile, sql, type DialectName, type PgAddress, type ScriptDialect, type Sql } from '../db';
import { whereOf } from './common';
import { DATASET_FILES, datasetIndex, type DatasetReport } from './dataset';
import { FTS } from './query';
import { TSV } from './postgres/query';
import { compileSearch, searchTree, wholeCondition } from './search';

/** Where the project lives, as the script reaches it. */
export type SnippetPlace = { store: 'sqlite'; path: string } | { store: 'postgres'; address: PgAddress };

export interface SnippetRequest {
  query: ArchiveQueryParsed;
  language: SnippetLanguage;
  project: { name: string; place: SnippetPlace };
  /** the collection's name when the view is one */
  collectionName?: string | null;
  /** when it is copied (epoch ms) */
  at: number;
  /** Skein's version, for the header */
  version: string;
  /** the project's Parquet copy, made for this script (a DuckDB script reads it, not the project) */
  dataset?: DatasetReport;
}

/** A value as a SQL literal of `dialect`: a string quoted (quotes doubled), a number as digits; never NUL. */
export function literal(value: unknown, dialect: ScriptDialect): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('a number a script cannot say');
    return Number.isInteger(value) ? BigInt(value).toString() : String(value);
  }
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return dialect === 'sqlite' ? (value ? '1' : '0') : String(value).toUpperCase();
  if (typeof value === 'string') {
    // neither store keeps a NUL in a value, and a shell's script would end there
    if (value.includes('\0')) throw new SkeinError('bad-input', 'The search holds a character a script cannot carry.');
    // standard strings: a backslash is itself (PostgreSQL's since 9.1; the script sets it anyway)
    return `'${value.replace(/'/g, "''")}'`;
  }
  throw new Error('a value a script cannot say');
}

/** A value in Python's source: JSON's strings and numbers are Python's. */
const python = (v: unknown): string => (typeof v === 'number' ? literal(v, 'sqlite') : JSON.stringify(v));

/** A value in R's source: strings with every non-ASCII character escaped (Rscript may read in a C locale). */
function r(v: unknown, numbersAsText = false): string {
  if (typeof v === 'number') return numbersAsText ? `"${literal(v, 'sqlite')}"` : literal(v, 'sqlite');
  if (typeof v !== 'string') throw new Error('a value R is not given');
  let out = '"';
  for (const ch of v) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c >= 0x20 && c < 0x7f) out += ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else out += c > 0xffff ? `\\U{${c.toString(16)}}` : `\\u${c.toString(16).padStart(4, '0')}`;
  }
  return `${out}"`;
}

/** Text for a one-line comment: each line break or control character a space. */
const oneLine = (s: string): string => [...s].map((ch) => (/\p{Cc}|[\u2028\u2029]/u.test(ch) ? ' ' : ch)).join('');

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The view in words, as its search box and filters say it. */
export function viewInWords(q: ArchiveQueryParsed, collectionName?: string | null): string {
  const parts: string[] = [q.kind === 'user' ? 'accounts' : 'posts'];
  if (q.collection !== undefined)
    parts.push(`in the collection ${collectionName ? `“${collectionName}”` : `number ${q.collection}`}`);
  if (q.text.trim()) parts.push(`matching the search “${q.text.trim()}”`);
  if (q.author) parts.push(`by @${q.author.replace(/^@/, '')}`);
  if (q.lang) parts.push(`in language ${q.lang}`);
  if (q.from !== undefined) parts.push(`made on or after ${new Date(q.from).toISOString()}`);
  if (q.to !== undefined) parts.push(`made before ${new Date(q.to).toISOString()}`);
  for (const flag of ['media', 'reply', 'quote', 'retweet'] as const) {
    const want = q[flag];
    if (want === undefined) continue;
    const what = { media: 'with media', reply: 'replies', quote: 'quotes', retweet: 'reposts' }[flag];
    parts.push(want ? `only ${what}` : `no ${what}`);
  }
  parts.push(q.sort === 'engagement' ? 'most engagement first' : 'newest first');
  return parts.join(', ');
}

/**
 * The view's SELECT for a store (or for DuckDB over the dataset), its values still bound, and whether it asks a
 * project file's full-text index.
 */
function viewQuery(q: ArchiveQueryParsed, dialect: ScriptDialect): { query: Sql; fullText: boolean } {
  const index = dialect === 'sqlite' ? FTS : dialect === 'postgres' ? TSV : datasetIndex();
  const compiled = compileSearch(searchTree(q.text), index);
  const where = whereOf(q, wholeCondition(compiled, index));
  const columns = sql.of({
    sqlite: `CAST(i.id AS TEXT) AS id,
  strftime('%Y-%m-%dT%H:%M:%fZ', i.created_at / 1000.0, 'unixepoch') AS created_at,
  i.author_handle AS author, i.lang AS lang, i.raw AS raw`,
    postgres: `CAST(i.id AS text) AS id,
  to_char(to_timestamp(i.created_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  i.author_handle AS author, i.lang AS lang, i.raw AS raw`,
    duckdb: `CAST(i.id AS VARCHAR) AS id,
  strftime(epoch_ms(i.created_at), '%Y-%m-%dT%H:%M:%S.%gZ') AS created_at,
  i.author_handle AS author, i.lang AS lang, i.raw AS raw`,
  });
  // the view's own order: its sort, then the newest kept first (PostgreSQL's undated last, as SQLite's are)
  const order =
    q.sort === 'engagement'
      ? sql.raw('i.engagement DESC, i.rowid DESC')
      : sql.of({ sqlite: 'i.created_at DESC, i.rowid DESC', postgres: 'i.created_at DESC NULLS LAST, i.rowid DESC' });
  // a project file's index is asked wherever a text term went: one match, or inside an OR / NOT with filters
  const fullText = dialect === 'sqlite' && compile(where, 'sqlite').text.includes('items_fts');
  return { query: sql`SELECT ${columns}\nFROM items i\nWHERE ${where}\nORDER BY ${order}`, fullText };
}

/** A string of SQL inside Python's source: a raw triple-quoted string where it can be, else JSON's. */
const pythonText = (s: string): string =>
  s.includes('"""') || s.endsWith('"') || s.endsWith('\\') ? JSON.stringify(s) : `r"""\n${s}\n"""`;

/** A string of SQL inside R's source: a raw string (R 4.0) with a delimiter SQL does not hold. */
const rText = (s: string): string => (s.includes(']---"') ? r(s) : `r"---[\n${s}\n]---"`);

export interface Snippet {
  text: string;
  /** the file name a person would save it under */
  fileName: string;
  /** what the person should know before running it, in plain words (null: nothing) */
  note: string | null;
}

/** The script for a view: header comment, connection, the view's SELECT, the rows printed as CSV. */
export function snippetOf(req: SnippetRequest): Snippet {
  if (req.language === 'duckdb') return duckdbSnippet(req);
  const { query: q, language, project, at, version } = req;
  const place = project.place;
  const dialect: DialectName = place.store;
  const { query, fullText } = viewQuery(q, dialect);
  const when = `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const where =
    place.store === 'sqlite'
      ? `the project file ${place.path}`
      : `the schema ${place.address.schema} of the database ${place.address.database} on ${place.address.host}:${place.address.port}`;
  const header = [
    `Skein ${version}: an archive view of the project “${project.name}”, copied ${when}.`,
    `The view: ${viewInWords(q, req.collectionName)}.`,
    `It reads ${where}: the same rows the view lists, in its order; ids as text, times in UTC.`,
  ].map(oneLine);
  const fullTextNote =
    place.store === 'sqlite' && fullText
      ? "The search's words are matched in the project's full-text index (SQLite's FTS5, in every common build)."
      : null;
  const password =
    place.store === 'postgres'
      ? 'The password is never written here: the driver reads it from the environment variable PGPASSWORD.'
      : null;
  const a = place.store === 'postgres' ? place.address : null;
  const note = a
    ? "Set the environment variable PGPASSWORD to the project's password before running it: the script does not hold it."
    : null;
  const comment = (mark: string, extra: Array<string | null>) =>
    [...header, ...extra.filter((l): l is string => l !== null)].map((l) => `${mark} ${l}`).join('\n');
  const base = `skein-view-${day(at)}`;

  if (language === 'sql') {
    const { text } = compile(
      query,
      dialect,
      (v) => v,
      (_, v) => literal(v, dialect),
    );
    const lines = [
      comment('--', [
        place.store === 'sqlite'
          ? 'Run it on the project file with the sqlite3 shell: sqlite3 -csv -header <the project file> < <this file>'
          : `Run it with psql: psql "postgresql://${a!.user}@${a!.host.includes(':') ? `[${a!.host}]` : a!.host}:${a!.port}/${a!.database}?sslmode=${a!.tls}" -f <this file>`,
        fullTextNote,
        password,
      ]),
      ...(a ? ['SET standard_conforming_strings = on;', `SET search_path TO ${a.schema};`] : []),
      `${text};`,
      '',
    ];
    return { text: lines.join('\n'), fileName: `${base}.sql`, note };
  }

  if (language === 'python') {
    // psycopg2 reads every % as a placeholder's start: the text's own are doubled (NUL marks ours meanwhile)
    const { text, values } = compile(
      query,
      dialect,
      (v) => v,
      () => (dialect === 'sqlite' ? '?' : '\0'),
    );
    const statement = dialect === 'sqlite' ? text : text.replace(/%/g, '%%').replace(/\0/g, '%s');
    const params = `PARAMS = [${values.map(python).join(', ')}]`;
    const connect =
      place.store === 'sqlite'
        ? [
            'import sqlite3',
            'import sys',
            '',
            'import pandas as pd',
            '',
            `PROJECT = ${JSON.stringify(place.path)}`,
            'con = sqlite3.connect(PROJECT)',
          ]
        : [
            'import sys',
            '',
            'import pandas as pd',
            'import psycopg2',
            '',
            `con = psycopg2.connect(host=${JSON.stringify(a!.host)}, port=${a!.port}, dbname=${JSON.stringify(a!.database)},`,
            `                       user=${JSON.stringify(a!.user)}, sslmode=${JSON.stringify(a!.tls)},`,
            `                       options=${JSON.stringify(`-c search_path=${a!.schema}`)})`,
          ];
    const lines = [
      comment('#', [fullTextNote, password]),
      ...connect,
      `SQL = ${pythonText(statement)}`,
      params,
      'rows = pd.read_sql_query(SQL, con, params=PARAMS)',
      'con.close()',
      '# the rows as CSV (or keep working with `rows`, a pandas DataFrame)',
      'rows.to_csv(sys.stdout, index=False)',
      '',
    ];
    return { text: lines.join('\n'), fileName: `${base}.py`, note };
  }

  // R: DBI with RSQLite, or RPostgreSQL (Debian's r-cran-rsqlite, r-cran-rpostgresql)
  const { text, values } = compile(
    query,
    dialect,
    (v) => v,
    (n) => (dialect === 'sqlite' ? '?' : `$${n}`),
  );
  // RPostgreSQL sends its parameters as text: a number is written out whole rather than as 1.7e+12
  const params = `params <- list(${values.map((v) => r(v, dialect === 'postgres')).join(', ')})`;
  const connect =
    place.store === 'sqlite'
      ? ['library(DBI)', 'library(RSQLite)', '', `con <- dbConnect(SQLite(), ${r(place.path)})`]
      : [
          'library(DBI)',
          'library(RPostgreSQL)',
          '',
          `Sys.setenv(PGSSLMODE = ${r(a!.tls)})`,
          `con <- dbConnect(PostgreSQL(), host = ${r(a!.host)}, port = ${a!.port}, dbname = ${r(a!.database)},`,
          `                 user = ${r(a!.user)}, password = Sys.getenv("PGPASSWORD"))`,
          `invisible(dbGetQuery(con, ${r(`SET search_path TO ${a!.schema}`)}))`,
        ];
  const lines = [
    comment('#', [fullTextNote, password]),
    ...connect,
    `sql <- ${rText(text)}`,
    params,
    place.store === 'sqlite' ? 'rows <- dbGetQuery(con, sql, params = params)' : 'rows <- dbGetQuery(con, sql, params)',
    'invisible(dbDisconnect(con))',
    '# the rows as CSV (or keep working with `rows`, a data frame)',
    'write.csv(rows, stdout(), row.names = FALSE)',
    '',
  ];
  return { text: lines.join('\n'), fileName: `${base}.R`, note };
}

/**
 * DuckDB's script: the Parquet copy's two files as the views `items` and `collection_items`, then the view's
 * SELECT compiled for DuckDB (its words matched in the copy's word columns), the rows printed as the shell prints them.
 */
function duckdbSnippet(req: SnippetRequest): Snippet {
  const { query: q, project, at, version, dataset } = req;
  if (!dataset) throw new Error('a DuckDB script reads a dataset written for it');
  const { query } = viewQuery(q, 'duckdb');
  const { text } = compile(
    query,
    'duckdb',
    (v) => v,
    (_, v) => literal(v, 'duckdb'),
  );
  const written = `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const file = (name: string) => literal(`${dataset.folder}/${name}`, 'duckdb');
  const header = [
    `Skein ${version}: an archive view of the project “${project.name}”, copied ${written}.`,
    `The view: ${viewInWords(q, req.collectionName)}.`,
    `It reads the project's Parquet copy in ${dataset.folder} (${dataset.items.toLocaleString('en-US')} items, made ${written}):`,
    "the rows the view lists as of then, in its order; ids as text, times in UTC. The search's words are matched in",
    "the copy's word columns, read as the project's full-text index reads them.",
    'Run it with the DuckDB shell: duckdb -csv < <this file>',
  ].map(oneLine);
  const lines = [
    header.map((l) => `-- ${l}`).join('\n'),
    `CREATE OR REPLACE TEMP VIEW items AS SELECT * FROM read_parquet(${file(DATASET_FILES.items)});`,
    `CREATE OR REPLACE TEMP VIEW collection_items AS SELECT * FROM read_parquet(${file(DATASET_FILES.collectionItems)});`,
    `${text};`,
    '',
  ];
  return {
    text: lines.join('\n'),
    fileName: `skein-view-${day(at)}.duckdb.sql`,
    note: `The project was copied as Parquet to ${dataset.folder} for this script, which reads that copy rather than the project: copy the script again to take in what the project collects later.`,
  };
}
