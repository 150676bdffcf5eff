/**
 * Collections and re-exports (issues 24, 25). Every export written (and every fetch-everything run)
 * becomes a named collection of the project that holds its items; any collection, search result
 * or the whole project is written again — JSON, JSONL, CSV, Parquet, a network (GEXF, Gephi's
 * tables) or ids only — through the export service's own writers, without a call.
 */
import { OPERATIONS } from '../../shared/api/catalog';
import type { ArchiveQueryParsed } from '../../shared/ipc/archive';
import type { ExportFormat, ExportOptions } from '../../shared/ipc/export';
import type { WrittenRun } from './export-service';
import type { JournalItem } from './journal';
import { buildManifest, type ExportContext, type ExportManifest } from './manifest';
import type { ViewPlan } from './views';
import { outputFiles, writeExport } from '../formats/writers';
import { gephiPaths } from '../formats/network/export-network';
import type { Handle } from '../archive/host';
import { reexportInWorker } from './reexport-thread';
import type { ArchiveThread } from '../archive/thread';

const CHUNK = 1_000;

/** Keeps a written export's items, in order with their thread depth, as a collection of the project that holds them. */
export async function keepAsCollection(
  thread: ArchiveThread,
  handleFor: (which: 'current' | 'demo') => Promise<Handle>,
  run: WrittenRun,
): Promise<number> {
  const { job, manifest } = run;
  const handle = await handleFor(manifest.mode === 'demo' ? 'demo' : 'current');
  const kind = OPERATIONS[job.view.operation].itemKind;
  const itemKind = kind === 'listFollower' ? 'user' : kind;
  const name = `${job.view.title ?? job.view.kind} · ${manifest.exported_at.slice(0, 16).replace('T', ' ')} UTC`;
  const id = await thread.call('createCollection', handle, {
    name,
    kind: job.scope === 'all' ? 'fetch-everything' : 'export',
    manifest,
  });
  let chunk: Array<{ kind: string; id: string; depth: number | null; place: string | null }> = [];
  let position = 0;
  const flush = async () => {
    if (chunk.length === 0) return;
    await thread.call('appendCollection', handle, id, position, chunk);
    position += chunk.length;
    chunk = [];
  };
  for await (const item of run.items()) {
    if (item.id === null) continue;
    chunk.push({
      kind: itemKind,
      id: item.id,
      depth: depthOf(item.position),
      place: item.position === 'null' ? null : item.position,
    });
    if (chunk.length >= CHUNK) await flush();
  }
  await flush();
  return id;
}

function depthOf(position: string): number | null {
  try {
    const p = JSON.parse(position) as { depth?: unknown } | null;
    return typeof p?.depth === 'number' ? p.depth : null;
  } catch {
    return null;
  }
}

/** The items of a query, read from the worker in chunks, as the writers' item stream. */
function archiveStream(thread: ArchiveThread, handle: Handle, q: ArchiveQueryParsed) {
  const stream = {
    /** items handed to the writer so far */
    count: 0,
    async *items(): AsyncGenerator<JournalItem> {
      const reader = await thread.call('readOpen', handle, q);
      // the next chunk is read in the worker while this one is written here: the two threads work at once
      type Rows = Array<{ id: string; raw: string; place: string | null }>;
      let next: Promise<Rows> | null = null;
      const readNext = (): Promise<Rows> => {
        const p = thread.call('readNext', reader, CHUNK);
        p.catch(() => undefined); // awaited below; a writer that stops early leaves it unread
        return p;
      };
      try {
        next = readNext();
        for (;;) {
          const rows: Rows = await next;
          next = rows.length < CHUNK ? null : readNext();
          for (const row of rows) {
            stream.count++;
            yield { id: row.id, position: row.place ?? 'null', raw: row.raw };
          }
          if (next === null) return;
        }
      } finally {
        await next?.catch(() => undefined);
        await thread.call('readClose', reader);
      }
    },
  };
  return stream;
}

export interface ReexportInput {
  handle: Handle;
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
  signal?: AbortSignal;
}

/**
 * Writes a re-export; returns the items written and the files (data first, manifest last). No API call is
 * made. Parsing and encoding take seconds of CPU, so when the archive's thread allows it they run in a
 * worker of their own (reexport-thread.ts) and main's loop only waits.
 */
export async function reexport(
  thread: ArchiveThread,
  input: ReexportInput,
): Promise<{ items: number; files: string[] }> {
  return thread.offMain ? reexportInWorker(thread.offMain, input) : writeReexport(thread, input);
}

/** A re-export written on this thread, reading the archive through `thread`. */
export async function writeReexport(
  thread: ArchiveThread,
  input: ReexportInput,
): Promise<{ items: number; files: string[] }> {
  const posts = input.query.kind === 'post';
  const view = {
    kind: posts ? ('postsByIds' as const) : ('usersByIds' as const),
    operation: posts ? ('postsByIds' as const) : ('usersByIds' as const),
    params: {},
    title: input.title,
  };
  const plan: ViewPlan = {
    kind: view.kind,
    operation: view.operation,
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
  const format = input.format;
  const files = outputFiles(input.target, format, plan);
  const base = buildManifest({
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
    ...(input.options ? { options: input.options } : {}),
  });
  // where the items came from: the project, as it recorded them (no page of this file was fetched now)
  const manifest = {
    ...base,
    source: {
      kind: 'archive',
      project: input.project,
      query: input.query,
      note: 'written from the research project without an API call; each item as last received',
    },
  } as ExportManifest;
  const stream = archiveStream(thread, input.handle, input.query);
  const target = format === 'gephi-csv' ? gephiPaths(input.target).nodes : input.target;
  // a network's replies to posts outside what is exported: their authors from the same project
  const heldPosts = (ids: string[]) => thread.call('heldItems', input.handle, 'post', ids, true);
  await writeExport(format, target, stream, manifest, plan, {
    signal: input.signal,
    options: input.options,
    posts: heldPosts,
  });
  return { items: stream.count, files };
}
