/**
 * Id imports: the lists of post or user ids a researcher brings to hydrate. The renderer sends the file's
 * text in pieces (it never names a path); main reads it with the one id reader (`id-import.ts`: Skein's
 * `="…"` cells, spreadsheet-damaged ids refused with their line and why), then keeps the list in
 * `<userData>/imports` as two files: `<id>.ids` (one id per line, in the order first seen) and `<id>.json`
 * (what it is, and the reading's report). The ids are written to `<id>.<pid>.ids.part` as they are read (a list of
 * millions is never held), and renamed into place when sealed; both files are whole or absent, so a hydration
 * that names an import finds the same ids after any restart or crash. Main enforces the size limits, whatever
 * the page does.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { SkeinError } from '../../shared/errors';
import { z } from 'zod';
import {
  IdEntity,
  IdImport,
  ImportId,
  MAX_IDS_PER_IMPORT,
  MAX_KEPT_HANDLES,
  MissingId,
  type Hydration,
  type IdSource,
  type ImportReport,
  type UnreadIdList,
} from '../../shared/ipc/ids';
import { syncFolder, toWriteError, writeFileAtomic } from '../files/atomic-file';
import { recordFields, textField, timeField } from '../files/unread-record';
import { IdImporter } from './id-import';
import { IdLines, indexIdFile, type IdList, type MissingList } from './id-list';

/** ids per piece when a kept list is copied into a new one */
const COPY_BATCH = 10_000;

/** export jobs are named by a UUID */
const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const MissingHead = z.object({
  jobId: z.string(),
  importId: z.string(),
  entity: IdEntity,
  label: z.string(),
  count: z.number(),
  /** of `count`: ids that may be spreadsheet-rounded (absent in lists written before it was counted) */
  possiblyRounded: z.number().optional(),
  at: z.number(),
});
type MissingHead = z.infer<typeof MissingHead>;
/** Open (unsealed) imports at once: a page cannot make main hold unbounded lists. */
export const MAX_OPEN_IMPORTS = 4;

interface Open {
  meta: IdImport;
  /** the ids read so far, written as they come to the file `seal` renames into place (never held whole) */
  ids: IdLines;
  importer: IdImporter;
  /** characters read so far */
  chars: number;
}

/** Text per import (a file of a few million lines is far below it). */
const MAX_IMPORT_CHARS = 2 ** 31;

function notFound(importId: string): SkeinError {
  return new SkeinError('not-found', `No id list ${importId}: it was discarded, or never finished.`);
}

function badInput(message: string): SkeinError {
  return new SkeinError('bad-input', message, { fields: [{ field: 'ids', message }] });
}

export interface ImportStoreDeps {
  /** `<userData>/imports` */
  dir: string;
  now: () => number;
}

export class ImportStore {
  private readonly open = new Map<string, Open>();
  /** the batch index of the sealed import read last (a hydration asks for the same list at each step) */
  private cached: { importId: string; list: IdList } | null = null;
  /** whether the ids files of imports left open by an earlier run were removed */
  private swept = false;

  constructor(private readonly deps: ImportStoreDeps) {}

  /** the folder that keeps the lists */
  get folder(): string {
    return this.deps.dir;
  }

  create(entity: IdEntity, label: string, source: IdSource): IdImport {
    if (this.open.size >= MAX_OPEN_IMPORTS) {
      throw new SkeinError('bad-input', 'Too many id lists are being read at once: finish or discard one first.');
    }
    const meta: IdImport = {
      importId: `imp-${randomBytes(8).toString('hex')}`,
      entity,
      label,
      ids: 0,
      sealed: false,
      createdAt: this.deps.now(),
    };
    this.sweepParts();
    const ids = new IdLines(this.path(meta.importId, 'part'));
    const importer = new IdImporter({
      kind: entity,
      source,
      onId: (id) => {
        if (ids.count >= MAX_IDS_PER_IMPORT) {
          throw badInput(`An id list holds at most ${MAX_IDS_PER_IMPORT.toLocaleString('en-US')} ids: split the file.`);
        }
        ids.add(id);
      },
      onWithdraw: (withdrawn) => ids.withdraw(withdrawn),
    });
    this.open.set(meta.importId, { meta, ids, importer, chars: 0 });
    return { ...meta };
  }

