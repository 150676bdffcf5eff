/**
 * A team project's coding tables (issue 36), the twin of the SQLite store's (../coding.ts, whose methods these
 * fit: project-tables.ts): codebooks and versions, coders, one value per item × field × coder, adjudications,
 * samples with their items and assignment, opted-out accounts, the project's own fields. Several Skeins code the
 * same project at once: a value is an upsert of its one row (the last write wins, as on one machine), what is
 * written together is one transaction, and what checks before it writes (an opt-out already listed) does so
 * under the project's coding lock.
 */
import type { CodebookDefinition, CodedKind } from '../../../shared/coding/codebook';
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
} from '../../../shared/coding/records';
import type { ArchiveQueryParsed } from '../../../shared/ipc/archive';
import type { AdjudicationInput, CodingInput } from '../coding';
import { FLAG } from '../derive';
import type { ProjectCoding } from '../project-tables';
import { rowReaders } from '../rows';
import type { SourceReader, SourceRow } from '../store';
import { openCursor, type PgDb, Params, fromPg, fromPgOrNull, toPg, toPgOrNull } from '../../db';
import { whereOf } from './query';

/** A stratum's value as SQL over `items i` (null when the item has none): SQLite's STRATUM_SQL, in UTC. */
const UTC = "to_timestamp(i.created_at / 1000) AT TIME ZONE 'UTC'";
const STRATUM_SQL: Record<Stratum, string> = {
  day: `to_char(${UTC}, 'YYYY-MM-DD')`,
  // the Monday on or before the day (SQLite: '-6 days', 'weekday 1')
  week: `'week of ' || to_char(date_trunc('week', ${UTC}), 'YYYY-MM-DD')`,
  month: `to_char(${UTC}, 'YYYY-MM')`,
  author: "'@' || i.author_handle",
  lang: 'i.lang',
  type: `CASE WHEN (i.flags & ${FLAG.retweet}) <> 0 THEN 'repost' WHEN (i.flags & ${FLAG.quote}) <> 0 THEN 'quote'
    WHEN (i.flags & ${FLAG.reply}) <> 0 THEN 'reply' ELSE 'original' END`,
};

/** A stratum's value as read back (a handle or a language is kept encoded, text.ts). */
const stratumOf = (v: string | null): string | null =>
  v === null ? null : v.startsWith('@') ? `@${fromPg(v.slice(1))}` : fromPg(v);

/** The coding lock of a project: what checks and then writes holds it for its transaction. */
const LOCK_CLASS = 0x736b63; // "skc"
const lockSql = (schema: string) => `SELECT pg_advisory_xact_lock(${LOCK_CLASS}, hashtext('${schema}'))`;

const json = (v: unknown): string => toPg(JSON.stringify(v));
const str = (v: unknown): string =>
  typeof v === 'string' ? fromPg(v) : typeof v === 'number' || typeof v === 'bigint' ? String(v) : '';
const { parse, coder: coderOf, coding: codingOf, adjudication: adjudicationOf } = rowReaders(str);
const num = (v: unknown): number => Number(v);

/** Restricts `alias` rows (with item_kind, item_id) to a sample's items, or leaves them all. */
function inSample(alias: string, sample: number | null, p: Params): string {
  if (sample === null) return 'true';
  return `EXISTS (SELECT 1 FROM sample_items s WHERE s.sample = ${p.add(sample, '::bigint')} AND s.item_kind = ${alias}.item_kind AND s.item_id = ${alias}.item_id)`;
}

/** The last of each key (SQLite replaces row by row; one upsert statement may not touch a row twice). */
function lastOfEach<T>(list: readonly T[], key: (t: T) => string): T[] {
  const out = new Map<string, T>();
  for (const t of list) {
    const k = key(t);
    out.delete(k);
    out.set(k, t);
  }
  return [...out.values()];
}

