/**
 * A re-export: an export whose source is the research archive. Any collection, search result or the whole
 * project is written again — in any format of the registry — through the same format writer and manifest builder
 * the export jobs use, without an API call: the items come from the archive in chunks (archive-source.ts), each
 * as last received. from-archive.ts decides where it runs and asks for the file.
 *
 * Every row keeps its provenance, so a file written from the project says where each item came from as a
 * collected one does: when the project first and last received the item, and the request that last returned it
 * — an index into the manifest's `source.requests`, which lists each request the file draws on (operation,
 * params, cursor, page, time, address; never the key).
 */
import type { ArchiveQueryParsed } from '../../shared/ipc/archive';
import type { CsvCells, ExportFormat, ExportOptions } from '../../shared/ipc/export';
import {
  cellsFor,
  formatRegistry,
  JsonList,
  type Formats,
  type Provenance,
  type SourceRequestEntry,
  type StreamItem,
} from '../formats';
import type { ArchiveHandle, ArchiveReader, ArchiveRequest, ArchiveRow } from './archive-source';
import { writeWithPolicy, type ItemPolicy } from './item-policy';
import { buildManifest, type ExportContext } from './manifest';
import type { ViewPlan } from './views';

const CHUNK = 1_000;
/** how many of the damaged items left out the manifest names */
const LISTED_DAMAGED = 100;

const iso = (ms: number): string | null => (Number.isFinite(ms) ? new Date(ms).toISOString() : null);

/**
 * What rows need of the requests they came from: each one's place in the manifest's list (by the archive's id),
 * its operation and its cursor. Numbers and shared strings, not the requests themselves: a million posts draw
 * on some 50,000 requests, which the manifest's list already holds once.
 */
interface DrawnOn {
  index: Map<number, number>;
  operation: string[];
  cursor: Array<string | null>;
}

/** A row's provenance: when the project first and last received it, and the request (by its index) that last returned it. */
function rowProvenance(row: ArchiveRow, drawnOn: DrawnOn): Provenance {
  const index = row.request === null ? undefined : drawnOn.index.get(row.request);
  return {
    retrieved_at: iso(row.lastSeen),
    operation: index === undefined ? '' : (drawnOn.operation[index] ?? ''),
    page: index ?? null,
    cursor: index === undefined ? null : (drawnOn.cursor[index] ?? ''),
    first_retrieved_at: iso(row.firstSeen),
  };
}

/** What a re-export's rows say of where they came from (the manifest's `row_provenance.fields`). */
const REEXPORT_PROVENANCE = {
  retrieved_at: 'when the project last received the item (UTC, ISO 8601): the answer its raw JSON is from',
  operation: 'the catalog operation of the request that last returned the item',
  page: "index into this manifest's `source.requests`: the request that last returned the item",
  cursor: 'the cursor that request was asked with (empty: the first page of its listing)',
  first_retrieved_at: 'when the project first received the item (UTC, ISO 8601)',
};

function paramsOf(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}

/**
 * The requests a re-export draws on, read from the archive a chunk at a time: the manifest's list (in index
 * order) and what the rows need of them. The few distinct operations and addresses are kept once each.
 */
async function readDrawnOn(
  archive: ArchiveReader,
  handle: ArchiveHandle,
  q: ArchiveQueryParsed,
): Promise<{ listed: JsonList<SourceRequestEntry>; drawnOn: DrawnOn }> {
  const listed = new JsonList<SourceRequestEntry>();
  const drawnOn: DrawnOn = { index: new Map(), operation: [], cursor: [] };
  const shared = new Map<string, string>();
  const once = (s: string): string => {
    const known = shared.get(s);
    if (known !== undefined) return known;
    shared.set(s, s);
    return s;
  };
  const reader = await archive.requestsOpen(handle, q);
  try {
    for (;;) {
      const rows: ArchiveRequest[] = await archive.requestsNext(reader, CHUNK);
      for (const r of rows) {
        const operation = once(r.operation);
        drawnOn.index.set(r.id, listed.length);
        drawnOn.operation.push(operation);
        drawnOn.cursor.push(r.cursor);
        listed.push({
          operation,
          params: paramsOf(r.params),
          cursor: r.cursor,
          page_index: r.pageIndex,
          fetched_at: new Date(r.at).toISOString(),
          base_url: once(r.baseUrl),
          http_status: r.httpStatus,
          items: r.items,
        });
      }
      if (rows.length < CHUNK) break;
    }
  } finally {
    await archive.readClose(reader);
  }
  return { listed, drawnOn };
}

