/**
 * Coding in the project file (issue 36): codebooks and their versions, coders, one value per item × field ×
 * coder (with its time and codebook version), adjudicated values apart from the coders', samples with their
 * items and assignment, opted-out accounts, and the citation fields a share package was last made with.
 * Synchronous (node:sqlite) like the rest of the project: it runs in the archive's worker. The rules (which
 * value fits which field, when a change becomes a new version, who may write what) are the coding area's;
 * this file only keeps and reads.
 */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { CodebookDefinition, CodedKind, CodeValue } from '../../shared/coding/codebook';
import type {
  Adjudication,
  Assignment,
  Codebook,
  CodebookSummary,
  Coder,
  Coding,
  ModelSettings,
  OptOut,
  SampleDefinition,
  SampleItem,
  SampleSummary,
  Stratum,
} from '../../shared/coding/records';
import type { ArchiveQueryParsed } from '../../shared/ipc/archive';
import { FLAG } from './derive';
import { whereOf } from './query';
import { rowReaders, storedText } from './rows';
import type { SourceReader, SourceRow } from './store';

/** The migration that adds coding to a project (appended to schema.ts's list). */
export const CODING_MIGRATION = `
  CREATE TABLE codebooks (id INTEGER PRIMARY KEY, name TEXT NOT NULL, created_at INTEGER NOT NULL);
  CREATE TABLE codebook_versions (codebook INTEGER NOT NULL, version INTEGER NOT NULL, definition TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT '', created_at INTEGER NOT NULL, PRIMARY KEY (codebook, version)) WITHOUT ROWID;
  -- people and models; revealed_at: when the coder chose to see agreement (blind until then)
  CREATE TABLE coders (id INTEGER PRIMARY KEY, name TEXT NOT NULL COLLATE NOCASE UNIQUE, kind TEXT NOT NULL,
    model TEXT, created_at INTEGER NOT NULL, revealed_at INTEGER);
  -- one value per item x field x coder of a codebook: the value (JSON), when, under which version; a model's
  -- values carry the model, prompt and settings they were made with (detail, JSON)
  CREATE TABLE codings (codebook INTEGER NOT NULL, item_kind TEXT NOT NULL, item_id TEXT NOT NULL, field TEXT NOT NULL,
    coder INTEGER NOT NULL, value TEXT NOT NULL, version INTEGER NOT NULL, coded_at INTEGER NOT NULL, detail TEXT,
    PRIMARY KEY (codebook, item_kind, item_id, field, coder)) WITHOUT ROWID;
  CREATE INDEX codings_coder ON codings (codebook, coder);
  -- reconciliation: the decided value, apart from the coders' values
  CREATE TABLE adjudications (codebook INTEGER NOT NULL, item_kind TEXT NOT NULL, item_id TEXT NOT NULL,
    field TEXT NOT NULL, value TEXT NOT NULL, version INTEGER NOT NULL, decided_at INTEGER NOT NULL,
    decided_by TEXT NOT NULL, note TEXT NOT NULL DEFAULT '', PRIMARY KEY (codebook, item_kind, item_id, field)) WITHOUT ROWID;
  CREATE TABLE samples (id INTEGER PRIMARY KEY, codebook INTEGER NOT NULL, name TEXT NOT NULL, definition TEXT NOT NULL,
    created_at INTEGER NOT NULL);
  CREATE TABLE sample_items (sample INTEGER NOT NULL, position INTEGER NOT NULL, item_kind TEXT NOT NULL,
    item_id TEXT NOT NULL, stratum TEXT, PRIMARY KEY (sample, position)) WITHOUT ROWID;
  CREATE TABLE assignments (sample INTEGER NOT NULL, coder INTEGER NOT NULL, position INTEGER NOT NULL,
    item_kind TEXT NOT NULL, item_id TEXT NOT NULL, overlap INTEGER NOT NULL, PRIMARY KEY (sample, coder, position)) WITHOUT ROWID;
  -- accounts whose items every export leaves out
  CREATE TABLE opt_outs (rowid INTEGER PRIMARY KEY, user_id TEXT, handle TEXT COLLATE NOCASE, note TEXT NOT NULL DEFAULT '',
    added_at INTEGER NOT NULL);
`;