  /** Reads the next piece of the file (lines may be cut anywhere). */
  append(importId: string, text: string): IdImport {
    const entry = this.open.get(importId);
    if (!entry) throw notFound(importId);
    entry.chars += text.length;
    try {
      if (entry.chars > MAX_IMPORT_CHARS)
        throw badInput('The file is larger than Skein reads as one id list: split it.');
      entry.importer.push(text);
    } catch (error) {
      // a list that broke a limit is not half kept
      this.forget(importId);
      throw error;
    }
    entry.meta.ids = entry.ids.count;
    return { ...entry.meta };
  }

  /**
   * The text is complete. A list with ids is kept (two atomic files) and can be hydrated; one with none is
   * forgotten, and its report says why every line was refused.
   */
  async seal(importId: string): Promise<IdImport> {
    const entry = this.open.get(importId);
    if (!entry) {
      const kept = await this.meta(importId);
      if (kept) return kept;
      throw notFound(importId);
    }
    this.open.delete(importId);
    let read: ReturnType<IdImporter['end']>;
    try {
      read = entry.importer.end();
    } catch (error) {
      entry.ids.drop();
      throw error;
    }
    const report: ImportReport = {
      lines: read.lines,
      duplicates: read.duplicates,
      blank: read.blank,
      handles: read.handles.length,
      handleList: read.handles.slice(0, MAX_KEPT_HANDLES),
      damaged: read.damaged,
      invalid: read.invalid,
      damagedTotal: read.damagedTotal,
      invalidTotal: read.invalidTotal,
    };
    const lines = entry.ids;
    // a list of @handles only is kept too: its handles are resolved (at a shown cost) into a list of ids
    const keep = lines.count > 0 || report.handleList.length > 0;
    const meta: IdImport = { ...entry.meta, ids: lines.count, sealed: keep, report };
    if (!keep) {
      lines.drop();
      return meta;
    }
    try {
      // the ids are on disk already: flushed, then renamed into place whole
      lines.finish();
      await rename(lines.path, this.path(importId, 'ids'));
      await syncFolder(this.deps.dir);
    } catch (error) {
      lines.drop();
      throw toWriteError(error, this.path(importId, 'ids'));
    }
    await writeFileAtomic(this.path(importId, 'json'), async (sink) => sink.write(JSON.stringify(meta)));
    return meta;
  }

  /** A new list that starts with a kept list's ids (then takes more with `append`): handles resolved into ids. */
  async extend(baseImportId: string, label: string): Promise<IdImport> {
    const base = await this.meta(baseImportId);
    if (!base?.sealed) throw notFound(baseImportId);
    const list = await this.idList(baseImportId, COPY_BATCH);
    const meta = this.create(base.entity, label, { format: 'txt' });
    for (let i = 0; i < list.batches; i++) this.append(meta.importId, `${(await list.batch(i)).join('\n')}\n`);
    return { ...meta, ids: list.count };
  }

  /** Creates and seals an import of ids main already holds (a job's missing ids). */
  async createFrom(entity: IdEntity, label: string, ids: readonly string[]): Promise<IdImport> {
    const meta = this.create(entity, label, { format: 'txt' });
    try {
      for (let i = 0; i < ids.length; i += 10_000)
        this.append(meta.importId, `${ids.slice(i, i + 10_000).join('\n')}\n`);
      return await this.seal(meta.importId);
    } finally {
      this.forget(meta.importId);
    }
  }

