/**
 * The archive's side of the thread boundary: open projects by handle, each a store (store.ts: a SQLite file
 * or a team's PostgreSQL schema), ingest queued and written in batched transactions (every 100 ms, or at 256
 * answers or 8 MB of text), one batch at a time per project, every read waiting for its project's queue first
 * so it sees what was received. A batch a team's server could not take (the connection lost) is kept and
 * written again once it answers, a batch at a time; kept answers beyond a window in memory wait in the project's
 * spool alone (spool.ts) and are read back as the ones before them are written. Other areas' tables are parts the
 * project hosts, served by part and method name.
 * The worker (serve.ts) serves its `api`; when no worker can start, main runs the same host on its own thread
 * (thread.ts).
 */
import { appendFileSync, existsSync, rmSync } from 'node:fs';
import { SkeinError } from '../../shared/errors';
import type { AnyPart, SideReader } from '../db';
import type { ArchiveQueryParsed } from '../../shared/ipc/archive';
import type { IngestRecord } from './answer';
import { writeDataset, type DatasetReport } from './dataset';
import { ArchiveProject } from './project';
import type { PgConnection } from '../db';
import { PostgresProject } from './postgres/project';
import { ProjectFileError } from './schema';
import { readItem } from './results';
import { countSpool, readSpool, rewriteSpool, spoolLine, spoolSize } from './spool';
import {
  type DamagedItems,
  type GroupedRow,
  type Grouping,
  type ProjectStore,
  type ProjectSummary,
  type RawRow,
  type Reader,
  type SourceRequest,
  type TableRow,
} from './store';

export type Handle = 'current' | 'demo';

/**
 * A project to open: a SQLite file (the default), or a schema of a team's PostgreSQL database. `spool`: the file
 * where answers the project cannot take now (its server away) are kept until it can, so a quit loses none.
 */
export type OpenInit = (
  | { store?: 'sqlite'; path: string; name: string; kind: 'live' | 'demo'; researcher?: string | null }
  | { store: 'postgres'; connection: PgConnection; name: string; kind: 'live'; researcher?: string | null }
) & { spool?: string };

/** A project copied into another: each table's rows in the source (as of the copy's start) and in the copy. */
export interface CopyReport {
  tables: Array<{ name: string; source: number; copied: number }>;
  tookMs: number;
}

/**
 * The store's methods the archive serves as they are, on the project of a handle (after its queue is written):
 * each call is the handle, then the method's own arguments.
 */
const SERVED = [
  'summary',
  'rename',
  'search',
  'activity',
  'provenance',
  'held',
  'forget',
  'createCollection',
  'appendCollection',
  'collections',
  'collectionWith',
  'saveSearch',
  'refreshSearch',
  'conversation',
  'heldItems',
  'keptItems',
  'groupCounts',
  'lowestRanked',
  'accountOf',
  'meta',
  'setMeta',
] as const satisfies ReadonlyArray<keyof ProjectStore>;

type ServedCalls = {
  [K in (typeof SERVED)[number]]: (
    handle: Handle,
    ...args: Parameters<ProjectStore[K]>
  ) => Promise<Awaited<ReturnType<ProjectStore[K]>>>;
};

