/**
 * Coding's tables in a project, written once for a project file and a team's PostgreSQL schema: codebooks and
 * their versions, coders, one value per item × field × coder (with its time and codebook version), adjudicated
 * values apart from the coders', samples with their items and assignment, and opted-out accounts. The rules
 * (which value fits which field, when a change becomes a new version, who may write what) are the service's;
 * this only keeps and reads. Several Skeins may code one team project at once: a value is an upsert of its one
 * row (the last write wins, as on one machine), what is written together is one transaction, and what checks
 * before it writes (an opt-out already listed) holds the project's coding lock for it.
 *
 * Every method is a call main makes by name across the archive's thread (plain data in and out): the port
 * (../store.ts) is derived from this class, so a new method here is a new call there.
 */
import { sql, type Db, type Sql } from '../../db';
import type { CodebookDefinition, CodedKind, CodeValue } from '../../../shared/coding/codebook';
import type {
  Adjudication,
  Assignment,
  Codebook,
  CodebookSummary,
  Coder,
  CoderSwitch,
  Coding,
  ModelSettings,
  OptOut,
  SampleDefinition,
  SampleItem,
  SampleSummary,
} from '../../../shared/coding/records';
import { adjudicationOf, coderOf, codingOf, definitionOf, sampleDefinitionOf, text, textOrNull } from './rows';

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

/** The lock what checks and then writes takes for its transaction (on a team's server; a file has one writer). */
const LOCK_CLASS = 0x736b63; // "skc"

/** rows per statement when many are written at once: within both stores' limits on bound values */
const CHUNK = 500;

const json = (v: unknown): string => JSON.stringify(v);

/** `list` a chunk at a time */
function* chunks<T>(list: readonly T[], size = CHUNK): Generator<readonly T[]> {
  for (let i = 0; i < list.length; i += size) yield list.slice(i, i + size);
}

/** The last of each key: one statement may not upsert a row twice (PostgreSQL), and the last write wins. */
function lastOfEach<T>(list: readonly T[], key: (t: T) => string): T[] {
  const out = new Map<string, T>();
  for (const t of list) {
    const k = key(t);
    out.delete(k);
    out.set(k, t);
  }
  return [...out.values()];
}

/** Restricts `alias` rows (with item_kind, item_id) to a sample's items, or leaves them all. */
function inSample(alias: string, sample: number | null): Sql {
  if (sample === null) return sql`1 = 1`;
  const a = sql.raw(alias);
  return sql`EXISTS (SELECT 1 FROM sample_items s WHERE s.sample = ${sample} AND s.item_kind = ${a}.item_kind AND s.item_id = ${a}.item_id)`;
}

/** The opted-out rows of an account by id, or by handle without case; null when neither is known. */
function sameAccount(userId: string | null, handle: string | null): Sql | null {
  const match: Sql[] = [];
  if (userId !== null) match.push(sql`user_id = ${userId}`);
  if (handle !== null) match.push(sql`lower(handle) = lower(${handle})`);
  return match.length > 0 ? sql`(${sql.join(match, ' OR ')})` : null;
}

const codingRow = (c: CodingInput): Sql =>
  sql`(${c.codebook}, ${c.kind}, ${c.id}, ${c.field}, ${c.coder}, ${json(c.value)}, ${c.version}, ${c.codedAt}, ${
    c.detail === undefined ? null : json(c.detail)
  })`;

const adjudicationRow = (a: AdjudicationInput): Sql =>
  sql`(${a.codebook}, ${a.kind}, ${a.id}, ${a.field}, ${json(a.value)}, ${a.version}, ${a.decidedAt}, ${a.decidedBy}, ${a.note})`;

const codingKey = (c: CodingInput) => JSON.stringify([c.codebook, c.kind, c.id, c.field, c.coder]);
const adjudicationKey = (a: AdjudicationInput) => JSON.stringify([a.codebook, a.kind, a.id, a.field]);

