/**
 * The archive's side of the thread boundary: open projects by handle, ingest queued and written
 * in batched transactions (every 100 ms, or at 256 answers or 8 MB of text), every read flushing
 * its project's queue first so it sees what was received. The worker (worker.ts) serves its `api`; when
 * no worker can start, main runs the same host on its own thread (thread.ts).
 */
import { SkeinError } from '../../shared/errors';
import type { Stratum } from '../../shared/coding/records';
import type { ArchiveQueryParsed, ActivityBucket } from '../../shared/ipc/archive';
import { CodingStore } from './coding';
import type { IngestRecord } from './ingest';
import { ArchiveProject, type CollectionInput, type RawItem } from './project';
import { ProjectFileError } from './schema';
import type { WatchTables } from './watches';

export type Handle = 'current' | 'demo';

export interface OpenInit {
  path: string;
  name: string;
  kind: 'live' | 'demo';
}

/** The coding store's calls (coding.ts), each with the project's handle first. */
export type CodingCalls = {
  [K in keyof CodingStore]: CodingStore[K] extends (...args: infer A) => infer R
    ? (handle: Handle, ...args: A) => R
    : never;
};

/** The watch tables' calls the archive answers (issue 35), each as `watch_<name>` with the project's handle first. */
const WATCH_METHODS = [
  'createWatch',
  'updateWatch',
  'watches',
  'watch',
  'startRun',
  'progressRun',
  'finishRun',
  'runs',
  'openRuns',
  'spent',
  'stats',
  'gaps',
  'addGap',
  'known',
  'presenceOf',
  'attrition',
  'attritionPage',
  'counters',
  'deltas',
  'postingHistory',
  'accountFacts',
  'largestPage',
  'runner',
  'takeRunner',
  'heartbeat',
  'releaseRunner',
  'lastRunner',
] as const satisfies ReadonlyArray<keyof WatchTables>;
type WatchMethod = (typeof WATCH_METHODS)[number];
export type WatchTablesApi = {
  [K in WatchMethod as `watch_${K}`]: WatchTables[K] extends (...args: infer A) => infer R
    ? (handle: Handle, ...args: A) => R
    : never;
};

/** Every call the archive answers: name → (args) → result. Main calls it, the worker serves it (../workers). */
export interface ArchiveApi extends CodingCalls, WatchTablesApi {
  open: (handle: Handle, init: OpenInit) => ReturnType<ArchiveProject['summary']>;
  close: (handle: Handle) => void;
  summary: (handle: Handle) => ReturnType<ArchiveProject['summary']>;
  rename: (handle: Handle, name: string) => void;
  search: (
    handle: Handle,
    q: ArchiveQueryParsed,
    offset: number,
    limit: number,
  ) => ReturnType<ArchiveProject['search']>;
  activity: (
    handle: Handle,
    q: ArchiveQueryParsed,
    bucket: ActivityBucket,
    utcOffsetMinutes: number,
  ) => ReturnType<ArchiveProject['activity']>;
  provenance: (handle: Handle, kind: string, id: string) => ReturnType<ArchiveProject['provenance']>;
  held: (handle: Handle, key: Parameters<ArchiveProject['held']>[0]) => ReturnType<ArchiveProject['held']>;
  forget: (handle: Handle, key: Parameters<ArchiveProject['forget']>[0]) => void;
  addCollection: (handle: Handle, c: CollectionInput) => number;
  createCollection: (handle: Handle, c: { name: string; kind: string; manifest: unknown }) => number;
  appendCollection: (handle: Handle, id: number, start: number, items: CollectionInput['items']) => number;
  collections: (handle: Handle) => ReturnType<ArchiveProject['collections']>;
  /** a re-export's reader: opened once, read in chunks (never the whole set in one message), closed */
  readOpen: (handle: Handle, q: ArchiveQueryParsed) => number;
  readNext: (reader: number, max: number) => RawItem[];
  readClose: (reader: number) => void;
  /** the requests a query's items were last returned by, oldest first (a re-export's manifest lists them) */
  readRequests: (handle: Handle, q: ArchiveQueryParsed) => ReturnType<ArchiveProject['requestsOf']>;
  /** the reply listings of a post the project holds, one per order (an export's estimate reads them) */
  conversation: (handle: Handle, rootId: string) => ReturnType<ArchiveProject['conversation']>;
  /** which of these ids the project holds (a hydration's "already in the project"), with their raw JSON if asked */
  heldItems: (
    handle: Handle,
    kind: 'post' | 'user',
    ids: string[],
    withRaw: boolean,
  ) => ReturnType<ArchiveProject['heldItems']>;
  /** items as the coding views show them (cards), in the order asked; null where the project holds none */
  codedItems: (
    handle: Handle,
    refs: Array<{ kind: 'post' | 'user'; id: string }>,
  ) => ReturnType<ArchiveProject['codedItems']>;
  /** a sample's source: its ids with their stratum's value, opened once, read in chunks, closed */
  sourceOpen: (handle: Handle, q: ArchiveQueryParsed, stratum: Stratum | null) => number;
  sourceNext: (reader: number, max: number) => Array<{ id: string; stratum: string | null }>;
  sourceClose: (reader: number) => void;
  /** one way (posted, never awaited): an answer queued for the next batch; a batch that fails is reported */
  ingest: (handle: Handle, record: IngestRecord) => void;
  flush: () => void;
}