/** Every call the archive answers: name → (args) → result. Main calls it, the worker serves it (../workers). */
export interface ArchiveApi extends ServedCalls {
  open: (handle: Handle, init: OpenInit) => Promise<ProjectSummary>;
  close: (handle: Handle) => Promise<void>;
  /** a re-export's reader: opened once, read in chunks (never the whole set in one message), closed */
  readOpen: (handle: Handle, q: ArchiveQueryParsed) => Promise<number>;
  readNext: (reader: number, max: number) => Promise<RawRow[]>;
  readClose: (reader: number) => Promise<void>;
  /** a query's items a re-export leaves out, their kept JSON damaged: how many, the first `listed` ids */
  damagedItems: (handle: Handle, q: ArchiveQueryParsed, listed: number) => Promise<DamagedItems>;
  /** the requests a query's items were last returned by, oldest first (a re-export's manifest lists them): a reader */
  requestsOpen: (handle: Handle, q: ArchiveQueryParsed) => Promise<number>;
  requestsNext: (reader: number, max: number) => Promise<SourceRequest[]>;
  /** items as the views show them (cards), in the order asked; null where the project holds none */
  itemCards: (
    handle: Handle,
    refs: Array<{ kind: 'post' | 'user'; id: string }>,
  ) => Promise<Array<{ kind: 'post' | 'user'; id: string; item: unknown; damaged?: true }>>;
  /** a query's item ids with their group's value: opened once, read in chunks, closed */
  groupedOpen: (handle: Handle, q: ArchiveQueryParsed, by: Grouping | null) => Promise<number>;
  groupedNext: (reader: number, max: number) => Promise<GroupedRow[]>;
  groupedClose: (reader: number) => Promise<void>;
  /** copies a handle's project into another that holds nothing yet; every table's rows counted in both */
  copy: (from: Handle, to: OpenInit) => Promise<CopyReport>;
  /** copies the project as Parquet files into a folder (what a DuckDB script reads) */
  dataset: (handle: Handle, folder: string) => Promise<DatasetReport>;
  /** one way (posted, never awaited): an answer queued for the next batch; a batch that fails is reported */
  ingest: (handle: Handle, record: IngestRecord) => void;
  flush: () => Promise<void>;
  /** a method of one of the parts the project hosts (another area's tables), by name: main's `partProxy` calls it */
  part: (handle: Handle, part: string, method: string, args: unknown[]) => Promise<unknown>;
  /** a part's method that answers with a reader: opened once, read in chunks (never the whole set in one message), closed */
  partOpen: (handle: Handle, part: string, method: string, args: unknown[]) => Promise<number>;
  partNext: (reader: number, max: number) => Promise<unknown[]>;
  partClose: (reader: number) => Promise<void>;
}

const BATCH_MS = 100;
const BATCH_SIZE = 256;
/** ...or this much answer text, so a batch stays within the project's page cache (schema.ts) */
const BATCH_TEXT = 8_000_000;
/**
 * What an outage costs, said with it: the client asks the project for a page it holds before buying it, and a
 * server that does not answer cannot say, so the page is bought (reading goes on; a researcher must know it costs)
 */
const AWAY_COSTS =
  '. Until it answers, pages it holds from before cannot be looked up in it, so opening one buys it from the API again.';

/** answers kept while a team's server cannot be reached, beyond which the oldest are given up (and said so) */
const KEPT_TEXT = 256_000_000;
/**
 * ...of which this much text is held in memory; the rest waits in the project's spool and is read back as the
 * kept answers are written (the archive's worker has a 128 MB heap: a server away for hours, or slower than the
 * answers for hours, must not fill it).
 */
const KEPT_IN_MEMORY = 16_000_000;
const RETRY_MIN_MS = 1_000;
const RETRY_MAX_MS = 30_000;
const COPY_CHUNK = 1_000;

/** "1 answer is", "13 answers are" */
const answers = (n: number) => (n === 1 ? '1 answer is' : `${n} answers are`);

export class ArchiveHost {
  private readonly projects = new Map<Handle, ProjectStore>();
  private readonly queues = new Map<Handle, IngestRecord[]>();
  /** the text queued per handle (UTF-16 code units) */
  private readonly queuedText = new Map<Handle, number>();
  /** each project's batch being written: the next waits for it */
  private readonly writing = new Map<Handle, Promise<void>>();
  /**
   * each project's batch parsed ahead and waiting for the one being written (at most one: answers arriving
   * meanwhile wait as received, so a server slower than the answers holds one parsed batch, not a pile of them)
   */
  private readonly waiting = new Set<Handle>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly retry = new Map<Handle, { delay: number; timer: ReturnType<typeof setTimeout> | null }>();
  /** where each project's kept answers wait on disk (`OpenInit.spool`) */
  private readonly spools = new Map<Handle, string>();
  /** the kept answers each project's spool holds now (absent: it has no spool file) */
  private readonly spooled = new Map<Handle, Set<IngestRecord>>();
  /**
   * Kept answers only on disk: the spool's lines from byte `offset` on, after every answer in memory (answers
   * arriving meanwhile join them there, in order). `verifyTo`: lines before it came from an earlier Skein, which
   * may have written them before it was stopped, so each is checked before it is written again.
   */
  private readonly tails = new Map<Handle, { offset: number; count: number; text: number; verifyTo: number }>();
  /** each project's read of its tail under way (one at a time: two would read the same lines) */
  private readonly refilling = new Map<Handle, Promise<void>>();
  /** the readers open (a re-export's, a query's groups, a part's), by the number their caller reads them by */
  private readonly readers = new Map<number, Reader<unknown>>();
  private nextReader = 1;