/** A stratum's value as SQL over `items i` (null when the item has none). */
const STRATUM_SQL: Record<Stratum, string> = {
  day: "strftime('%Y-%m-%d', i.created_at / 1000, 'unixepoch')",
  week: "'week of ' || date(i.created_at / 1000, 'unixepoch', '-6 days', 'weekday 1')",
  month: "strftime('%Y-%m', i.created_at / 1000, 'unixepoch')",
  author: "'@' || i.author_handle",
  lang: 'i.lang',
  type: `CASE WHEN (i.flags & ${FLAG.retweet}) != 0 THEN 'repost' WHEN (i.flags & ${FLAG.quote}) != 0 THEN 'quote'
    WHEN (i.flags & ${FLAG.reply}) != 0 THEN 'reply' ELSE 'original' END`,
};

type Row = Record<string, SQLInputValue>;

const json = (v: unknown): string => JSON.stringify(v);
const text = storedText;
const { parse, coder: coderOf, coding: codingOf, adjudication: adjudicationOf } = rowReaders(text);

/** A value written for one item × field × coder. */
export interface CodingInput {
  codebook: number;
  kind: CodedKind;
  id: string;
  field: string;
  coder: number;
  value: CodeValue;
  version: number;
  codedAt: number;
  detail?: unknown;
}

export interface AdjudicationInput {
  codebook: number;
  kind: CodedKind;
  id: string;
  field: string;
  value: CodeValue;
  version: number;
  decidedAt: number;
  decidedBy: string;
  note: string;
}

/** The SQL and values that restrict `alias` rows (with item_kind, item_id) to a sample's items, or to none. */
function inSample(alias: string, sample: number | null): { sql: string; args: SQLInputValue[] } {
  if (sample === null) return { sql: '1', args: [] };
  return {
    sql: `EXISTS (SELECT 1 FROM sample_items s WHERE s.sample = ? AND s.item_kind = ${alias}.item_kind AND s.item_id = ${alias}.item_id)`,
    args: [sample],
  };
}

/** `run` in one transaction. */
function tx<T>(db: DatabaseSync, run: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const out = run();
    db.exec('COMMIT');
    return out;
  } catch (e) {
    db.exec('ROLLBACK');
    throw e;
  }
}

/**
 * The SQLite store's coding tables; postgres/coding.ts is their twin. Every method but `source` is an `ArchiveApi`
 * call (host.ts serves them by name, with the project's handle first; `CODING_METHODS` in store.ts lists them).
 */
export class SqliteCoding {
  constructor(
    private readonly db: DatabaseSync,
    private readonly now: () => number,
  ) {}

  // ─── codebooks ──────────────────────────────────────────────────────────────────────────────────────────

  codebooks(): CodebookSummary[] {
    return (
      this.db
        .prepare(
          `SELECT b.id, b.name, b.created_at,
             (SELECT max(version) FROM codebook_versions v WHERE v.codebook = b.id) AS version,
             (SELECT count(*) FROM codings c WHERE c.codebook = b.id) AS codings
           FROM codebooks b ORDER BY b.created_at, b.id`,
        )
        .all() as Row[]
    ).map((r) => ({
      id: Number(r.id),
      name: text(r.name),
      createdAt: Number(r.created_at),
      version: Number(r.version),
      codings: Number(r.codings),
    }));
  }

  codebook(id: number): Codebook | null {
    const summary = this.codebooks().find((b) => b.id === id);
    if (!summary) return null;
    const versions = (
      this.db
        .prepare(
          'SELECT version, definition, note, created_at FROM codebook_versions WHERE codebook = ? ORDER BY version',
        )
        .all(id) as Row[]
    ).map((r) => ({
      version: Number(r.version),
      definition: parse<CodebookDefinition>(r.definition),
      note: text(r.note),
      createdAt: Number(r.created_at),
    }));
    return { ...summary, versions };
  }