const CODING_UPSERT = `INSERT INTO codings (codebook, item_kind, item_id, field, coder, value, version, coded_at, detail)
  SELECT codebook, item_kind, item_id, field, coder, value, version, coded_at, detail
  FROM json_to_recordset($1::json) AS x(codebook bigint, item_kind text, item_id text, field text, coder bigint,
    value text, version integer, coded_at bigint, detail text)
  ON CONFLICT (codebook, item_kind, item_id, field, coder) DO UPDATE SET value = excluded.value,
    version = excluded.version, coded_at = excluded.coded_at, detail = excluded.detail`;

const ADJUDICATION_UPSERT = `INSERT INTO adjudications (codebook, item_kind, item_id, field, value, version, decided_at, decided_by, note)
  SELECT codebook, item_kind, item_id, field, value, version, decided_at, decided_by, note
  FROM json_to_recordset($1::json) AS x(codebook bigint, item_kind text, item_id text, field text, value text,
    version integer, decided_at bigint, decided_by text, note text)
  ON CONFLICT (codebook, item_kind, item_id, field) DO UPDATE SET value = excluded.value, version = excluded.version,
    decided_at = excluded.decided_at, decided_by = excluded.decided_by, note = excluded.note`;

const codingRow = (c: CodingInput) => ({
  codebook: c.codebook,
  item_kind: toPg(c.kind),
  item_id: toPg(c.id),
  field: toPg(c.field),
  coder: c.coder,
  value: json(c.value),
  version: c.version,
  coded_at: c.codedAt,
  detail: c.detail === undefined ? null : json(c.detail),
});

const adjudicationRow = (a: AdjudicationInput) => ({
  codebook: a.codebook,
  item_kind: toPg(a.kind),
  item_id: toPg(a.id),
  field: toPg(a.field),
  value: json(a.value),
  version: a.version,
  decided_at: a.decidedAt,
  decided_by: toPg(a.decidedBy),
  note: toPg(a.note),
});

const codingKey = (c: CodingInput) => JSON.stringify([c.codebook, c.kind, c.id, c.field, c.coder]);
const adjudicationKey = (a: AdjudicationInput) => JSON.stringify([a.codebook, a.kind, a.id, a.field]);

export class PgCoding implements ProjectCoding {
  constructor(private readonly db: PgDb) {}

  // ─── codebooks ──────────────────────────────────────────────────────────────────────────────────────────

  async codebooks(): Promise<CodebookSummary[]> {
    const rows = await this.db.rows(
      `SELECT b.id, b.name, b.created_at,
         (SELECT max(version) FROM codebook_versions v WHERE v.codebook = b.id) AS version,
         (SELECT count(*) FROM codings c WHERE c.codebook = b.id) AS codings
       FROM codebooks b ORDER BY b.created_at, b.id`,
    );
    return rows.map((r) => ({
      id: num(r.id),
      name: str(r.name),
      createdAt: num(r.created_at),
      version: num(r.version),
      codings: num(r.codings),
    }));
  }

  async codebook(id: number): Promise<Codebook | null> {
    const summary = (await this.codebooks()).find((b) => b.id === id);
    if (!summary) return null;
    const versions = (
      await this.db.rows(
        'SELECT version, definition, note, created_at FROM codebook_versions WHERE codebook = $1 ORDER BY version',
        [id],
      )
    ).map((r) => ({
      version: num(r.version),
      definition: parse<CodebookDefinition>(r.definition),
      note: str(r.note),
      createdAt: num(r.created_at),
    }));
    return { ...summary, versions };
  }