  /**
   * `report`: a batch that could not be written (nobody waits for an ingest); `parts`: the other areas' tables
   * every project hosts (the composition registers them); `side`: a reader on another thread that project
   * files' draws give half their items to (the archive's worker starts one; on main's thread there is none).
   */
  constructor(
    private readonly report: (error: Error) => void,
    private readonly parts: readonly AnyPart[] = [],
    private readonly now: () => number = Date.now,
    private readonly side: SideReader | null = null,
  ) {}

  /** A part's method on the project of the handle (after its queue is written), by the part's and method's name. */
  private async partMethod(handle: Handle, part: string, method: string): Promise<(...args: unknown[]) => unknown> {
    const opened = (await this.project(handle)).parts.get(part);
    if (!opened) throw new Error(`the project has no ${part} tables`);
    const f = method in Object.prototype ? undefined : (opened as Record<string, unknown>)[method];
    if (typeof f !== 'function') throw new Error(`the ${part} tables have no method ${method}`);
    return (...args: unknown[]) => (f as (...a: unknown[]) => unknown).apply(opened, args);
  }

  private async project(handle: Handle): Promise<ProjectStore> {
    if (!this.projects.has(handle)) throw new Error(`no ${handle} project is open`);
    await this.flushOne(handle);
    const p = this.projects.get(handle);
    if (!p) throw new Error(`no ${handle} project is open`);
    return p;
  }

  /**
   * Writes what is queued for `handle` after the batch under way, a batch at a time (and what its spool keeps
   * on disk); resolves once written, or kept for later.
   */
  private flushOne(handle: Handle): Promise<void> {
    const all = this.queues.get(handle) ?? [];
    const p = this.projects.get(handle);
    const under = this.writing.get(handle) ?? Promise.resolve();
    if (!p) return under;
    if (all.length === 0) {
      if (!this.tails.has(handle)) return under;
      // the next of the answers kept on disk, read once the batch under way is written
      return under
        .then(() => this.refill(handle))
        .then(() =>
          (this.queues.get(handle)?.length ?? 0) > 0 || this.tails.has(handle) ? this.flushOne(handle) : undefined,
        );
    }
    // written after the waiting batch (a full queue is cut already when that one starts being written)
    if (this.waiting.has(handle)) return under.then(() => this.flushOne(handle));
    // a batch of at most BATCH_SIZE answers or BATCH_TEXT of text (one answer at least): a long queue (kept while
    // the server was away) goes in as many batches, each parsed and held alone
    let cut = 0;
    let text = 0;
    while (cut < all.length && cut < BATCH_SIZE && (cut === 0 || text < BATCH_TEXT)) text += all[cut++]!.text.length;
    const queue = all.slice(0, cut);
    const rest = all.length - cut;
    this.queues.set(handle, all.slice(cut));
    this.queuedText.set(handle, Math.max(0, (this.queuedText.get(handle) ?? 0) - text));
    // parsed now, while the batch before it is written (a team's server works meanwhile)
    let prepared: unknown;
    try {
      prepared = p.prepare?.(queue);
    } catch {
      prepared = undefined; // parsed again, answer by answer, by `ingest`
    }
    this.waiting.add(handle);
    const next = under.then(() => {
      this.waiting.delete(handle);
      const written = this.write(handle, p, queue, prepared);
      // what filled up meanwhile is parsed now, while this one is written
      const more = this.queues.get(handle);
      if (more && (more.length >= BATCH_SIZE || (this.queuedText.get(handle) ?? 0) >= BATCH_TEXT))
        void this.flushOne(handle);
      return written;
    });
    this.writing.set(handle, next);
    void next.then(() => {
      if (this.writing.get(handle) === next) this.writing.delete(handle);
    });
    // the rest of what was queued when this was called (and of the spool), unless the server is away again (its
    // retry writes it); what arrives meanwhile waits for its own batch, as ever
    return next.then(() =>
      !this.retry.get(handle)?.timer && (rest > 0 || this.tails.has(handle)) ? this.flushOne(handle) : undefined,
    );
  }