  /** Values or adjudications made under a version: a change to it then becomes a new version. */
  usedVersion(codebook: number, version: number): boolean {
    const used = this.db
      .prepare(
        `SELECT EXISTS (SELECT 1 FROM codings WHERE codebook = ? AND version = ?)
           OR EXISTS (SELECT 1 FROM adjudications WHERE codebook = ? AND version = ?) AS used`,
      )
      .get(codebook, version, codebook, version) as { used: number };
    return used.used === 1;
  }

  createCodebook(name: string, definition: CodebookDefinition, note: string): number {
    return tx(this.db, () => {
      const at = this.now();
      const { lastInsertRowid } = this.db
        .prepare('INSERT INTO codebooks (name, created_at) VALUES (?, ?)')
        .run(name, at);
      const id = Number(lastInsertRowid);
      this.db
        .prepare(
          'INSERT INTO codebook_versions (codebook, version, definition, note, created_at) VALUES (?, 1, ?, ?, ?)',
        )
        .run(id, json(definition), note, at);
      return id;
    });
  }

  /** `version` replaced in place (nothing was coded under it) or added (the next one). */
  putVersion(codebook: number, name: string, version: number, definition: CodebookDefinition, note: string): void {
    tx(this.db, () => {
      this.db.prepare('UPDATE codebooks SET name = ? WHERE id = ?').run(name, codebook);
      this.db
        .prepare(
          'INSERT OR REPLACE INTO codebook_versions (codebook, version, definition, note, created_at) VALUES (?, ?, ?, ?, ?)',
        )
        .run(codebook, version, json(definition), note, this.now());
    });
  }

  // ─── coders ─────────────────────────────────────────────────────────────────────────────────────────────

  coders(): Coder[] {
    return (this.db.prepare('SELECT * FROM coders ORDER BY id').all() as Row[]).map(coderOf);
  }

  coder(id: number): Coder | null {
    const r = this.db.prepare('SELECT * FROM coders WHERE id = ?').get(id) as Row | undefined;
    return r ? coderOf(r) : null;
  }

  coderByName(name: string): Coder | null {
    const r = this.db.prepare('SELECT * FROM coders WHERE name = ?').get(name) as Row | undefined;
    return r ? coderOf(r) : null;
  }

  addCoder(name: string, kind: 'person' | 'model', model: ModelSettings | null): Coder {
    const { lastInsertRowid } = this.db
      .prepare('INSERT INTO coders (name, kind, model, created_at) VALUES (?, ?, ?, ?)')
      .run(name, kind, model === null ? null : json(model), this.now());
    return this.coder(Number(lastInsertRowid))!;
  }

  updateCoder(id: number, patch: { name?: string; model?: ModelSettings }): Coder | null {
    if (patch.name !== undefined) this.db.prepare('UPDATE coders SET name = ? WHERE id = ?').run(patch.name, id);
    if (patch.model !== undefined)
      this.db.prepare('UPDATE coders SET model = ? WHERE id = ?').run(json(patch.model), id);
    return this.coder(id);
  }

  reveal(id: number): Coder | null {
    this.db.prepare('UPDATE coders SET revealed_at = coalesce(revealed_at, ?) WHERE id = ?').run(this.now(), id);
    return this.coder(id);
  }

  // ─── values ─────────────────────────────────────────────────────────────────────────────────────────────

