/**
 * Projects made before the areas kept their own tables (commit f939964's Skein, whose archive made the coding
 * and watch tables itself): a project file and a team schema it wrote are kept as fixtures (testing/fixtures:
 * answers with hostile text, a thread collection, a codebook with two versions, coders, values, an
 * adjudication, a sample, an opt-out, a watch with two runs, presence, counters, a gap and its last runner).
 * Today's Skein opens each, records its parts as already made, changes no row (it adds the chart's counts,
 * made from the items), and copies it to the other store and back unchanged.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARTS } from '../compose/parts';
import { fromPg } from '../db';
import { skipWithoutPostgres, startTestCluster, type TestCluster } from '../db/testing/postgres';
import { COUNTS_PART, slotOf } from './counts';
import { ArchiveHost, type OpenInit } from './host';
import { tablesOf } from './parts';
import type { ProjectStore, TableRow } from './store';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'testing', 'fixtures');
const init = { name: 'ignored: the project keeps its own', kind: 'live' as const, researcher: 'Grace' };
const TABLES = tablesOf(PARTS);

type Tables = Record<string, TableRow[]>;

/** every row of every table a copy carries, in key order whatever the store's collation */
function sorted(tables: Tables): Tables {
  const out: Tables = {};
  for (const t of TABLES)
    out[t.name] = [...(tables[t.name] ?? [])].sort((a, b) => {
      const ka = JSON.stringify(t.key.map((k) => a[k]));
      const kb = JSON.stringify(t.key.map((k) => b[k]));
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
  return out;
}

/** the rows as the project's own snapshot reads them (what a copy carries) */
async function snapshotRows(p: ProjectStore): Promise<Tables> {
  const snap = await p.snapshot();
  const out: Tables = {};
  try {
    for (const t of TABLES) out[t.name] = await snap.rows(t, null, 1_000_000);
  } finally {
    await snap.close();
  }
  return sorted(out);
}

/** rows of every table a copy carries; a table a later migration adds, which the old file lacks, is empty */
function fileRows(path: string): Tables {
  const db = new DatabaseSync(path, { readOnly: true });
  const out: Tables = {};
  const has = db.prepare(`SELECT 1 AS has FROM sqlite_master WHERE type = 'table' AND name = ?`);
  for (const t of TABLES)
    out[t.name] = has.get(t.name)
      ? (db.prepare(`SELECT ${t.columns.join(', ')} FROM ${t.name}`).all() as unknown as TableRow[])
      : [];
  db.close();
  return sorted(out);
}

function schemaRows(cluster: TestCluster, schema: string): Tables {
  const out: Tables = {};
  // a table a later migration adds, which the old schema lacks, is empty
  const present = new Set(
    cluster
      .psql(`SELECT string_agg(table_name, ',') FROM information_schema.tables WHERE table_schema = '${schema}'`)
      .trim()
      .split(','),
  );
  for (const t of TABLES) {
    if (!present.has(t.name)) {
      out[t.name] = [];
      continue;
    }
    const json = cluster
      .psql(
        `SELECT coalesce(json_agg(json_build_object(${t.columns.map((c) => `'${c}', ${c}`).join(', ')})), '[]') FROM ${schema}.${t.name}`,
      )
      .trim();
    out[t.name] = (JSON.parse(json) as TableRow[]).map((row) =>
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' ? fromPg(v) : v])),
    );
  }
  return sorted(out);
}

/** opens `where` on a host of its own, hands its project to `look`, closes it */
async function opened<T>(where: OpenInit, look: (p: ProjectStore, host: ArchiveHost) => Promise<T>): Promise<T> {
  const host = new ArchiveHost(() => undefined, PARTS);
  try {
    await host.api.open('current', where);
    return await look(
      (host as unknown as { projects: Map<string, ProjectStore> }).projects.get('current') as ProjectStore,
      host,
    );
  } finally {
    await host.dispose();
  }
}

const partVersions = async (p: ProjectStore) =>
  (await snapshotPartsTable(p)).sort((a, b) => (a.name < b.name ? -1 : 1));

async function snapshotPartsTable(p: ProjectStore): Promise<Array<{ name: string; version: number }>> {
  const snap = await p.snapshot();
  try {
    return (await snap.rows({ name: 'parts', key: ['name'], columns: ['name', 'version'] }, null, 100)) as Array<{
      name: string;
      version: number;
    }>;
  } finally {
    await snap.close();
  }
}

const expectedParts = [COUNTS_PART, ...PARTS]
  .map((p) => ({ name: p.name, version: p.migrations.length }))
  .sort((a, b) => (a.name < b.name ? -1 : 1));

/**
 * The rows an old project holds once opened: its own unchanged, and the chart's counts (a table it lacked) made from
 * its items, each kind's items counted per quarter hour of their creation.
 */
function withCounts(before: Tables): Tables {
  expect(before.activity_counts).toEqual([]);
  const counts = new Map<string, TableRow>();
  for (const item of before.items ?? []) {
    const kind = String(item.kind);
    const slot = slotOf(item.created_at === null ? null : Number(item.created_at));
    const row = counts.get(`${kind} ${slot}`) ?? { kind, slot, n: 0 };
    row.n = Number(row.n) + 1;
    counts.set(`${kind} ${slot}`, row);
  }
  return sorted({ ...before, activity_counts: [...counts.values()] });
}

describe('a project made before the areas kept their own tables', () => {
  let dir = '';
  let cluster: TestCluster | null = null;
  const skip = skipWithoutPostgres();
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'skein-legacy-'));
    if (!skip) cluster = await startTestCluster();
  }, 120_000);
  afterAll(() => {
    cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const running = () => {
    if (!cluster) throw new Error('no cluster');
    return cluster;
  };

  it('a project file opens with its parts recorded as made, changes no row, and goes to a team schema and back unchanged', async () => {
    const path = join(dir, 'old.skein');
    copyFileSync(join(FIXTURES, 'f939964.skein'), path);
    const before = fileRows(path);
    expect(before.items?.length).toBeGreaterThan(40);
    expect(before.watch_presence).toHaveLength(3);
    expect(before.codings).toHaveLength(4);
    const after = withCounts(before);
    expect(after.activity_counts?.length).toBeGreaterThan(1);
    const file: OpenInit = { path, ...init };
    await opened(file, async (p) => {
      expect((await p.summary()).name).toBe('Made by f939964');
      expect(await snapshotRows(p)).toEqual(after);
      expect(await partVersions(p)).toEqual(expectedParts);
    });
    expect(fileRows(path)).toEqual(after);
    if (skip) return;
    const team: OpenInit = { store: 'postgres', connection: running().connection('from_file'), ...init, kind: 'live' };
    const back: OpenInit = { path: join(dir, 'back.skein'), ...init };
    await opened(file, async (_, host) => {
      await host.api.copy('current', team);
    });
    await opened(team, async (p, host) => {
      expect(await snapshotRows(p)).toEqual(after);
      await host.api.copy('current', back);
    });
    expect(fileRows(back.path)).toEqual(after);
  });

  (skip ? it.skip : it)(
    'a team schema opens the same way, and goes to a project file and back unchanged',
    async () => {
      const c = running();
      c.restore(join(FIXTURES, 'f939964.sql'));
      const before = schemaRows(c, 'legacy');
      expect(before.items?.length).toBeGreaterThan(40);
      const after = withCounts(before);
      const team: OpenInit = { store: 'postgres', connection: c.connection('legacy'), ...init, kind: 'live' };
      await opened(team, async (p) => {
        expect((await p.summary()).name).toBe('Made by f939964');
        expect(await snapshotRows(p)).toEqual(after);
        expect(await partVersions(p)).toEqual(expectedParts);
      });
      expect(schemaRows(c, 'legacy')).toEqual(after);
      const file: OpenInit = { path: join(dir, 'from-team.skein'), ...init };
      const again: OpenInit = { store: 'postgres', connection: c.connection('back_again'), ...init, kind: 'live' };
      await opened(team, async (_, host) => host.api.copy('current', file));
      expect(fileRows(file.path)).toEqual(after);
      await opened(file, async (_, host) => host.api.copy('current', again));
      expect(schemaRows(c, 'back_again')).toEqual(after);
      // four opens and two copies against a real server: ~9 s alone, more beside the rest of the suite
    },
    60_000,
  );
});