  /** The next of the answers kept on disk into memory, up to the window; a spool read to its end is let go. */
  private refill(handle: Handle): Promise<void> {
    const under = this.refilling.get(handle);
    if (under) return under;
    const run = (async () => {
      const tail = this.tails.get(handle);
      const spool = this.spools.get(handle);
      const p = this.projects.get(handle);
      const queue = this.queues.get(handle) ?? [];
      if (!tail || !spool || !p || queue.length > 0) return;
      let read: ReturnType<typeof readSpool>;
      try {
        read = readSpool(spool, tail.offset, KEPT_IN_MEMORY);
      } catch (e) {
        this.tails.delete(handle);
        this.report(new Error(`the answers kept on disk for the project could not be read: ${(e as Error).message}`));
        return;
      }
      const checked = tail.offset < tail.verifyTo;
      let records = read.records;
      if (checked) {
        const missing: IngestRecord[] = [];
        for (const r of records) if (!(await p.written(r))) missing.push(r);
        records = missing;
      }
      if (this.tails.get(handle) !== tail || this.projects.get(handle) !== p) return;
      tail.offset = read.offset;
      tail.count = Math.max(0, tail.count - read.lines);
      tail.text = Math.max(0, tail.text - read.records.reduce((n, r) => n + r.text.length, 0));
      // answers that arrived while those were checked were added after them: the end is the file's end now
      if (read.offset >= spoolSize(spool)) this.tails.delete(handle);
      const held = this.spooled.get(handle) ?? new Set<IngestRecord>();
      for (const r of records) held.add(r);
      this.spooled.set(handle, held);
      this.queues.set(handle, [...(this.queues.get(handle) ?? []), ...records]);
      this.queuedText.set(
        handle,
        records.reduce((n, r) => n + r.text.length, this.queuedText.get(handle) ?? 0),
      );
      this.letGoOfSpool(handle);
    })().finally(() => this.refilling.delete(handle));
    this.refilling.set(handle, run);
    return run;
  }

  /** A spool holding nothing left to write (every answer in it written) is removed. */
  private letGoOfSpool(handle: Handle): void {
    if (this.tails.has(handle) || (this.spooled.get(handle)?.size ?? 0) > 0) return;
    const hadSpool = this.spooled.delete(handle);
    const spool = this.spools.get(handle);
    if (spool && (hadSpool || existsSync(spool))) rmSync(spool, { force: true });
  }

  private async write(handle: Handle, p: ProjectStore, batch: IngestRecord[], prepared?: unknown): Promise<void> {
    try {
      await p.ingest(batch, prepared);
      const r = this.retry.get(handle);
      if (r) {
        if (r.timer) clearTimeout(r.timer);
        this.retry.delete(handle);
        this.report(new Error('the project takes answers again: those kept meanwhile are being written'));
      }
      // written, these wait on disk no more; the spool goes once nothing in it is left to write
      const held = this.spooled.get(handle);
      if (held) {
        for (const r of batch) held.delete(r);
        this.letGoOfSpool(handle);
      }
    } catch (e) {
      // a server away, or a role that may not write (rights may be given back): kept, written again, said
      if (this.projects.get(handle) === p && (p.transient(e) || p.readOnly !== null))
        return this.keep(handle, batch, e, p.transient(e));
      this.report(new Error(`the archive could not record answers: ${e instanceof Error ? e.message : String(e)}`));
    }
  }