  async usedVersion(codebook: number, version: number): Promise<boolean> {
    const rows = await this.db.rows<{ used: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM codings WHERE codebook = $1 AND version = $2)
         OR EXISTS (SELECT 1 FROM adjudications WHERE codebook = $1 AND version = $2) AS used`,
      [codebook, version],
    );
    return rows[0]?.used === true;
  }

  createCodebook(name: string, definition: CodebookDefinition, note: string): Promise<number> {
    return this.db.transaction(async (c) => {
      const at = this.db.now();
      const r = await c.query<{ id: number }>('INSERT INTO codebooks (name, created_at) VALUES ($1, $2) RETURNING id', [
        toPg(name),
        at,
      ]);
      const id = num(r.rows[0]?.id);
      await c.query(
        'INSERT INTO codebook_versions (codebook, version, definition, note, created_at) VALUES ($1, 1, $2, $3, $4)',
        [id, json(definition), toPg(note), at],
      );
      return id;
    });
  }

  async putVersion(
    codebook: number,
    name: string,
    version: number,
    definition: CodebookDefinition,
    note: string,
  ): Promise<void> {
    await this.db.transaction(async (c) => {
      await c.query('UPDATE codebooks SET name = $1 WHERE id = $2', [toPg(name), codebook]);
      await c.query(
        `INSERT INTO codebook_versions (codebook, version, definition, note, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (codebook, version) DO UPDATE SET definition = excluded.definition, note = excluded.note,
           created_at = excluded.created_at`,
        [codebook, version, json(definition), toPg(note), this.db.now()],
      );
    });
  }

  // ─── coders ─────────────────────────────────────────────────────────────────────────────────────────────

  async coders(): Promise<Coder[]> {
    return (await this.db.rows('SELECT * FROM coders ORDER BY id')).map(coderOf);
  }

  async coder(id: number): Promise<Coder | null> {
    const r = (await this.db.rows('SELECT * FROM coders WHERE id = $1', [id]))[0];
    return r ? coderOf(r) : null;
  }

  async coderByName(name: string): Promise<Coder | null> {
    const r = (await this.db.rows('SELECT * FROM coders WHERE lower(name) = lower($1)', [toPg(name)]))[0];
    return r ? coderOf(r) : null;
  }

  /** A name another coder has (without case) is refused by the unique index, as SQLite's NOCASE refuses it. */
  async addCoder(name: string, kind: 'person' | 'model', model: ModelSettings | null): Promise<Coder> {
    const r = await this.db.rows(
      'INSERT INTO coders (name, kind, model, created_at) VALUES ($1, $2, $3, $4) RETURNING *',
      [toPg(name), kind, model === null ? null : json(model), this.db.now()],
    );
    return coderOf(r[0] ?? {});
  }

  async updateCoder(id: number, patch: { name?: string; model?: ModelSettings }): Promise<Coder | null> {
    await this.db.transaction(async (c) => {
      if (patch.name !== undefined) await c.query('UPDATE coders SET name = $1 WHERE id = $2', [toPg(patch.name), id]);
      if (patch.model !== undefined)
        await c.query('UPDATE coders SET model = $1 WHERE id = $2', [json(patch.model), id]);
    });
    return this.coder(id);
  }

  async reveal(id: number): Promise<Coder | null> {
    await this.db.rows('UPDATE coders SET revealed_at = coalesce(revealed_at, $1) WHERE id = $2', [this.db.now(), id]);
    return this.coder(id);
  }

  // ─── values ─────────────────────────────────────────────────────────────────────────────────────────────

  async setCoding(c: CodingInput): Promise<Coding> {
    await this.db.rows(CODING_UPSERT, [JSON.stringify([codingRow(c)])]);
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

  /** Many values in one statement (an import, a model's run); a value already there is replaced. */
  async setCodings(list: readonly CodingInput[]): Promise<number> {
    if (list.length === 0) return 0;
    await this.db.rows(CODING_UPSERT, [JSON.stringify(lastOfEach(list, codingKey).map(codingRow))]);
    return list.length;
  }

  async clearCoding(codebook: number, kind: CodedKind, id: string, field: string, coder: number): Promise<void> {
    await this.db.rows(
      'DELETE FROM codings WHERE codebook = $1 AND item_kind = $2 AND item_id = $3 AND field = $4 AND coder = $5',
      [codebook, toPg(kind), toPg(id), toPg(field), coder],
    );
  }

  async valuesOf(codebook: number, coder: number, kind: CodedKind, ids: readonly string[]): Promise<Coding[]> {
    if (ids.length === 0) return [];
    return (
      await this.db.rows(
        'SELECT * FROM codings WHERE codebook = $1 AND coder = $2 AND item_kind = $3 AND item_id = ANY($4::text[])',
        [codebook, coder, toPg(kind), ids.map(toPg)],
      )
    ).map(codingOf);
  }

  async codings(codebook: number, sample: number | null): Promise<Coding[]> {
    const p = new Params();
    const sql = `SELECT * FROM codings c WHERE c.codebook = ${p.add(codebook, '::bigint')} AND ${inSample('c', sample, p)}
      ORDER BY c.item_kind, c.item_id, c.field, c.coder`;
    return (await this.db.rows(sql, p.values)).map(codingOf);
  }

  // ─── reconciliation ─────────────────────────────────────────────────────────────────────────────────────

  async adjudicate(a: AdjudicationInput): Promise<Adjudication> {
    await this.db.rows(ADJUDICATION_UPSERT, [JSON.stringify([adjudicationRow(a)])]);
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

  async setAdjudications(list: readonly AdjudicationInput[]): Promise<number> {
    if (list.length === 0) return 0;
    await this.db.rows(ADJUDICATION_UPSERT, [JSON.stringify(lastOfEach(list, adjudicationKey).map(adjudicationRow))]);
    return list.length;
  }

  async clearAdjudication(codebook: number, kind: CodedKind, id: string, field: string): Promise<void> {
    await this.db.rows(
      'DELETE FROM adjudications WHERE codebook = $1 AND item_kind = $2 AND item_id = $3 AND field = $4',
      [codebook, toPg(kind), toPg(id), toPg(field)],
    );
  }

  async adjudications(codebook: number, sample: number | null): Promise<Adjudication[]> {
    const p = new Params();
    const sql = `SELECT * FROM adjudications a WHERE a.codebook = ${p.add(codebook, '::bigint')} AND ${inSample('a', sample, p)}
      ORDER BY a.item_kind, a.item_id, a.field`;
    return (await this.db.rows(sql, p.values)).map(adjudicationOf);
  }

  // ─── samples ────────────────────────────────────────────────────────────────────────────────────────────

  async population(
    q: ArchiveQueryParsed,
    stratum: Stratum | null,
    limit: number,
  ): Promise<{ total: number; strata: Array<{ value: string; count: number }>; strataCount: number }> {
    const p = new Params();
    const where = whereOf(q, p);
    const total = num((await this.db.rows(`SELECT count(*) AS n FROM items i WHERE ${where}`, p.values))[0]?.n ?? 0);
    if (stratum === null) return { total, strata: [], strataCount: 0 };
    const rows = await this.db.rows<{ value: string; n: number }>(
      `SELECT coalesce(${STRATUM_SQL[stratum]}, '(none)') COLLATE "C" AS value, count(*) AS n FROM items i
       WHERE ${where} GROUP BY 1 ORDER BY 2 DESC, 1`,
      p.values,
    );
    return {
      total,
      strata: rows.slice(0, limit).map((r) => ({ value: stratumOf(r.value) ?? '', count: num(r.n) })),
      strataCount: rows.length,
    };
  }

  async source(q: ArchiveQueryParsed, stratum: Stratum | null): Promise<SourceReader> {
    const p = new Params();
    const where = whereOf(q, p);
    const column = stratum === null ? 'NULL::text' : `coalesce(${STRATUM_SQL[stratum]}, '(none)')`;
    return openCursor<{ id: string; stratum: string | null }, SourceRow>(
      this.db,
      `SELECT i.id, ${column} AS stratum FROM items i WHERE ${where} ORDER BY i.rowid`,
      p,
      (r) => ({ id: fromPg(r.id), stratum: stratumOf(r.stratum) }),
    );
  }

  addSample(
    codebook: number,
    name: string,
    definition: SampleDefinition,
    items: readonly SampleItem[],
    assignments: readonly Assignment[],
  ): Promise<number> {
    return this.db.transaction(async (c) => {
      const r = await c.query<{ id: number }>(
        'INSERT INTO samples (codebook, name, definition, created_at) VALUES ($1, $2, $3, $4) RETURNING id',
        [codebook, toPg(name), json(definition), this.db.now()],
      );
      const id = num(r.rows[0]?.id);
      await inChunks(items, (chunk) =>
        c.query(
          `INSERT INTO sample_items (sample, position, item_kind, item_id, stratum)
           SELECT $1::bigint, position, item_kind, item_id, stratum
           FROM json_to_recordset($2::json) AS x(position integer, item_kind text, item_id text, stratum text)`,
          [
            id,
            JSON.stringify(
              chunk.map((i) => ({
                position: i.position,
                item_kind: toPg(i.kind),
                item_id: toPg(i.id),
                stratum: toPgOrNull(i.stratum),
              })),
            ),
          ],
        ),
      );
      await inChunks(assignments, (chunk) =>
        c.query(
          `INSERT INTO assignments (sample, coder, position, item_kind, item_id, overlap)
           SELECT $1::bigint, coder, position, item_kind, item_id, overlap
           FROM json_to_recordset($2::json) AS x(coder bigint, position integer, item_kind text, item_id text, overlap integer)`,
          [
            id,
            JSON.stringify(
              chunk.map((a) => ({
                coder: a.coder,
                position: a.position,
                item_kind: toPg(a.kind),
                item_id: toPg(a.id),
                overlap: a.overlap ? 1 : 0,
              })),
            ),
          ],
        ),
      );
      return id;
    });
  }

  async samples(codebook: number, compared: readonly string[]): Promise<SampleSummary[]> {
    const rows = await this.db.rows(
      `SELECT s.id, s.codebook, s.name, s.definition, s.created_at,
         (SELECT count(*) FROM sample_items i WHERE i.sample = s.id) AS items
       FROM samples s WHERE s.codebook = $1 ORDER BY s.created_at DESC, s.id DESC`,
      [codebook],
    );
    const fields = compared.length > 0 ? compared : [''];
    const out: SampleSummary[] = [];
    for (const r of rows) {
      const progress = await this.db.rows(
        `SELECT a.coder, count(*) AS assigned,
           sum(CASE WHEN (SELECT count(DISTINCT c.field) FROM codings c WHERE c.codebook = $1 AND c.coder = a.coder
             AND c.item_kind = a.item_kind AND c.item_id = a.item_id AND c.field = ANY($2::text[])) = $3 THEN 1 ELSE 0 END) AS done
         FROM assignments a WHERE a.sample = $4 GROUP BY a.coder ORDER BY a.coder`,
        [codebook, fields.map(toPg), compared.length, num(r.id)],
      );
      out.push({
        id: num(r.id),
        codebook: num(r.codebook),
        name: str(r.name),
        createdAt: num(r.created_at),
        definition: parse<SampleDefinition>(r.definition),
        items: num(r.items),
        progress: progress.map((pr) => ({
          coder: num(pr.coder),
          assigned: num(pr.assigned),
          done: num(pr.done ?? 0),
        })),
      });
    }
    return out;
  }

  async sample(id: number): Promise<{ codebook: number; name: string; definition: SampleDefinition } | null> {
    const r = (await this.db.rows('SELECT codebook, name, definition FROM samples WHERE id = $1', [id]))[0];
    return r
      ? { codebook: num(r.codebook), name: str(r.name), definition: parse<SampleDefinition>(r.definition) }
      : null;
  }

  async sampleItems(sample: number): Promise<SampleItem[]> {
    return (
      await this.db.rows(
        'SELECT position, item_kind, item_id, stratum FROM sample_items WHERE sample = $1 ORDER BY position',
        [sample],
      )
    ).map((r) => ({
      position: num(r.position),
      kind: str(r.item_kind) as CodedKind,
      id: str(r.item_id),
      stratum: r.stratum === null ? null : str(r.stratum),
    }));
  }

  async assignments(
    sample: number,
    coder: number,
    offset: number,
    limit: number,
  ): Promise<{ entries: Assignment[]; total: number }> {
    const [count, rows] = await Promise.all([
      this.db.rows('SELECT count(*) AS n FROM assignments WHERE sample = $1 AND coder = $2', [sample, coder]),
      this.db.rows(
        `SELECT coder, position, item_kind, item_id, overlap FROM assignments WHERE sample = $1 AND coder = $2
         ORDER BY position LIMIT $3 OFFSET $4`,
        [sample, coder, limit, offset],
      ),
    ]);
    return {
      total: num(count[0]?.n ?? 0),
      entries: rows.map((r) => ({
        coder: num(r.coder),
        position: num(r.position),
        kind: str(r.item_kind) as CodedKind,
        id: str(r.item_id),
        overlap: num(r.overlap) === 1,
      })),
    };
  }

  // ─── opted-out accounts ─────────────────────────────────────────────────────────────────────────────────

  async optOuts(): Promise<OptOut[]> {
    return (await this.db.rows('SELECT user_id, handle, note, added_at FROM opt_outs ORDER BY added_at, rowid')).map(
      (r) => ({
        userId: r.user_id === null ? null : str(r.user_id),
        handle: r.handle === null ? null : str(r.handle),
        note: str(r.note),
        addedAt: num(r.added_at),
      }),
    );
  }

  /** The account's id and handle as the project knows them (the newest user item, else a post's author). */
  async accountOf(ref: {
    userId?: string;
    handle?: string;
  }): Promise<{ userId: string | null; handle: string | null }> {
    const row = (
      ref.userId !== undefined
        ? await this.db.rows<{ id: string; handle: string | null }>(
            "SELECT id, author_handle AS handle FROM items WHERE kind = 'user' AND id = $1",
            [toPg(ref.userId)],
          )
        : await this.db.rows<{ id: string; handle: string | null }>(
            `SELECT id, author_handle AS handle FROM items WHERE kind = 'user' AND lower(author_handle) = lower($1)
             ORDER BY last_seen DESC LIMIT 1`,
            [toPg(ref.handle ?? '')],
          )
    )[0];
    if (row) return { userId: fromPg(row.id), handle: fromPgOrNull(row.handle) };
    if (ref.handle !== undefined) {
      // a post's author: its raw JSON names the id
      const post = (
        await this.db.rows<{ id: string | null }>(
          `SELECT skein_json_text(raw, '{author,id}') AS id FROM items
           WHERE kind = 'post' AND lower(author_handle) = lower($1) LIMIT 1`,
          [toPg(ref.handle)],
        )
      )[0];
      return { userId: post?.id ?? null, handle: ref.handle };
    }
    return { userId: ref.userId ?? null, handle: null };
  }

  async addOptOut(userId: string | null, handle: string | null, note: string): Promise<OptOut[]> {
    await this.db.transaction(async (c) => {
      // two Skeins adding the same account at once list it once
      await c.query(lockSql(this.db.connection.schema));
      const exists = await c.query(
        `SELECT 1 FROM opt_outs WHERE ($1::text IS NOT NULL AND user_id = $1::text)
           OR ($2::text IS NOT NULL AND lower(handle) = lower($2::text))`,
        [toPgOrNull(userId), toPgOrNull(handle)],
      );
      if (exists.rows.length === 0)
        await c.query('INSERT INTO opt_outs (user_id, handle, note, added_at) VALUES ($1, $2, $3, $4)', [
          toPgOrNull(userId),
          toPgOrNull(handle),
          toPg(note),
          this.db.now(),
        ]);
    });
    return this.optOuts();
  }

  async removeOptOut(ref: { userId?: string; handle?: string }): Promise<OptOut[]> {
    await this.db.rows(
      `DELETE FROM opt_outs WHERE ($1::text IS NOT NULL AND user_id = $1::text)
         OR ($2::text IS NOT NULL AND lower(handle) = lower($2::text))`,
      [toPgOrNull(ref.userId ?? null), toPgOrNull(ref.handle ?? null)],
    );
    return this.optOuts();
  }

  // ─── the project's own fields ───────────────────────────────────────────────────────────────────────────

  async meta(key: string): Promise<string | null> {
    const r = (await this.db.rows<{ value: string }>('SELECT value FROM meta WHERE key = $1', [toPg(key)]))[0];
    return r ? fromPg(r.value) : null;
  }

  async setMeta(key: string, value: string): Promise<void> {
    await this.db.rows(
      'INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      [toPg(key), toPg(value)],
    );
  }
}

/** Rows of a large list written a few thousand at a time (one JSON parameter each). */
async function inChunks<T>(list: readonly T[], write: (chunk: readonly T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < list.length; i += 5_000) await write(list.slice(i, i + 5_000));
}