/** The items of a query, read from the archive in chunks, as the writers' item stream, each with its provenance. */
function archiveStream(archive: ArchiveReader, handle: ArchiveHandle, q: ArchiveQueryParsed, drawnOn: DrawnOn) {
  const stream = {
    /** items handed out by the last read */
    count: 0,
    async *items(): AsyncGenerator<StreamItem> {
      stream.count = 0;
      const reader = await archive.readOpen(handle, q);
      // the next chunk is read in the worker while this one is written here: the two threads work at once
      let next: Promise<ArchiveRow[]> | null = null;
      const readNext = (): Promise<ArchiveRow[]> => {
        const p = archive.readNext(reader, CHUNK);
        p.catch(() => undefined); // awaited below; a writer that stops early leaves it unread
        return p;
      };
      try {
        next = readNext();
        for (;;) {
          const rows: ArchiveRow[] = await next;
          next = rows.length < CHUNK ? null : readNext();
          for (const row of rows) {
            stream.count++;
            yield {
              id: row.id,
              position: row.place ?? 'null',
              raw: row.raw,
              provenance: rowProvenance(row, drawnOn),
            };
          }
          if (next === null) return;
        }
      } finally {
        await next?.catch(() => undefined);
        await archive.readClose(reader);
      }
    },
  };
  return stream;
}

export interface ReexportInput {
  handle: ArchiveHandle;
  query: ArchiveQueryParsed;
  format: ExportFormat;
  /** the file the user chose (Gephi's tables: `x.csv` → `x.nodes.csv` and `x.edges.csv` beside it) */
  target: string;
  context: ExportContext;
  now: number;
  /** what the user exported: "collection 3", "search “heron”", "the whole project" */
  title: string;
  project: { name: string; location: string };
  options?: ExportOptions;
  /** CSV text cells (absent: the format's default) */
  csvCells?: CsvCells;
  /** the project's codes as extra columns, opted-out accounts left out (the coding area's policy) */
  policy?: ItemPolicy | null;
  signal?: AbortSignal;
}

/** The built-in formats: what a re-export's own worker writes (a registry of functions cannot cross threads). */
const BUILT_IN = formatRegistry();

/** A re-export's plan: a lookup of the items by id, with none to ask for (no request is made). */
function reexportPlan(query: ArchiveQueryParsed): ViewPlan {
  const posts = query.kind === 'post';
  const operation = posts ? ('postsByIds' as const) : ('usersByIds' as const);
  return {
    kind: operation,
    operation,
    paged: false,
    itemKind: posts ? 'post' : 'user',
    requestCount: 0,
    request: () => Promise.reject(new RangeError('a re-export makes no request')),
    askedCount: () => null,
    params: {},
    listed: [],
    fromList: null,
    rootId: null,
  };
}

/** The files a built-in format's re-export writes (data first, manifest last). */
export function reexportFiles(input: Pick<ReexportInput, 'format' | 'query' | 'target'>): string[] {
  return BUILT_IN.get(input.format).files(input.target, reexportPlan(input.query));
}

/**
 * Writes a re-export here, reading the archive through `archive`; returns the items written and the files
 * (data first, manifest last).
 */
export async function writeReexport(
  archive: ArchiveReader,
  input: ReexportInput,
  formats: Formats = BUILT_IN,
): Promise<{ items: number; files: string[]; damaged: number }> {
  const format = formats.get(input.format);
  const plan = reexportPlan(input.query);
  const view = { kind: plan.kind, operation: plan.operation, params: {}, title: input.title };
  const files = format.files(input.target, plan);
  // the requests the items were last returned by: listed in the manifest before any row is written (JSON
  // writes its manifest first), each row pointing at its own
  const { listed, drawnOn } = await readDrawnOn(archive, input.handle, input.query);
  // items whose kept JSON no longer reads are not written (a reader would fail on them, or a writer stop): named
  const damaged = await archive.damagedItems(input.handle, input.query, LISTED_DAMAGED);
  const manifest = buildManifest({
    context: input.context,
    now: input.now,
    view,
    plan,
    scope: 'loaded',
    caps: {},
    format,
    pages: [],
    stop: null,
    files,
    options: input.options,
    csvCells: input.csvCells,
    // where the items came from: the project, as it recorded them (no page of this file was fetched now)
    source: {
      kind: 'archive',
      project: input.project,
      query: input.query,
      note: "written from the research project without an API call; each item as last received. Each row's provenance: when the project first and last received the item, and the request that last returned it (an index into `requests`, oldest first)",
      requests: listed,
      ...(damaged.count > 0
        ? {
            left_out_damaged: {
              items: damaged.count,
              ids: damaged.ids,
              note: `the kept JSON of these items no longer reads as an object (damaged in the project), so they are not in this file${damaged.count > damaged.ids.length ? `; the first ${damaged.ids.length} are named` : ''}`,
            },
          }
        : {}),
    },
  });
  if (manifest.row_provenance) manifest.row_provenance.fields = REEXPORT_PROVENANCE;
  const stream = archiveStream(archive, input.handle, input.query, drawnOn);
  const policy = input.policy ?? null;
  const items = await writeWithPolicy(
    format,
    {
      target: files[0] ?? input.target,
      items: stream,
      manifest,
      plan,
      options: input.options,
      csvCells: cellsFor(format, input.options, input.csvCells),
      signal: input.signal,
      // a network's replies to posts outside what is exported: their authors from the same project
      posts: (ids) => archive.heldPosts(input.handle, ids),
    },
    policy,
  );
  // the stream is read once per table: count what it handed out the last time, less what was left out
  const written = stream.count;
  return { items: policy ? Math.max(0, written - items.left()) : written, files, damaged: damaged.count };
}