  /**
   * A batch the server could not take: back at the head of the queue, written again after a growing pause.
   * `away`: the server does not answer (not a role that may not write), so it cannot be asked what it holds either.
   */
  private keep(handle: Handle, batch: IngestRecord[], error: unknown, away: boolean): void {
    const queue = [...batch, ...(this.queues.get(handle) ?? [])];
    let text = queue.reduce((n, r) => n + r.text.length, 0);
    let dropped = 0;
    const tail = this.tails.get(handle);
    const spool = this.spools.get(handle);
    while (text + (tail?.text ?? 0) > KEPT_TEXT && queue.length > 1) {
      text -= queue.shift()?.text.length ?? 0;
      dropped++;
    }
    // still too much: the oldest of those only on disk go too
    if (tail && spool && text + tail.text > KEPT_TEXT) {
      try {
        const skipped = readSpool(spool, tail.offset, text + tail.text - KEPT_TEXT);
        tail.offset = skipped.offset;
        tail.count = Math.max(0, tail.count - skipped.lines);
        tail.text = Math.max(0, tail.text - skipped.records.reduce((n, r) => n + r.text.length, 0));
        dropped += skipped.lines;
      } catch {
        /* unreadable: the rewrite below says so */
      }
    }
    this.queues.set(handle, queue);
    this.queuedText.set(handle, text);
    // each failed retry adds to the spool only what it lacks; what was given up is taken out by a rewrite
    if (dropped > 0) this.spoolAll(handle, queue);
    else this.spoolNew(handle, queue);
    this.spill(handle);
    const r = this.retry.get(handle) ?? { delay: RETRY_MIN_MS / 2, timer: null };
    const first = !this.retry.has(handle);
    r.delay = Math.min(RETRY_MAX_MS, r.delay * 2);
    if (r.timer) clearTimeout(r.timer);
    r.timer = setTimeout(() => {
      r.timer = null;
      void this.flushOne(handle);
    }, r.delay);
    this.retry.set(handle, r);
    const why = error instanceof Error ? error.message : String(error);
    if (first || dropped > 0)
      this.report(
        new Error(
          dropped > 0
            ? `the project still cannot take answers: ${dropped} answers kept longest were given up (${why})`
            : `the project cannot take answers now; ${answers(queue.length + (this.tails.get(handle)?.count ?? 0))} kept and written once it can (${why})${away ? AWAY_COSTS : ''}`,
        ),
      );
  }

  /**
   * The answers kept for a project written to its spool whole: those in memory, then those only on disk (a new
   * file renamed over the old: never torn).
   */
  private spoolAll(handle: Handle, queue: readonly IngestRecord[]): void {
    const spool = this.spools.get(handle);
    if (!spool) return;
    const tail = this.tails.get(handle);
    try {
      const offset = rewriteSpool(spool, queue, tail ? tail.offset : null);
      if (tail) {
        tail.verifyTo = tail.verifyTo > tail.offset ? offset + (tail.verifyTo - tail.offset) : 0;
        tail.offset = offset;
      }
      this.spooled.set(handle, new Set(queue));
    } catch (e) {
      this.spooled.delete(handle);
      this.report(new Error(`the answers kept for the project could not be saved on disk: ${(e as Error).message}`));
    }
  }

  /**
   * Kept answers beyond the memory window, the newest first, left on disk only (the spool holds them, last): read
   * back as the ones before them are written.
   */
  private spill(handle: Handle): void {
    const spool = this.spools.get(handle);
    const held = this.spooled.get(handle);
    const queue = this.queues.get(handle) ?? [];
    let text = this.queuedText.get(handle) ?? 0;
    if (!spool || !held || this.tails.has(handle) || text <= KEPT_IN_MEMORY) return;
    let bytes = 0;
    let count = 0;
    let spilled = 0;
    while (queue.length > 1 && text > KEPT_IN_MEMORY) {
      const r = queue[queue.length - 1]!;
      if (!held.has(r)) break;
      queue.pop();
      held.delete(r);
      bytes += Buffer.byteLength(spoolLine(r));
      count++;
      text -= r.text.length;
      spilled += r.text.length;
    }
    if (count === 0) return;
    this.queuedText.set(handle, text);
    this.tails.set(handle, { offset: spoolSize(spool) - bytes, count, text: spilled, verifyTo: 0 });
  }

