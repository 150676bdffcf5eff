/**
 * The project as a Parquet copy DuckDB (or arrow, polars, pandas) reads: `items.parquet`, one row per item the
 * project holds with the columns its views filter and sort on, the item's JSON as received, and the words of its
 * full-text index as the index keeps them; `collection_items.parquet`, every collection's items in order. A
 * "Copy as DuckDB" script reads it with the same WHERE the view runs (compiled for DuckDB), its words matched in
 * those columns: each holds a text's words (shared/search/tokens.ts, the indexes' own reading) between spaces,
 * so a term's words in a row, `" storm garden "`, are one substring, and a prefix leaves off the last space.
 * Written from one snapshot of the project, into `.partial` files renamed when whole.
 */
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileWriter, parquetWriteRows } from 'hyparquet-writer';
import type { SearchNode } from '../../shared/search/parse';
import { searchTokens } from '../../shared/search/tokens';
import { sql, type Sql } from '../db';
import { storedFts } from './derive';
import type { TextIndex } from './search';
import type { ProjectStore, Snapshot, TableRow } from './store';

/** the dataset's files, as a script names them */
export const DATASET_FILES = { items: 'items.parquet', collectionItems: 'collection_items.parquet' } as const;

/** the columns of the index's words, one per indexed text */
const WORD_COLUMNS = ['words_text', 'words_handle', 'words_name', 'words_bio'] as const;

/** Rows per row group: the items' JSON is most of a row, and a group is held whole while it is written. */
const ROW_GROUP_ROWS = 2_000;
const CHUNK = 1_000;

export interface DatasetReport {
  folder: string;
  items: number;
  collectionItems: number;
}

/** A text's words as the dataset keeps them: between spaces, and a space at each end. */
const wordsColumn = (text: string): string => ` ${searchTokens(text).join(' ')} `;

/** A table's rows from a snapshot, a chunk at a time, in key order. */
async function* rowsOf(snapshot: Snapshot, store: ProjectStore, name: string): AsyncGenerator<TableRow> {
  const spec = store.tables.find((t) => t.name === name);
  if (!spec) throw new Error(`a project without its ${name} table`);
  let after: TableRow | null = null;
  for (;;) {
    const rows = await snapshot.rows(spec, after, CHUNK);
    if (rows.length === 0) return;
    yield* rows;
    after = rows[rows.length - 1]!;
  }
}

const int = (v: unknown): bigint | null =>
  typeof v === 'number' && Number.isSafeInteger(v)
    ? BigInt(v)
    : typeof v === 'string' && /^-?\d{1,18}$/.test(v)
      ? BigInt(v)
      : null;
const text = (v: string | number | null | undefined): string | null =>
  v === null || v === undefined ? null : String(v);

/** Writes `folder`'s dataset from the project as it is now; files there before are replaced only when whole. */
export async function writeDataset(store: ProjectStore, folder: string): Promise<DatasetReport> {
  mkdirSync(folder, { recursive: true });
  const snapshot = await store.snapshot();
  const written: string[] = [];
  try {
    let items = 0;
    const itemsPart = join(folder, `${DATASET_FILES.items}.partial`);
    written.push(itemsPart);
    await parquetWriteRows({
      writer: fileWriter(itemsPart),
      rowGroupSize: ROW_GROUP_ROWS,
      columns: [
        { name: 'rowid', type: 'INT64', nullable: false },
        { name: 'kind', type: 'STRING', nullable: false },
        { name: 'id', type: 'STRING', nullable: false },
        { name: 'created_at', type: 'INT64' },
        { name: 'author_handle', type: 'STRING' },
        { name: 'lang', type: 'STRING' },
        { name: 'flags', type: 'INT64', nullable: false },
        { name: 'engagement', type: 'INT64', nullable: false },
        { name: 'raw', type: 'STRING', nullable: false, statistics: false },
        ...WORD_COLUMNS.map((name) => ({ name, type: 'STRING' as const, nullable: false, statistics: false })),
      ],
      rows: (async function* () {
        for await (const row of rowsOf(snapshot, store, 'items')) {
          items++;
          const kind = String(row.kind);
          const raw = String(row.raw);
          const fts = storedFts(kind, raw);
          yield {
            rowid: int(row.rowid) ?? 0n,
            kind,
            id: String(row.id),
            created_at: int(row.created_at),
            author_handle: text(row.author_handle),
            lang: text(row.lang),
            flags: int(row.flags) ?? 0n,
            engagement: int(row.engagement) ?? 0n,
            raw,
            words_text: wordsColumn(fts.text),
            words_handle: wordsColumn(fts.handle),
            words_name: wordsColumn(fts.name),
            words_bio: wordsColumn(fts.bio),
          };
        }
      })(),
    });
    let collectionItems = 0;
    const collectionPart = join(folder, `${DATASET_FILES.collectionItems}.partial`);
    written.push(collectionPart);
    await parquetWriteRows({
      writer: fileWriter(collectionPart),
      rowGroupSize: 50_000,
      columns: [
        { name: 'collection', type: 'INT64', nullable: false },
        { name: 'position', type: 'INT64', nullable: false },
        { name: 'item', type: 'INT64', nullable: false },
        { name: 'depth', type: 'INT64' },
      ],
      rows: (async function* () {
        for await (const row of rowsOf(snapshot, store, 'collection_items')) {
          collectionItems++;
          yield {
            collection: int(row.collection) ?? 0n,
            position: int(row.position) ?? 0n,
            item: int(row.item) ?? 0n,
            depth: int(row.depth),
          };
        }
      })(),
    });
    renameSync(itemsPart, join(folder, DATASET_FILES.items));
    renameSync(collectionPart, join(folder, DATASET_FILES.collectionItems));
    return { folder, items, collectionItems };
  } catch (e) {
    for (const f of written) rmSync(f, { force: true });
    throw e;
  } finally {
    await snapshot.close();
  }
}

/** A text-only subtree as a condition on the dataset's word columns. */
function wordsCondition(node: SearchNode): Sql {
  switch (node.type) {
    case 'text': {
      // no words: every text holds them, as FTS5 and the reference read an empty phrase
      if (node.tokens.length === 0) return sql.raw('TRUE');
      const needle = ` ${node.tokens.join(' ')}${node.prefix ? '' : ' '}`;
      return sql`(${sql.join(
        WORD_COLUMNS.map((c) => sql`contains(${sql.raw(`i.${c}`)}, ${needle})`),
        ' OR ',
      )})`;
    }
    case 'not':
      return sql`NOT ${wordsCondition(node.node)}`;
    case 'and':
    case 'or':
      return sql`(${sql.join(node.nodes.map(wordsCondition), node.type === 'and' ? ' AND ' : ' OR ')})`;
    case 'field':
      throw new Error('a filter is never part of the words');
  }
}

/**
 * The dataset's words as the search language's compiler uses an index: each text-only subtree it is handed is
 * kept, and its "match" is the subtree's number, read back as conditions on the word columns.
 */
export function datasetIndex(): TextIndex {
  const nodes: SearchNode[] = [];
  return {
    match: (node) => String(nodes.push(node) - 1),
    matches: (match) => wordsCondition(nodes[Number(match)]!),
  };
}
