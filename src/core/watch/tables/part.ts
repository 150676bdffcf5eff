/**
 * The watch area's tables as a part of every project (core/db's parts): their migrations, written once for a
 * project file and a team's PostgreSQL schema, the tables a project's copy carries, and the methods opened on a
 * project's executor. Projects made before parts kept their own versions already hold these tables from the
 * archive's schema version 4 (a project file) or 2 (a team project) on.
 */
import type { Ddl, TablePart, TableSpec } from '../../db';
import { PRESENCE_COLUMNS } from './rows';
import { WatchTables } from './watch-tables';

/** the part's name: what a project records its version under and main addresses its calls by */
export const WATCH_PART_NAME = 'watch';

/** in order; each takes the watch tables one version on */
const MIGRATIONS: ReadonlyArray<(t: Ddl) => string> = [
  // what a watch follows, every run, gaps, what it saw (presence: the attrition history), counters over time (one
  // row per value, first and last seen), and who runs them (one runner). A counter is kept as SQLite's INTEGER
  // (a whole count stays one) and PostgreSQL's double precision (a bigint would refuse a fraction); both read back
  // the number written. PostgreSQL alone indexes the runs still open and the items across watches, as it always has.
  (t) => `
  CREATE TABLE watches (rowid ${t.id}, name ${t.text} NOT NULL, kind ${t.text} NOT NULL, spec ${t.text} NOT NULL,
    created_at ${t.int} NOT NULL, paused ${t.small} NOT NULL DEFAULT 0, paused_at ${t.int}, removed_at ${t.int},
    next_due ${t.int}, state ${t.text} NOT NULL DEFAULT '{}');
  CREATE TABLE watch_runs (rowid ${t.id}, watch ${t.int} NOT NULL, started_at ${t.int} NOT NULL,
    ended_at ${t.int}, scheduled_for ${t.int}, status ${t.text} NOT NULL, runner ${t.text} NOT NULL, token ${t.text},
    calls ${t.small} NOT NULL DEFAULT 0, credits ${t.real} NOT NULL DEFAULT 0, new_items ${t.small} NOT NULL DEFAULT 0,
    seen_items ${t.small} NOT NULL DEFAULT 0, rechecked ${t.small} NOT NULL DEFAULT 0, gone ${t.small} NOT NULL DEFAULT 0,
    returned ${t.small} NOT NULL DEFAULT 0, resumed ${t.small} NOT NULL DEFAULT 0, asked ${t.text} NOT NULL DEFAULT '',
    message ${t.text}, journal ${t.text});
  CREATE INDEX watch_runs_watch ON watch_runs (watch, started_at);
  CREATE TABLE watch_gaps (rowid ${t.id}, watch ${t.int} NOT NULL, from_at ${t.int} NOT NULL,
    to_at ${t.int} NOT NULL, reason ${t.text} NOT NULL, detail ${t.text} NOT NULL, recorded_at ${t.int} NOT NULL,
    filled_at ${t.int}, filled_by ${t.int}, pending ${t.text} NOT NULL DEFAULT '[]');
  CREATE INDEX watch_gaps_watch ON watch_gaps (watch, from_at);
  CREATE TABLE watch_presence (watch ${t.int} NOT NULL, kind ${t.key} NOT NULL, id ${t.key} NOT NULL, target ${t.text},
    created_at ${t.int}, first_seen ${t.int} NOT NULL, last_seen ${t.int} NOT NULL, first_run ${t.int} NOT NULL,
    baseline ${t.small} NOT NULL DEFAULT 0, first_missing_at ${t.int}, rechecks ${t.small} NOT NULL DEFAULT 0,
    status ${t.text} NOT NULL DEFAULT 'present', reason ${t.text}, status_at ${t.int} NOT NULL, next_check ${t.int},
    PRIMARY KEY (watch, kind, id))${t.keyed};
  CREATE INDEX watch_presence_target ON watch_presence (watch, target, created_at);
  CREATE INDEX watch_presence_status ON watch_presence (watch, status, next_check);
  CREATE TABLE watch_counters (kind ${t.key} NOT NULL, id ${t.key} NOT NULL, metric ${t.key} NOT NULL,
    at ${t.int} NOT NULL, value ${t.dialect === 'sqlite' ? t.int : t.real} NOT NULL, last_at ${t.int} NOT NULL,
    run ${t.int}, PRIMARY KEY (kind, id, metric, at))${t.keyed};
  CREATE TABLE watch_runner (one ${t.small} PRIMARY KEY CHECK (one = 1), token ${t.text} NOT NULL, who ${t.text} NOT NULL,
    host ${t.text} NOT NULL, pid ${t.small} NOT NULL, since ${t.int} NOT NULL, heartbeat ${t.int} NOT NULL);
  ${
    t.dialect === 'postgres'
      ? `CREATE INDEX watch_runs_open ON watch_runs (rowid) WHERE status = 'running';
  CREATE INDEX watch_presence_item ON watch_presence (kind, id);`
      : ''
  }
  `,
];

/**
 * What a project's copy carries, in this order; the runner's row is not copied: it says who runs the source's
 * watches, not the copy's.
 */
const TABLES: readonly TableSpec[] = [
  {
    name: 'watches',
    key: ['rowid'],
    columns: ['rowid', 'name', 'kind', 'spec', 'created_at', 'paused', 'paused_at', 'removed_at', 'next_due', 'state'],
  },
  {
    name: 'watch_runs',
    key: ['rowid'],
    columns: [
      'rowid',
      'watch',
      'started_at',
      'ended_at',
      'scheduled_for',
      'status',
      'runner',
      'token',
      'calls',
      'credits',
      'new_items',
      'seen_items',
      'rechecked',
      'gone',
      'returned',
      'resumed',
      'asked',
      'message',
      'journal',
    ],
  },
  {
    name: 'watch_gaps',
    key: ['rowid'],
    columns: [
      'rowid',
      'watch',
      'from_at',
      'to_at',
      'reason',
      'detail',
      'recorded_at',
      'filled_at',
      'filled_by',
      'pending',
    ],
  },
  { name: 'watch_presence', key: ['watch', 'kind', 'id'], columns: PRESENCE_COLUMNS },
  {
    name: 'watch_counters',
    key: ['kind', 'id', 'metric', 'at'],
    columns: ['kind', 'id', 'metric', 'at', 'value', 'last_at', 'run'],
  },
];

export const WATCH_PART: TablePart<WatchTables> = {
  name: WATCH_PART_NAME,
  migrations: MIGRATIONS,
  before: { sqlite: 4, postgres: 2 },
  tables: TABLES,
  open: (db) => new WatchTables(db),
};