  /** The kept answers the spool does not hold yet, appended (a torn last line is left out when read back). */
  private spoolNew(handle: Handle, queue: readonly IngestRecord[]): void {
    const spool = this.spools.get(handle);
    const held = this.spooled.get(handle);
    if (!spool) return;
    if (!held) return this.spoolAll(handle, queue);
    const fresh = queue.filter((r) => !held.has(r));
    if (fresh.length === 0) return;
    // appended only where that keeps the file in the queue's order (then the answers only on disk)
    const last = queue.slice(queue.length - fresh.length);
    if (this.tails.has(handle) || fresh.some((r, i) => last[i] !== r)) return this.spoolAll(handle, queue);
    try {
      appendFileSync(spool, fresh.map(spoolLine).join(''));
      for (const r of fresh) held.add(r);
    } catch {
      // appended in part, perhaps: the next save writes the spool whole
      this.spoolAll(handle, queue);
    }
  }

  /**
   * A spool an earlier Skein left (it quit while the project could not take its answers): what it holds that the
   * project does not, written now, read a window at a time. A line torn by a kill is left out.
   */
  private async replaySpool(handle: Handle): Promise<void> {
    const spool = this.spools.get(handle);
    if (!spool || !existsSync(spool)) return;
    const { lines, bytes } = countSpool(spool);
    this.tails.set(handle, { offset: 0, count: lines, text: bytes, verifyTo: bytes });
    await this.refill(handle);
    const waiting = (this.queues.get(handle)?.length ?? 0) + (this.tails.get(handle)?.count ?? 0);
    if (waiting === 0) return;
    this.report(new Error(`${waiting} answers kept on disk while the project could not take them are written now`));
    await this.flushOne(handle);
  }

  private flushAll(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    return Promise.all([...this.projects.keys()].map((handle) => this.flushOne(handle))).then(() => undefined);
  }

  private async closeHandle(handle: Handle): Promise<void> {
    await this.flushOne(handle);
    const r = this.retry.get(handle);
    if (r?.timer) clearTimeout(r.timer);
    this.retry.delete(handle);
    await this.refilling.get(handle);
    const left = this.queues.get(handle) ?? [];
    const spool = this.spools.get(handle);
    const unwritten = left.length + (this.tails.get(handle)?.count ?? 0);
    if (unwritten > 0 && spool) {
      this.spoolNew(handle, left);
      this.report(
        new Error(
          `${unwritten} answers could not be written before the project closed: they are kept on this computer and written when it opens again`,
        ),
      );
    } else if (unwritten > 0)
      this.report(new Error(`${unwritten} answers could not be written before the project closed`));
    this.tails.delete(handle);
    this.spools.delete(handle);
    this.spooled.delete(handle);
    this.queues.delete(handle);
    this.queuedText.delete(handle);
    const p = this.projects.get(handle);
    this.projects.delete(handle);
    await p?.close();
  }

  private openReader(reader: Reader<unknown>): number {
    const id = this.nextReader++;
    this.readers.set(id, reader);
    return id;
  }

  /** A reader's next rows; read to its end, it is closed. */
  private async readNext<T>(id: number, max: number): Promise<T[]> {
    const reader = this.readers.get(id);
    if (!reader) return [];
    const rows = await reader.next(max);
    if (rows.length < max) {
      this.readers.delete(id);
      await reader.close();
    }
    return rows as T[];
  }

  private async closeReader(id: number): Promise<void> {
    const reader = this.readers.get(id);
    this.readers.delete(id);
    await reader?.close();
  }