const BATCH_MS = 100;
const BATCH_SIZE = 256;
/** ...or this much answer text, so a batch stays within the project's page cache (schema.ts) */
const BATCH_TEXT = 8_000_000;

export class ArchiveHost {
  private readonly projects = new Map<Handle, ArchiveProject>();
  private readonly queues = new Map<Handle, IngestRecord[]>();
  /** the text queued per handle (UTF-16 code units) */
  private readonly queuedText = new Map<Handle, number>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly readers = new Map<number, Iterator<RawItem>>();
  private readonly sources = new Map<number, Iterator<{ id: string; stratum: string | null }>>();
  private nextReader = 1;

  /** `report`: a batch that could not be written (nobody waits for an ingest) */
  constructor(
    private readonly report: (error: Error) => void,
    private readonly now: () => number = Date.now,
  ) {}

  private project(handle: Handle): ArchiveProject {
    const p = this.projects.get(handle);
    if (!p) throw new Error(`no ${handle} project is open`);
    this.flushOne(handle);
    return p;
  }

  private flushOne(handle: Handle): void {
    const queue = this.queues.get(handle);
    const p = this.projects.get(handle);
    if (!queue || queue.length === 0 || !p) return;
    this.queues.set(handle, []);
    this.queuedText.set(handle, 0);
    try {
      p.ingest(queue);
    } catch (e) {
      this.report(new Error(`the archive could not record answers: ${e instanceof Error ? e.message : String(e)}`));
    }
  }