  setCoding(c: CodingInput): Coding {
    this.db
      .prepare(
        `INSERT OR REPLACE INTO codings (codebook, item_kind, item_id, field, coder, value, version, coded_at, detail)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        c.codebook,
        c.kind,
        c.id,
        c.field,
        c.coder,
        json(c.value),
        c.version,
        c.codedAt,
        c.detail === undefined ? null : json(c.detail),
      );
    return {
      kind: c.kind,
      id: c.id,
      field: c.field,
      coder: c.coder,
      value: c.value,
      codedAt: c.codedAt,
      version: c.version,
      detail: c.detail ?? null,
    };
  }

  /** Many values in one transaction (an import, a model's run); a value already there is replaced. */
  setCodings(list: readonly CodingInput[]): number {
    if (list.length === 0) return 0;
    return tx(this.db, () => {
      for (const c of list) this.setCoding(c);
      return list.length;
    });
  }

  clearCoding(codebook: number, kind: CodedKind, id: string, field: string, coder: number): void {
    this.db
      .prepare('DELETE FROM codings WHERE codebook = ? AND item_kind = ? AND item_id = ? AND field = ? AND coder = ?')
      .run(codebook, kind, id, field, coder);
  }

  /** One coder's values of these items. */
  valuesOf(codebook: number, coder: number, kind: CodedKind, ids: readonly string[]): Coding[] {
    if (ids.length === 0) return [];
    return (
      this.db
        .prepare(
          `SELECT * FROM codings WHERE codebook = ? AND coder = ? AND item_kind = ? AND item_id IN (${ids.map(() => '?').join(',')})`,
        )
        .all(codebook, coder, kind, ...ids) as Row[]
    ).map(codingOf);
  }

  /** Every value of a codebook (of a sample's items only, when given), in item order. */
  codings(codebook: number, sample: number | null): Coding[] {
    const where = inSample('c', sample);
    return (
      this.db
        .prepare(
          `SELECT * FROM codings c WHERE c.codebook = ? AND ${where.sql} ORDER BY c.item_kind, c.item_id, c.field, c.coder`,
        )
        .all(codebook, ...where.args) as Row[]
    ).map(codingOf);
  }

  // ─── reconciliation ─────────────────────────────────────────────────────────────────────────────────────

  adjudicate(a: AdjudicationInput): Adjudication {
    this.db
      .prepare(
        `INSERT OR REPLACE INTO adjudications (codebook, item_kind, item_id, field, value, version, decided_at, decided_by, note)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(a.codebook, a.kind, a.id, a.field, json(a.value), a.version, a.decidedAt, a.decidedBy, a.note);
    return {
      kind: a.kind,
      id: a.id,
      field: a.field,
      value: a.value,
      decidedAt: a.decidedAt,
      decidedBy: a.decidedBy,
      note: a.note,
      version: a.version,
    };
  }

  setAdjudications(list: readonly AdjudicationInput[]): number {
    if (list.length === 0) return 0;
    return tx(this.db, () => {
      for (const a of list) this.adjudicate(a);
      return list.length;
    });
  }

  clearAdjudication(codebook: number, kind: CodedKind, id: string, field: string): void {
    this.db
      .prepare('DELETE FROM adjudications WHERE codebook = ? AND item_kind = ? AND item_id = ? AND field = ?')
      .run(codebook, kind, id, field);
  }

  adjudications(codebook: number, sample: number | null): Adjudication[] {
    const where = inSample('a', sample);
    return (
      this.db
        .prepare(
          `SELECT * FROM adjudications a WHERE a.codebook = ? AND ${where.sql} ORDER BY a.item_kind, a.item_id, a.field`,
        )
        .all(codebook, ...where.args) as Row[]
    ).map(adjudicationOf);
  }

  // ─── samples ────────────────────────────────────────────────────────────────────────────────────────────

  /** How many items a source holds, per stratum value (the largest first; `limit` listed). */
  population(
    q: ArchiveQueryParsed,
    stratum: Stratum | null,
    limit: number,
  ): { total: number; strata: Array<{ value: string; count: number }>; strataCount: number } {
    const { sql, args } = whereOf(q);
    const total = (this.db.prepare(`SELECT count(*) AS n FROM items i WHERE ${sql}`).get(...args) as { n: number }).n;
    if (stratum === null) return { total, strata: [], strataCount: 0 };
    const rows = this.db
      .prepare(
        `SELECT coalesce(${STRATUM_SQL[stratum]}, '(none)') AS value, count(*) AS n FROM items i WHERE ${sql}
         GROUP BY value ORDER BY n DESC, value`,
      )
      .all(...args) as Array<{ value: string; n: number }>;
    return {
      total,
      strata: rows.slice(0, limit).map((r) => ({ value: r.value, count: r.n })),
      strataCount: rows.length,
    };
  }

  /** The ids of a source with their stratum's value, read a chunk at a time (a draw reads them all). */
  source(q: ArchiveQueryParsed, stratum: Stratum | null): SourceReader {
    const { sql, args } = whereOf(q);
    const column = stratum === null ? 'NULL' : `coalesce(${STRATUM_SQL[stratum]}, '(none)')`;
    const it = this.db
      .prepare(`SELECT i.id AS id, ${column} AS stratum FROM items i WHERE ${sql}`)
      .iterate(...args) as Iterator<SourceRow>;
    return {
      next: (max) => {
        const out: SourceRow[] = [];
        while (out.length < max) {
          const next = it.next();
          if (next.done) break;
          out.push({ id: next.value.id, stratum: next.value.stratum });
        }
        return out;
      },
      close: () => {
        it.return?.();
      },
    };
  }

  addSample(
    codebook: number,
    name: string,
    definition: SampleDefinition,
    items: readonly SampleItem[],
    assignments: readonly Assignment[],
  ): number {
    return tx(this.db, () => {
      const { lastInsertRowid } = this.db
        .prepare('INSERT INTO samples (codebook, name, definition, created_at) VALUES (?, ?, ?, ?)')
        .run(codebook, name, json(definition), this.now());
      const id = Number(lastInsertRowid);
      const item = this.db.prepare(
        'INSERT INTO sample_items (sample, position, item_kind, item_id, stratum) VALUES (?, ?, ?, ?, ?)',
      );
      for (const i of items) item.run(id, i.position, i.kind, i.id, i.stratum);
      const assignment = this.db.prepare(
        'INSERT INTO assignments (sample, coder, position, item_kind, item_id, overlap) VALUES (?, ?, ?, ?, ?, ?)',
      );
      for (const a of assignments) assignment.run(id, a.coder, a.position, a.kind, a.id, a.overlap ? 1 : 0);
      return id;
    });
  }

  /** A codebook's samples with each assigned coder's progress (`compared`: the fields an item is done with). */
  samples(codebook: number, compared: readonly string[]): SampleSummary[] {
    const rows = this.db
      .prepare(
        `SELECT s.id, s.codebook, s.name, s.definition, s.created_at,
           (SELECT count(*) FROM sample_items i WHERE i.sample = s.id) AS items
         FROM samples s WHERE s.codebook = ? ORDER BY s.created_at DESC, s.id DESC`,
      )
      .all(codebook) as Row[];
    const fields = compared.length > 0 ? compared : [''];
    const progress = this.db.prepare(
      `SELECT a.coder AS coder, count(*) AS assigned,
         sum((SELECT count(DISTINCT c.field) FROM codings c WHERE c.codebook = ? AND c.coder = a.coder
              AND c.item_kind = a.item_kind AND c.item_id = a.item_id AND c.field IN (${fields.map(() => '?').join(',')})) = ?) AS done
       FROM assignments a WHERE a.sample = ? GROUP BY a.coder ORDER BY a.coder`,
    );
    return rows.map((r) => ({
      id: Number(r.id),
      codebook: Number(r.codebook),
      name: text(r.name),
      createdAt: Number(r.created_at),
      definition: parse<SampleDefinition>(r.definition),
      items: Number(r.items),
      progress: (progress.all(codebook, ...fields, compared.length, Number(r.id)) as Row[]).map((p) => ({
        coder: Number(p.coder),
        assigned: Number(p.assigned),
        done: Number(p.done ?? 0),
      })),
    }));
  }

  sample(id: number): { codebook: number; name: string; definition: SampleDefinition } | null {
    const r = this.db.prepare('SELECT codebook, name, definition FROM samples WHERE id = ?').get(id) as Row | undefined;
    return r
      ? { codebook: Number(r.codebook), name: text(r.name), definition: parse<SampleDefinition>(r.definition) }
      : null;
  }

  sampleItems(sample: number): SampleItem[] {
    return (
      this.db
        .prepare('SELECT position, item_kind, item_id, stratum FROM sample_items WHERE sample = ? ORDER BY position')
        .all(sample) as Row[]
    ).map((r) => ({
      position: Number(r.position),
      kind: r.item_kind as CodedKind,
      id: text(r.item_id),
      stratum: r.stratum === null ? null : text(r.stratum),
    }));
  }

  /** A coder's queue in a sample, in order, from `offset`. */
  assignments(sample: number, coder: number, offset: number, limit: number): { entries: Assignment[]; total: number } {
    const total = (
      this.db.prepare('SELECT count(*) AS n FROM assignments WHERE sample = ? AND coder = ?').get(sample, coder) as {
        n: number;
      }
    ).n;
    const entries = (
      this.db
        .prepare(
          'SELECT coder, position, item_kind, item_id, overlap FROM assignments WHERE sample = ? AND coder = ? ORDER BY position LIMIT ? OFFSET ?',
        )
        .all(sample, coder, limit, offset) as Row[]
    ).map((r) => ({
      coder: Number(r.coder),
      position: Number(r.position),
      kind: r.item_kind as CodedKind,
      id: text(r.item_id),
      overlap: r.overlap === 1,
    }));
    return { entries, total };
  }

  // ─── opted-out accounts ─────────────────────────────────────────────────────────────────────────────────

  optOuts(): OptOut[] {
    return (
      this.db.prepare('SELECT user_id, handle, note, added_at FROM opt_outs ORDER BY added_at, rowid').all() as Row[]
    ).map((r) => ({
      userId: r.user_id === null ? null : text(r.user_id),
      handle: r.handle === null ? null : text(r.handle),
      note: text(r.note),
      addedAt: Number(r.added_at),
    }));
  }

  /** The account's id and handle as the project knows them (the newest user item, else a post's author). */
  accountOf(ref: { userId?: string; handle?: string }): { userId: string | null; handle: string | null } {
    const row = (
      ref.userId !== undefined
        ? this.db
            .prepare("SELECT id, author_handle AS handle FROM items WHERE kind = 'user' AND id = ?")
            .get(ref.userId)
        : this.db
            .prepare(
              "SELECT id, author_handle AS handle FROM items WHERE kind = 'user' AND author_handle = ? ORDER BY last_seen DESC LIMIT 1",
            )
            .get(ref.handle ?? '')
    ) as { id: string; handle: string | null } | undefined;
    if (row) return { userId: row.id, handle: row.handle };
    if (ref.handle !== undefined) {
      // a post's author: its raw JSON names the id
      const post = this.db
        .prepare(
          "SELECT json_extract(raw, '$.author.id') AS id FROM items WHERE kind = 'post' AND author_handle = ? LIMIT 1",
        )
        .get(ref.handle) as { id: string | number | null } | undefined;
      return { userId: post?.id === null || post?.id === undefined ? null : String(post.id), handle: ref.handle };
    }
    return { userId: ref.userId ?? null, handle: null };
  }

  addOptOut(userId: string | null, handle: string | null, note: string): OptOut[] {
    const exists = this.db
      .prepare('SELECT 1 FROM opt_outs WHERE (? IS NOT NULL AND user_id = ?) OR (? IS NOT NULL AND handle = ?)')
      .get(userId, userId, handle, handle);
    if (!exists)
      this.db
        .prepare('INSERT INTO opt_outs (user_id, handle, note, added_at) VALUES (?, ?, ?, ?)')
        .run(userId, handle, note, this.now());
    return this.optOuts();
  }

  removeOptOut(ref: { userId?: string; handle?: string }): OptOut[] {
    this.db
      .prepare('DELETE FROM opt_outs WHERE (? IS NOT NULL AND user_id = ?) OR (? IS NOT NULL AND handle = ?)')
      .run(ref.userId ?? null, ref.userId ?? null, ref.handle ?? null, ref.handle ?? null);
    return this.optOuts();
  }

  // ─── the project's own fields ───────────────────────────────────────────────────────────────────────────

  meta(key: string): string | null {
    const r = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    return r?.value ?? null;
  }

  setMeta(key: string, value: string): void {
    this.db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value);
  }
}
