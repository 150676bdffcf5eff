/**
 * The media area's tables as a part of every project (core/db's parts): written once for a project file and a
 * team's PostgreSQL schema, carried by a project's copy, opened on the project's executor.
 */
import { timestampTableDdl, timestampTableSpec, type Ddl, type TablePart, type TableSpec } from '../../db';
import { MediaTables } from './tables';

export const MEDIA_PART_NAME = 'media';

const MIGRATIONS: ReadonlyArray<(t: Ddl) => string> = [
  // a file once per content; every fetch recorded, the URL indexed (keeping again asks which URLs are kept).
  // IF NOT EXISTS: a project whose parts record was lost (a copy of an older format) may hold them already
  (t) => `
  CREATE TABLE IF NOT EXISTS media_files (sha256 ${t.key} PRIMARY KEY, size ${t.int} NOT NULL, mime ${t.text} NOT NULL,
    name ${t.text} NOT NULL, first_kept_at ${t.int} NOT NULL)${t.keyed};
  CREATE TABLE IF NOT EXISTS media_fetches (rowid ${t.id}, url ${t.text} NOT NULL, post_id ${t.key} NOT NULL,
    media_key ${t.text} NOT NULL, at ${t.int} NOT NULL, status ${t.small}, size ${t.int}, mime ${t.text},
    sha256 ${t.text}, reason ${t.text}, message ${t.text});
  CREATE INDEX IF NOT EXISTS media_fetches_url ON media_fetches (url);
  CREATE INDEX IF NOT EXISTS media_fetches_post ON media_fetches (post_id);
  `,
  // trusted time: each run's manifest and every request for a token over it (granted, failed, or not asked
  // because no authority is set), the token's file and hash when one was kept
  timestampTableDdl('media_timestamps'),
];

const TABLES: readonly TableSpec[] = [
  { name: 'media_files', key: ['sha256'], columns: ['sha256', 'size', 'mime', 'name', 'first_kept_at'] },
  {
    name: 'media_fetches',
    key: ['rowid'],
    columns: ['rowid', 'url', 'post_id', 'media_key', 'at', 'status', 'size', 'mime', 'sha256', 'reason', 'message'],
  },
  timestampTableSpec('media_timestamps'),
];

export const MEDIA_PART: TablePart<MediaTables> = {
  name: MEDIA_PART_NAME,
  migrations: MIGRATIONS,
  tables: TABLES,
  open: (db) => new MediaTables(db),
};