  /** The ids of a sealed import, in order, read from disk in batches (never all held at once). */
  async idList(importId: string, batchSize: number): Promise<IdList> {
    const cached = this.cached;
    if (cached?.importId === importId && cached.list.batchSize === batchSize) return cached.list;
    if (!IdImport.shape.importId.safeParse(importId).success) throw notFound(importId);
    let list: IdList;
    try {
      list = await indexIdFile(this.path(importId, 'ids'), batchSize);
    } catch {
      throw notFound(importId);
    }
    this.cached = { importId, list };
    return list;
  }

  async meta(importId: string): Promise<IdImport | null> {
    const open = this.open.get(importId);
    if (open) return { ...open.meta };
    if (!IdImport.shape.importId.safeParse(importId).success) return null;
    try {
      const parsed = IdImport.safeParse(JSON.parse(await readFile(this.path(importId, 'json'), 'utf8')));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  /** Every sealed import, newest first (open ones are in progress in a window). */
  async list(): Promise<IdImport[]> {
    // no folder yet: nothing kept
    const names = await readdir(this.deps.dir).catch((): string[] => []);
    const metas = await Promise.all(
      names.filter((n) => n.endsWith('.json')).map((n) => this.meta(n.slice(0, -'.json'.length))),
    );
    return metas.filter((m): m is IdImport => m !== null).sort((a, b) => b.createdAt - a.createdAt);
  }

  /**
   * The id lists kept here this Skein cannot read (a newer Skein's, after going back to this one, or damaged): their
   * label and when they were read, where readable. Their files are left as they are.
   */
  async unread(): Promise<UnreadIdList[]> {
    // no folder yet: nothing kept
    const names = await readdir(this.deps.dir).catch((): string[] => []);
    const out: UnreadIdList[] = [];
    for (const name of names) {
      const importId = name.slice(0, -'.json'.length);
      if (!name.endsWith('.json') || !ImportId.safeParse(importId).success || this.open.has(importId)) continue;
      let value: unknown;
      try {
        value = JSON.parse(await readFile(this.path(importId, 'json'), 'utf8'));
      } catch {
        value = undefined;
      }
      if (IdImport.safeParse(value).success) continue;
      const record = recordFields(value);
      out.push({ importId, label: textField(record.label, 200), createdAt: timeField(record.createdAt) });
    }
    return out.sort((a, b) => (b.createdAt ?? 0) - (a.createdAt ?? 0));
  }

  async discard(importId: string): Promise<boolean> {
    if (this.forget(importId)) return true;
    if (!(await this.meta(importId))) return false;
    if (this.cached?.importId === importId) this.cached = null;
    await unlink(this.path(importId, 'json')).catch(() => undefined);
    await unlink(this.path(importId, 'ids')).catch(() => undefined);
    return true;
  }

  /** Keeps what a hydration did not get (replacing what an earlier run of the same job kept). */
  async saveMissing(jobId: string, from: IdImport, missing: MissingList): Promise<void> {
    await mkdir(this.deps.dir, { recursive: true });
    const head: MissingHead = {
      jobId,
      importId: from.importId,
      entity: from.entity,
      label: from.label,
      count: missing.count,
      possiblyRounded: missing.possiblyRounded,
      at: this.deps.now(),
    };
    await writeFileAtomic(this.missingPath(jobId), async (sink) => {
      await sink.write(`${JSON.stringify(head)}\n`);
      let chunk = '';
      for await (const m of missing.ids()) {
        chunk += `${JSON.stringify(m)}\n`;
        if (chunk.length >= 1 << 16) {
          await sink.write(chunk);
          chunk = '';
        }
      }
      await sink.write(chunk);
    });
  }

  /** A slice of what a hydration did not get; null when the job kept no such list. */
  async missing(jobId: string, offset: number, limit: number): Promise<{ total: number; ids: MissingId[] } | null> {
    const all = await this.readMissing(jobId);
    return all ? { total: all.ids.length, ids: all.ids.slice(offset, offset + limit) } : null;
  }

  /** The hydrations of an import that have stopped: each job's count of missing ids, newest first. */
  async hydrations(importId: string): Promise<Hydration[]> {
    // no folder yet: nothing kept
    const names = await readdir(this.deps.dir).catch((): string[] => []);
    const out: Hydration[] = [];
    for (const name of names) {
      const m = /^missing-(.+)\.jsonl$/.exec(name);
      if (!m?.[1]) continue;
      const head = await this.readHead(m[1]);
      if (head?.importId === importId)
        out.push({ jobId: head.jobId, missing: head.count, possiblyRounded: head.possiblyRounded ?? 0, at: head.at });
    }
    return out.sort((a, b) => b.at - a.at);
  }

  /** A new sealed import of only the ids a hydration did not get. */
  async retryMissing(jobId: string): Promise<IdImport> {
    const all = await this.readMissing(jobId);
    if (!all) throw new SkeinError('not-found', 'This hydration kept no list of missing ids.');
    if (all.ids.length === 0) throw badInput('Every id came back: there is nothing to retry.');
    return this.createFrom(all.head.entity, `Missing from ${all.head.label}`.slice(0, 200), [
      ...new Set(all.ids.map((m) => m.id)),
    ]);
  }

  private async readMissing(jobId: string): Promise<{ head: MissingHead; ids: MissingId[] } | null> {
    if (!JOB_ID.test(jobId)) return null;
    let text: string;
    try {
      text = await readFile(this.missingPath(jobId), 'utf8');
    } catch {
      return null;
    }
    const [first, ...rest] = text.split('\n').filter(Boolean);
    const head = MissingHead.safeParse(JSON.parse(first ?? 'null'));
    if (!head.success) return null;
    const ids = rest.map((line) => MissingId.parse(JSON.parse(line)));
    return { head: head.data, ids };
  }

  /** The first line of a missing list, read without the rest. */
  private async readHead(jobId: string): Promise<MissingHead | null> {
    if (!JOB_ID.test(jobId)) return null;
    let handle: FileHandle | undefined;
    try {
      handle = await open(this.missingPath(jobId), 'r');
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
      const first = buffer.subarray(0, bytesRead).toString('utf8').split('\n', 1)[0] ?? '';
      const head = MissingHead.safeParse(JSON.parse(first));
      return head.success ? head.data : null;
    } catch {
      return null;
    } finally {
      await handle?.close();
    }
  }

  private missingPath(jobId: string): string {
    return join(this.deps.dir, `missing-${jobId}.jsonl`);
  }

  /** Ends an open import without keeping it: its ids file goes, its table of ids seen is let go. */
  private forget(importId: string): boolean {
    const entry = this.open.get(importId);
    if (!entry) return false;
    this.open.delete(importId);
    entry.ids.drop();
    entry.importer.release();
    return true;
  }

  /** Removes, once, the ids files of imports a killed Skein was reading (never sealed, never to be). */
  private sweepParts(): void {
    if (this.swept) return;
    this.swept = true;
    let names: string[];
    try {
      names = readdirSync(this.deps.dir);
    } catch {
      return; // no folder yet: nothing left
    }
    for (const name of names) {
      // another Skein (the app beside a headless runner) may be reading a list into the same folder: only a
      // part whose reader is gone is left over
      const m = /^(.+)\.(\d+)\.ids\.part$/.exec(name);
      if (m && !this.open.has(m[1]!) && !alive(Number(m[2]))) rmSync(join(this.deps.dir, name), { force: true });
    }
  }

  private path(importId: string, ext: 'ids' | 'json' | 'part'): string {
    if (ext === 'part') return join(this.deps.dir, `${importId}.${process.pid}.ids.part`);
    return join(this.deps.dir, `${importId}.${ext}`);
  }
}

/** Whether a process of this id is running (one of another user's counts: it cannot be signalled). */
function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}