  private flushAll(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const handle of this.queues.keys()) this.flushOne(handle);
  }

  /** the coding store's methods, by name, on the project of the handle */
  private codingCalls(): CodingCalls {
    const calls: Record<string, (handle: Handle, ...args: unknown[]) => unknown> = {};
    for (const name of Object.getOwnPropertyNames(CodingStore.prototype)) {
      if (name === 'constructor') continue;
      calls[name] = (handle, ...args) => {
        const store = this.project(handle).coding as unknown as Record<string, (...a: unknown[]) => unknown>;
        return store[name]!.apply(store, args);
      };
    }
    return calls as unknown as CodingCalls;
  }

  readonly api: ArchiveApi = {
    ...this.codingCalls(),
    codedItems: (handle, refs) => this.project(handle).codedItems(refs),
    sourceOpen: (handle, q, stratum) => {
      const id = this.nextReader++;
      this.sources.set(id, this.project(handle).coding.sourceItems(q, stratum));
      return id;
    },
    sourceNext: (reader, max) => {
      const it = this.sources.get(reader);
      const out: Array<{ id: string; stratum: string | null }> = [];
      if (!it) return out;
      while (out.length < max) {
        const next = it.next();
        if (next.done) {
          this.sources.delete(reader);
          break;
        }
        out.push({ id: next.value.id, stratum: next.value.stratum });
      }
      return out;
    },
    sourceClose: (reader) => {
      this.sources.get(reader)?.return?.();
      this.sources.delete(reader);
    },
    ...this.watchCalls(),
    open: (handle, init) => {
      this.flushOne(handle);
      this.projects.get(handle)?.close();
      this.projects.delete(handle);
      const p = openProject(init, this.now);
      this.projects.set(handle, p);
      return p.summary();
    },
    close: (handle) => {
      this.flushOne(handle);
      this.projects.get(handle)?.close();
      this.projects.delete(handle);
    },
    summary: (handle) => this.project(handle).summary(),
    rename: (handle, name) => this.project(handle).rename(name),
    search: (handle, q, offset, limit) => this.project(handle).search(q, offset, limit),
    activity: (handle, q, bucket, tz) => this.project(handle).activity(q, bucket, tz),
    provenance: (handle, kind, id) => this.project(handle).provenance(kind, id),
    held: (handle, key) => this.project(handle).held(key),
    forget: (handle, key) => this.project(handle).forget(key),
    addCollection: (handle, c) => this.project(handle).addCollection(c),
    collections: (handle) => this.project(handle).collections(),
    createCollection: (handle, c) => this.project(handle).createCollection(c),
    appendCollection: (handle, id, start, items) => this.project(handle).appendCollection(id, start, items),
    readOpen: (handle, q) => {
      const id = this.nextReader++;
      this.readers.set(id, this.project(handle).rawItems(q));
      return id;
    },
    readNext: (reader, max) => {
      const it = this.readers.get(reader);
      const out: RawItem[] = [];
      if (!it) return out;
      while (out.length < max) {
        const next = it.next();
        if (next.done) {
          this.readers.delete(reader);
          break;
        }
        out.push(next.value);
      }
      return out;
    },
    readClose: (reader) => {
      this.readers.get(reader)?.return?.();
      this.readers.delete(reader);
    },
    readRequests: (handle, q) => this.project(handle).requestsOf(q),
    conversation: (handle, rootId) => this.project(handle).conversation(rootId),
    heldItems: (handle, kind, ids, withRaw) => this.project(handle).heldItems(kind, ids, withRaw),
    ingest: (handle, record) => {
      if (!this.projects.has(handle)) return;
      const queue = this.queues.get(handle) ?? [];
      queue.push(record);
      this.queues.set(handle, queue);
      const text = (this.queuedText.get(handle) ?? 0) + record.text.length;
      this.queuedText.set(handle, text);
      if (queue.length >= BATCH_SIZE || text >= BATCH_TEXT) this.flushOne(handle);
      else this.timer ??= setTimeout(() => this.flushAll(), BATCH_MS);
    },
    flush: () => this.flushAll(),
  };

  /** `watch_<name>(handle, …args)` for every watch table method: the project's `watches`, after its queue is written */
  private watchCalls(): WatchTablesApi {
    const calls: Record<string, (handle: Handle, ...args: unknown[]) => unknown> = {};
    for (const name of WATCH_METHODS) {
      calls[`watch_${name}`] = (handle, ...args) => {
        const tables = this.project(handle).watches;
        return (tables[name] as (...a: unknown[]) => unknown).apply(tables, args);
      };
    }
    return calls as unknown as WatchTablesApi;
  }

  dispose(): void {
    this.flushAll();
    for (const p of this.projects.values()) p.close();
    this.projects.clear();
  }
}

/** A project file Skein will not open is refused as `write-failed`, its message as it stands, on any thread. */
function openProject(init: OpenInit, now: () => number): ArchiveProject {
  try {
    return new ArchiveProject(init.path, { name: init.name, kind: init.kind, now: now() }, now);
  } catch (e) {
    if (e instanceof ProjectFileError)
      throw new SkeinError('write-failed', e.message, { action: 'Open another project, or create a new one.' });
    throw e;
  }
}