  readonly api: ArchiveApi = {
    ...served((handle) => this.project(handle)),
    part: async (handle, part, method, args) => (await this.partMethod(handle, part, method))(...args),
    partOpen: async (handle, part, method, args) => {
      const reader = (await (await this.partMethod(handle, part, method))(...args)) as Reader<unknown>;
      if (typeof reader?.next !== 'function' || typeof reader.close !== 'function')
        throw new Error(`the ${part} tables' ${method} is not a reader`);
      return this.openReader(reader);
    },
    partNext: (id, max) => this.readNext(id, max),
    partClose: (id) => this.closeReader(id),
    itemCards: async (handle, refs) => {
      const p = await this.project(handle);
      const raw = new Map<string, string>();
      const damaged = new Set<string>();
      for (const kind of ['post', 'user'] as const) {
        const ids = refs.filter((r) => r.kind === kind).map((r) => r.id);
        if (ids.length === 0) continue;
        const kept = await p.keptItems(kind, ids, true);
        for (const held of kept.held) raw.set(`${kind}:${held.id}`, held.raw);
        for (const id of kept.damaged) damaged.add(`${kind}:${id}`);
      }
      return refs.map((r) => {
        const key = `${r.kind}:${r.id}`;
        const text = raw.get(key);
        const card = { kind: r.kind, id: r.id, item: null, ...(damaged.has(key) ? { damaged: true as const } : {}) };
        try {
          return text === undefined ? card : { ...card, item: readItem(r.kind, text) };
        } catch {
          // an item whose kept JSON no longer reads as an item is as damaged as one that no longer parses
          return { ...card, damaged: true as const };
        }
      });
    },
    groupedOpen: async (handle, q, by) => this.openReader(await (await this.project(handle)).grouped(q, by)),
    groupedNext: (id, max) => this.readNext(id, max),
    groupedClose: (id) => this.closeReader(id),
    open: async (handle, init) => {
      await this.closeHandle(handle);
      const p = await openStore(init, this.now, this.parts, this.report, this.side);
      this.projects.set(handle, p);
      if (init.spool) this.spools.set(handle, init.spool);
      await this.replaySpool(handle);
      return p.summary();
    },
    close: (handle) => this.closeHandle(handle),
    readOpen: async (handle, q) => this.openReader(await (await this.project(handle)).reader(q)),
    readNext: (id, max) => this.readNext(id, max),
    readClose: (id) => this.closeReader(id),
    requestsOpen: async (handle, q) => this.openReader(await (await this.project(handle)).requests(q)),
    damagedItems: async (handle, q, listed) => (await this.project(handle)).damaged(q, listed),
    requestsNext: (id, max) => this.readNext(id, max),
    copy: async (from, to) =>
      copyProject(await this.project(from), await openStore(to, this.now, this.parts, this.report, this.side)),
    dataset: async (handle, folder) => writeDataset(await this.project(handle), folder),
    ingest: (handle, record) => {
      if (!this.projects.has(handle)) return;
      const tail = this.tails.get(handle);
      const spool = this.spools.get(handle);
      if (tail && spool) {
        // answers wait on disk only: this one joins them there, in order
        try {
          appendFileSync(spool, spoolLine(record));
          tail.count++;
          tail.text += record.text.length;
          if (!this.retry.get(handle)?.timer) this.timer ??= setTimeout(() => void this.flushAll(), BATCH_MS);
          return;
        } catch {
          /* kept in memory, and the spool written whole with it below */
        }
      }
      const queue = this.queues.get(handle) ?? [];
      queue.push(record);
      this.queues.set(handle, queue);
      const text = (this.queuedText.get(handle) ?? 0) + record.text.length;
      this.queuedText.set(handle, text);
      if (this.retry.get(handle)?.timer || tail) {
        // the server is away: the retry writes it all; meanwhile it waits on disk too, so a quit loses none
        this.spoolNew(handle, queue);
        this.spill(handle);
        return;
      }
      // a server slower than the answers (far away, busy, or behind a collection at the sandbox's pace) gets no
      // say in how fast they come, since nobody waits for an ingest: past the memory window they wait on disk,
      // as for a server away, and are read back as the ones before them are written
      if (text > KEPT_IN_MEMORY && spool) {
        this.spoolNew(handle, queue);
        this.spill(handle);
      }
      // a full queue behind a waiting batch is cut when that one starts being written
      if (queue.length >= BATCH_SIZE || (this.queuedText.get(handle) ?? 0) >= BATCH_TEXT) {
        if (!this.waiting.has(handle)) void this.flushOne(handle);
      } else this.timer ??= setTimeout(() => void this.flushAll(), BATCH_MS);
    },
    flush: () => this.flushAll(),
  };

