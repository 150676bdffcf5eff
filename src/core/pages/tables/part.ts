/**
 * The pages area's tables as a part of every project (core/db's parts): written once for a project file and a
 * team's PostgreSQL schema, carried by a project's copy, opened on the project's executor.
 */
import { timestampTableDdl, timestampTableSpec, type Ddl, type TablePart, type TableSpec } from '../../db';
import { PageTables } from './tables';

export const PAGES_PART_NAME = 'pages';

const MIGRATIONS: ReadonlyArray<(t: Ddl) => string> = [
  // one row per linked URL (its last outcome: captured, or why not), and which posts link to it
  (t) => `
  CREATE TABLE IF NOT EXISTS page_captures (url ${t.key} PRIMARY KEY, state ${t.text} NOT NULL, at ${t.int} NOT NULL,
    attempts ${t.small} NOT NULL, status ${t.small}, size ${t.int}, mime ${t.text}, sha256 ${t.text},
    final_url ${t.text}, wacz ${t.text}, record_offset ${t.int}, record_length ${t.int}, reason ${t.text},
    message ${t.text})${t.keyed};
  CREATE TABLE IF NOT EXISTS page_links (url ${t.key} NOT NULL, post_id ${t.key} NOT NULL,
    PRIMARY KEY (url, post_id))${t.keyed};
  CREATE INDEX IF NOT EXISTS page_links_post ON page_links (post_id);
  `,
  // one row per linked URL sent to a web archive's save service: the capture's address and when, or why not
  (t) => `
  CREATE TABLE IF NOT EXISTS page_saves (url ${t.key} PRIMARY KEY, state ${t.text} NOT NULL, at ${t.int} NOT NULL,
    attempts ${t.small} NOT NULL, service ${t.text} NOT NULL, status ${t.small}, capture_url ${t.text},
    reason ${t.text}, message ${t.text})${t.keyed};
  `,
  // one row per WACZ a run wrote: the SHA-256 and size of the whole file, so a later check can tell it changed
  (t) => `
  CREATE TABLE IF NOT EXISTS page_waczs (name ${t.key} PRIMARY KEY, sha256 ${t.text} NOT NULL, size ${t.int} NOT NULL,
    at ${t.int} NOT NULL)${t.keyed};
  `,
  // trusted time: each capture run's manifest (its WACZ) and every request for a token over it (granted, failed,
  // or not asked because no authority is set), the token's file and hash when one was kept
  timestampTableDdl('page_timestamps'),
];

const TABLES: readonly TableSpec[] = [
  {
    name: 'page_captures',
    key: ['url'],
    columns: [
      'url',
      'state',
      'at',
      'attempts',
      'status',
      'size',
      'mime',
      'sha256',
      'final_url',
      'wacz',
      'record_offset',
      'record_length',
      'reason',
      'message',
    ],
  },
  { name: 'page_links', key: ['url', 'post_id'], columns: ['url', 'post_id'] },
  {
    name: 'page_saves',
    key: ['url'],
    columns: ['url', 'state', 'at', 'attempts', 'service', 'status', 'capture_url', 'reason', 'message'],
  },
  { name: 'page_waczs', key: ['name'], columns: ['name', 'sha256', 'size', 'at'] },
  timestampTableSpec('page_timestamps'),
];

export const PAGES_PART: TablePart<PageTables> = {
  name: PAGES_PART_NAME,
  migrations: MIGRATIONS,
  tables: TABLES,
  open: (db) => new PageTables(db),
};