/** Values written (or replaced), a chunk a statement. */
async function upsertCodings(db: Db, list: readonly CodingInput[]): Promise<void> {
  for (const chunk of chunks(lastOfEach(list, codingKey)))
    await db.run(
      sql`INSERT INTO codings (codebook, item_kind, item_id, field, coder, value, version, coded_at, detail)
          VALUES ${sql.join(chunk.map(codingRow))}
          ON CONFLICT (codebook, item_kind, item_id, field, coder) DO UPDATE SET value = excluded.value,
            version = excluded.version, coded_at = excluded.coded_at, detail = excluded.detail`,
    );
}

async function upsertAdjudications(db: Db, list: readonly AdjudicationInput[]): Promise<void> {
  for (const chunk of chunks(lastOfEach(list, adjudicationKey)))
    await db.run(
      sql`INSERT INTO adjudications (codebook, item_kind, item_id, field, value, version, decided_at, decided_by, note)
          VALUES ${sql.join(chunk.map(adjudicationRow))}
          ON CONFLICT (codebook, item_kind, item_id, field) DO UPDATE SET value = excluded.value,
            version = excluded.version, decided_at = excluded.decided_at, decided_by = excluded.decided_by,
            note = excluded.note`,
    );
}

export class CodingTables {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  // ─── codebooks ──────────────────────────────────────────────────────────────────────────────────────────

  async codebooks(): Promise<CodebookSummary[]> {
    const rows = await this.db.all(
      sql`SELECT b.id, b.name, b.created_at,
            (SELECT max(version) FROM codebook_versions v WHERE v.codebook = b.id) AS version,
            (SELECT count(*) FROM codings c WHERE c.codebook = b.id) AS codings
          FROM codebooks b ORDER BY b.created_at, b.id`,
    );
    return rows.map((r) => ({
      id: Number(r.id),
      name: text(r.name),
      createdAt: Number(r.created_at),
      version: Number(r.version),
      codings: Number(r.codings),
    }));
  }

  async codebook(id: number): Promise<Codebook | null> {
    const summary = (await this.codebooks()).find((b) => b.id === id);
    if (!summary) return null;
    const versions = (
      await this.db.all(
        sql`SELECT version, definition, note, created_at FROM codebook_versions WHERE codebook = ${id} ORDER BY version`,
      )
    ).map((r) => ({
      version: Number(r.version),
      definition: definitionOf(r.definition),
      note: text(r.note),
      createdAt: Number(r.created_at),
    }));
    return { ...summary, versions };
  }

  /** Values or adjudications made under a version: a change to it then becomes a new version. */
  async usedVersion(codebook: number, version: number): Promise<boolean> {
    const r = await this.db.get(
      sql`SELECT CASE WHEN EXISTS (SELECT 1 FROM codings WHERE codebook = ${codebook} AND version = ${version})
            OR EXISTS (SELECT 1 FROM adjudications WHERE codebook = ${codebook} AND version = ${version})
          THEN 1 ELSE 0 END AS used`,
    );
    return Number(r?.used) === 1;
  }

  createCodebook(name: string, definition: CodebookDefinition, note: string): Promise<number> {
    return this.db.transaction(async (tx) => {
      const at = this.now();
      const r = await tx.get(sql`INSERT INTO codebooks (name, created_at) VALUES (${name}, ${at}) RETURNING id`);
      const id = Number(r?.id);
      await tx.run(
        sql`INSERT INTO codebook_versions (codebook, version, definition, note, created_at)
            VALUES (${id}, 1, ${json(definition)}, ${note}, ${at})`,
      );
      return id;
    });
  }