  async dispose(): Promise<void> {
    for (const reader of this.readers.values()) await Promise.resolve(reader.close()).catch(() => undefined);
    this.readers.clear();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const handle of [...this.projects.keys()]) await this.closeHandle(handle);
    await this.side?.close();
  }
}

/** The calls of `SERVED`, each the method of the project of its handle. */
function served(project: (handle: Handle) => Promise<ProjectStore>): ServedCalls {
  const call =
    (method: (typeof SERVED)[number]) =>
    async (handle: Handle, ...args: unknown[]) => {
      const p = await project(handle);
      return (p[method] as (...a: unknown[]) => unknown).apply(p, args);
    };
  return Object.fromEntries(SERVED.map((method) => [method, call(method)])) as unknown as ServedCalls;
}

/**
 * Opens a project's store; a project Skein will not open is refused as `write-failed`, in plain words, on any thread.
 * `report`: what goes wrong in the store's own upkeep, when no call waits for it.
 */
async function openStore(
  init: OpenInit,
  now: () => number,
  parts: readonly AnyPart[],
  report: (error: Error) => void,
  side: SideReader | null,
): Promise<ProjectStore> {
  const made = { name: init.name, kind: init.kind, now: now(), researcher: init.researcher ?? null };
  try {
    if (init.store === 'postgres') return await PostgresProject.open(init.connection, made, now, parts, report);
    return await ArchiveProject.open(init.path, made, now, parts, side);
  } catch (e) {
    if (e instanceof ProjectFileError)
      throw new SkeinError('write-failed', e.message, { action: 'Open another project, or create a new one.' });
    throw e;
  }
}

/**
 * Copies every table of `source` (one snapshot of it) into `target`, which must hold nothing yet, in one
 * transaction: the copy is kept only when every table holds as many rows as the source did.
 */
async function copyProject(source: ProjectStore, target: ProjectStore): Promise<CopyReport> {
  const started = performance.now();
  let snapshot: Awaited<ReturnType<ProjectStore['snapshot']>> | null = null;
  let loader: Awaited<ReturnType<ProjectStore['loader']>> | null = null;
  try {
    snapshot = await source.snapshot();
    loader = await target.loader();
    const tables: CopyReport['tables'] = [];
    for (const table of source.tables) {
      const expected = await snapshot.count(table.name);
      let after: TableRow | null = null;
      for (;;) {
        const rows: TableRow[] = await snapshot.rows(table, after, COPY_CHUNK);
        if (rows.length === 0) break;
        await loader.add(table, rows);
        after = rows[rows.length - 1] ?? null;
        if (rows.length < COPY_CHUNK) break;
      }
      tables.push({ name: table.name, source: expected, copied: await loader.count(table.name) });
    }
    const wrong = tables.filter((t) => t.source !== t.copied);
    if (wrong.length > 0)
      throw new SkeinError(
        'write-failed',
        `The copy did not match its source (${wrong.map((t) => `${t.name}: ${t.copied} of ${t.source}`).join(', ')}); nothing was kept.`,
        { action: 'Try again; if it persists, keep working in the source project.' },
      );
    await loader.commit();
    loader = null;
    return { tables, tookMs: Math.round(performance.now() - started) };
  } finally {
    await Promise.resolve(loader?.rollback()).catch(() => undefined);
    await Promise.resolve(snapshot?.close()).catch(() => undefined);
    await target.close();
  }
}