  /** `version` replaced in place (nothing was coded under it) or added (the next one). */
  async putVersion(
    codebook: number,
    name: string,
    version: number,
    definition: CodebookDefinition,
    note: string,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run(sql`UPDATE codebooks SET name = ${name} WHERE id = ${codebook}`);
      await tx.run(
        sql`INSERT INTO codebook_versions (codebook, version, definition, note, created_at)
            VALUES (${codebook}, ${version}, ${json(definition)}, ${note}, ${this.now()})
            ON CONFLICT (codebook, version) DO UPDATE SET definition = excluded.definition, note = excluded.note,
              created_at = excluded.created_at`,
      );
    });
  }

  // ─── coders ─────────────────────────────────────────────────────────────────────────────────────────────

  async coders(): Promise<Coder[]> {
    return (await this.db.all(sql`SELECT * FROM coders ORDER BY id`)).map(coderOf);
  }

  async coder(id: number): Promise<Coder | null> {
    const r = await this.db.get(sql`SELECT * FROM coders WHERE id = ${id}`);
    return r ? coderOf(r) : null;
  }

  /** The coder of a name, whatever its case. */
  async coderByName(name: string): Promise<Coder | null> {
    const r = await this.db.get(sql`SELECT * FROM coders WHERE lower(name) = lower(${name})`);
    return r ? coderOf(r) : null;
  }

  /** A name another coder has (without case) is refused by the table (part.ts). */
  async addCoder(name: string, kind: 'person' | 'model', model: ModelSettings | null): Promise<Coder> {
    const r = await this.db.get(
      sql`INSERT INTO coders (name, kind, model, created_at)
          VALUES (${name}, ${kind}, ${model === null ? null : json(model)}, ${this.now()}) RETURNING *`,
    );
    return coderOf(r ?? {});
  }

  async updateCoder(id: number, patch: { name?: string; model?: ModelSettings }): Promise<Coder | null> {
    await this.db.transaction(async (tx) => {
      if (patch.name !== undefined) await tx.run(sql`UPDATE coders SET name = ${patch.name} WHERE id = ${id}`);
      if (patch.model !== undefined) await tx.run(sql`UPDATE coders SET model = ${json(patch.model)} WHERE id = ${id}`);
    });
    return this.coder(id);
  }

  async reveal(id: number): Promise<Coder | null> {
    await this.db.run(sql`UPDATE coders SET revealed_at = coalesce(revealed_at, ${this.now()}) WHERE id = ${id}`);
    return this.coder(id);
  }

  /** Records that the person coding at a computer became `to` (from `from`, or from nobody). */
  async recordSwitch(from: number | null, to: number, researcher: string): Promise<void> {
    await this.db.run(
      sql`INSERT INTO coder_switches (from_coder, to_coder, researcher, switched_at)
          VALUES (${from}, ${to}, ${researcher}, ${this.now()})`,
    );
  }

  /** Every recorded switch, the latest first. */
  async switches(limit: number): Promise<CoderSwitch[]> {
    return (
      await this.db.all(
        sql`SELECT from_coder, to_coder, researcher, switched_at FROM coder_switches
            ORDER BY switched_at DESC, rowid DESC LIMIT ${limit}`,
      )
    ).map((r) => ({
      from: r.from_coder === null ? null : Number(r.from_coder),
      to: Number(r.to_coder),
      researcher: text(r.researcher),
      at: Number(r.switched_at),
    }));
  }

  // ─── values ─────────────────────────────────────────────────────────────────────────────────────────────

  async setCoding(c: CodingInput): Promise<void> {
    await upsertCodings(this.db, [c]);
  }

  /** Many values in one transaction (an import, a model's run); a value already there is replaced. */
  async setCodings(list: readonly CodingInput[]): Promise<number> {
    if (list.length === 0) return 0;
    await this.db.transaction((tx) => upsertCodings(tx, list));
    return list.length;
  }

  async clearCoding(codebook: number, kind: CodedKind, id: string, field: string, coder: number): Promise<void> {
    await this.db.run(
      sql`DELETE FROM codings WHERE codebook = ${codebook} AND item_kind = ${kind} AND item_id = ${id}
            AND field = ${field} AND coder = ${coder}`,
    );
  }

  /** One coder's values of these items. */
  async valuesOf(codebook: number, coder: number, kind: CodedKind, ids: readonly string[]): Promise<Coding[]> {
    const out: Coding[] = [];
    for (const chunk of chunks(ids))
      for (const r of await this.db.all(
        sql`SELECT * FROM codings WHERE codebook = ${codebook} AND coder = ${coder} AND item_kind = ${kind}
              AND item_id IN (${sql.join(chunk)})`,
      ))
        out.push(codingOf(r));
    return out;
  }

  /** Every value of a codebook (of a sample's items only, when given), in item order. */
  async codings(codebook: number, sample: number | null): Promise<Coding[]> {
    return (
      await this.db.all(
        sql`SELECT * FROM codings c WHERE c.codebook = ${codebook} AND ${inSample('c', sample)}
            ORDER BY c.item_kind, c.item_id, c.field, c.coder`,
      )
    ).map(codingOf);
  }

  // ─── reconciliation ─────────────────────────────────────────────────────────────────────────────────────

  async adjudicate(a: AdjudicationInput): Promise<void> {
    await upsertAdjudications(this.db, [a]);
  }

  async setAdjudications(list: readonly AdjudicationInput[]): Promise<number> {
    if (list.length === 0) return 0;
    await this.db.transaction((tx) => upsertAdjudications(tx, list));
    return list.length;
  }

  async clearAdjudication(codebook: number, kind: CodedKind, id: string, field: string): Promise<void> {
    await this.db.run(
      sql`DELETE FROM adjudications WHERE codebook = ${codebook} AND item_kind = ${kind} AND item_id = ${id}
            AND field = ${field}`,
    );
  }

  async adjudications(codebook: number, sample: number | null): Promise<Adjudication[]> {
    return (
      await this.db.all(
        sql`SELECT * FROM adjudications a WHERE a.codebook = ${codebook} AND ${inSample('a', sample)}
            ORDER BY a.item_kind, a.item_id, a.field`,
      )
    ).map(adjudicationOf);
  }

  // ─── samples ────────────────────────────────────────────────────────────────────────────────────────────

  addSample(
    codebook: number,
    name: string,
    definition: SampleDefinition,
    items: readonly SampleItem[],
    assignments: readonly Assignment[],
  ): Promise<number> {
    return this.db.transaction(async (tx) => {
      const r = await tx.get(
        sql`INSERT INTO samples (codebook, name, definition, created_at)
            VALUES (${codebook}, ${name}, ${json(definition)}, ${this.now()}) RETURNING id`,
      );
      const id = Number(r?.id);
      for (const chunk of chunks(items))
        await tx.run(
          sql`INSERT INTO sample_items (sample, position, item_kind, item_id, stratum) VALUES ${sql.rows(
            chunk.map((i) => [id, i.position, i.kind, i.id, i.stratum]),
          )}`,
        );
      for (const chunk of chunks(assignments))
        await tx.run(
          sql`INSERT INTO assignments (sample, coder, position, item_kind, item_id, overlap) VALUES ${sql.rows(
            chunk.map((a) => [id, a.coder, a.position, a.kind, a.id, a.overlap ? 1 : 0]),
          )}`,
        );
      return id;
    });
  }

  /**
   * A codebook's samples with each assigned coder's progress (`compared`: the fields an item is done with); `only`:
   * that one sample alone (a draw's answer, without working out every other sample's progress again).
   */
  async samples(codebook: number, compared: readonly string[], only: number | null = null): Promise<SampleSummary[]> {
    const rows = await this.db.all(
      sql`SELECT s.id, s.codebook, s.name, s.definition, s.created_at,
            (SELECT count(*) FROM sample_items i WHERE i.sample = s.id) AS items
          FROM samples s WHERE s.codebook = ${codebook}${only === null ? sql`` : sql` AND s.id = ${only}`}
          ORDER BY s.created_at DESC, s.id DESC`,
    );
    const fields = compared.length > 0 ? compared : [''];
    const out: SampleSummary[] = [];
    for (const r of rows) {
      const progress = await this.db.all(
        sql`SELECT a.coder AS coder, count(*) AS assigned,
              sum(CASE WHEN (SELECT count(DISTINCT c.field) FROM codings c WHERE c.codebook = ${codebook}
                AND c.coder = a.coder AND c.item_kind = a.item_kind AND c.item_id = a.item_id
                AND c.field IN (${sql.join(fields)})) = ${compared.length} THEN 1 ELSE 0 END) AS done
            FROM assignments a WHERE a.sample = ${Number(r.id)} GROUP BY a.coder ORDER BY a.coder`,
      );
      out.push({
        id: Number(r.id),
        codebook: Number(r.codebook),
        name: text(r.name),
        createdAt: Number(r.created_at),
        definition: sampleDefinitionOf(r.definition),
        items: Number(r.items),
        progress: progress.map((p) => ({
          coder: Number(p.coder),
          assigned: Number(p.assigned),
          done: Number(p.done ?? 0),
        })),
      });
    }
    return out;
  }

  async sample(id: number): Promise<{ codebook: number; name: string; definition: SampleDefinition | null } | null> {
    const r = await this.db.get(sql`SELECT codebook, name, definition FROM samples WHERE id = ${id}`);
    return r
      ? { codebook: Number(r.codebook), name: text(r.name), definition: sampleDefinitionOf(r.definition) }
      : null;
  }

  async sampleItems(sample: number): Promise<SampleItem[]> {
    return (
      await this.db.all(
        sql`SELECT position, item_kind, item_id, stratum FROM sample_items WHERE sample = ${sample} ORDER BY position`,
      )
    ).map((r) => ({
      position: Number(r.position),
      kind: text(r.item_kind) as CodedKind,
      id: text(r.item_id),
      stratum: textOrNull(r.stratum),
    }));
  }

  /** A coder's queue in a sample, in order, from `offset`. */
  async assignments(
    sample: number,
    coder: number,
    offset: number,
    limit: number,
  ): Promise<{ entries: Assignment[]; total: number }> {
    const count = await this.db.get(
      sql`SELECT count(*) AS n FROM assignments WHERE sample = ${sample} AND coder = ${coder}`,
    );
    const rows = await this.db.all(
      sql`SELECT coder, position, item_kind, item_id, overlap FROM assignments WHERE sample = ${sample}
            AND coder = ${coder} ORDER BY position LIMIT ${limit} OFFSET ${offset}`,
    );
    return {
      total: Number(count?.n ?? 0),
      entries: rows.map((r) => ({
        coder: Number(r.coder),
        position: Number(r.position),
        kind: text(r.item_kind) as CodedKind,
        id: text(r.item_id),
        overlap: Number(r.overlap) === 1,
      })),
    };
  }

  // ─── opted-out accounts ─────────────────────────────────────────────────────────────────────────────────

  async optOuts(): Promise<OptOut[]> {
    return (await this.db.all(sql`SELECT user_id, handle, note, added_at FROM opt_outs ORDER BY added_at, rowid`)).map(
      (r) => ({
        userId: textOrNull(r.user_id),
        handle: textOrNull(r.handle),
        note: text(r.note),
        addedAt: Number(r.added_at),
      }),
    );
  }

  /** An account listed once, by id or by handle (without case): two Skeins adding it at once list it once. */
  async addOptOut(userId: string | null, handle: string | null, note: string): Promise<OptOut[]> {
    await this.db.transaction(async (tx) => {
      const same = sameAccount(userId, handle);
      const listed = same ? await tx.get(sql`SELECT 1 AS listed FROM opt_outs WHERE ${same}`) : undefined;
      if (!listed)
        await tx.run(
          sql`INSERT INTO opt_outs (user_id, handle, note, added_at) VALUES (${userId}, ${handle}, ${note}, ${this.now()})`,
        );
    }, LOCK_CLASS);
    return this.optOuts();
  }

  async removeOptOut(ref: { userId?: string; handle?: string }): Promise<OptOut[]> {
    const same = sameAccount(ref.userId ?? null, ref.handle ?? null);
    if (same) await this.db.run(sql`DELETE FROM opt_outs WHERE ${same}`);
    return this.optOuts();
  }
}
