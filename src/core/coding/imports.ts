/**
 * Files brought into a coding project: the page reads what the person picked and sends it in slices of base64
 * (no path crosses the bridge; the browser shell has no open dialog), main keeps the bytes until the last one,
 * then reads them: a REFI-QDA project (`.qdpx`: codebook, coders, every value and the adjudicated ones) or a
 * codebook (`.qdc`, CSV), into a new codebook or as the next version of one.
 */
import { randomBytes } from 'node:crypto';
import type { CodebookDefinition } from '../../shared/coding/codebook';
import { SkeinError } from '../../shared/errors';
import { MAX_UPLOAD_BYTES, type ImportResult, type UploadKind } from '../../shared/ipc/coding';
import type { RefiReader } from './files/reader';
import { readCodebookCsv } from './files/tables';
import { currentVersion, type CodingService } from './service';

export interface CodingImportDeps {
  service: CodingService;
  now: () => number;
  /** reads a .qdpx or .qdc (in a worker with a memory limit where the shell gives one) */
  read: RefiReader;
}

/** An upload not finished within this long is dropped. */
const UPLOAD_TTL_MS = 15 * 60_000;
const MAX_OPEN_UPLOADS = 4;

interface Upload {
  kind: UploadKind;
  name: string;
  size: number;
  chunks: Buffer[];
  received: number;
  started: number;
}

function refused(message: string): SkeinError {
  return new SkeinError('bad-input', message, {
    fields: [{ field: 'file', message }],
    action: 'Pick the file Skein (or another QDA tool) exported, and try again.',
  });
}

const nameOf = (file: string) =>
  file
    .replace(/\.(qdc|qdpx|csv)$/i, '')
    .slice(0, 120)
    .trim() || 'Imported codebook';

export function createCodingImports(deps: CodingImportDeps) {
  const uploads = new Map<string, Upload>();
  const { store } = deps.service;

  const sweep = () => {
    for (const [id, u] of uploads) if (deps.now() - u.started > UPLOAD_TTL_MS) uploads.delete(id);
  };

  /** A codebook in a new one, or as the next version of `into` (its name kept). */
  async function keepCodebook(definition: CodebookDefinition, name: string, into: number | undefined) {
    if (into === undefined) return deps.service.saveCodebook({ name, definition, note: `imported from ${name}` });
    const existing = await deps.service.codebook(into);
    return deps.service.saveCodebook({
      id: existing.id,
      name: existing.name,
      definition,
      note: `imported from ${name}`,
    });
  }

  return {
    begin(input: { kind: UploadKind; name: string; size: number }): { upload: string } {
      sweep();
      if (uploads.size >= MAX_OPEN_UPLOADS)
        throw refused('Too many files are being read at once: wait for one to finish.');
      const id = `upl-${randomBytes(8).toString('hex')}`;
      uploads.set(id, { ...input, chunks: [], received: 0, started: deps.now() });
      return { upload: id };
    },

    append(input: { upload: string; base64: string }): { received: number } {
      const u = uploads.get(input.upload);
      if (!u) throw refused('This file’s reading was dropped (it took too long): pick it again.');
      const bytes = Buffer.from(input.base64, 'base64');
      if (u.received + bytes.length > Math.min(u.size, MAX_UPLOAD_BYTES)) {
        uploads.delete(input.upload);
        throw refused('The file is larger than it said it was.');
      }
      u.chunks.push(bytes);
      u.received += bytes.length;
      return { received: u.received };
    },

    async finish(input: { upload: string; codebook?: number }): Promise<ImportResult> {
      const u = uploads.get(input.upload);
      uploads.delete(input.upload);
      if (!u) throw refused('This file’s reading was dropped: pick it again.');
      if (u.received !== u.size)
        throw refused(`Only ${u.received} of the file’s ${u.size} bytes arrived: pick it again.`);
      const bytes = Buffer.concat(u.chunks);
      const name = nameOf(u.name);
      try {
        if (u.kind !== 'qdpx') {
          const text = bytes.toString('utf8');
          const read =
            u.kind === 'qdc' ? await deps.read.qdc(text) : { definition: readCodebookCsv(text), warnings: [] };
          const cb = await keepCodebook(read.definition, name, input.codebook);
          return {
            codebook: cb.id,
            codebookName: cb.name,
            version: currentVersion(cb).version,
            coders: 0,
            codings: 0,
            adjudications: 0,
            itemsNotHeld: 0,
            warnings: read.warnings,
          };
        }
        const project = await deps.read.qdpx(new Uint8Array(bytes), deps.now());
        const cb = await keepCodebook(project.definition, project.name || name, input.codebook);
        const { version } = currentVersion(cb);
        // coders by name: the ones the project has, and new ones for the rest
        const coders = new Map<string, number>();
        let created = 0;
        for (const v of project.values) {
          if (!v.coder || coders.has(v.coder.name.toLowerCase())) continue;
          const known = await (await store()).coderByName(v.coder.name);
          if (known) coders.set(v.coder.name.toLowerCase(), known.id);
          else {
            const coding = await store();
            const made = await coding.addCoder(
              v.coder.name,
              v.coder.kind,
              v.coder.kind === 'model' ? { model: '(imported)', temperature: 0, maxTokens: 64, prompts: {} } : null,
            );
            coders.set(v.coder.name.toLowerCase(), made.id);
            created++;
          }
        }
        const codings = project.values
          .filter((v) => v.coder !== null)
          .map((v) => ({
            codebook: cb.id,
            kind: v.kind,
            id: v.id,
            field: v.field,
            coder: coders.get(v.coder!.name.toLowerCase())!,
            value: v.value,
            version,
            codedAt: v.at,
          }));
        const adjudications = project.values
          .filter((v) => v.coder === null)
          .map((v) => ({
            codebook: cb.id,
            kind: v.kind,
            id: v.id,
            field: v.field,
            value: v.value,
            version,
            decidedAt: v.at,
            decidedBy: 'imported',
            note: `from ${u.name}`,
          }));
        await (await store()).setCodings(codings);
        await (await store()).setAdjudications(adjudications);
        const refs = new Map(project.values.map((v) => [`${v.kind}:${v.id}`, v]));
        let notHeld = 0;
        for (const kind of ['post', 'user'] as const) {
          const ids = [...refs.values()].filter((v) => v.kind === kind).map((v) => v.id);
          if (ids.length === 0) continue;
          const held = await (await store()).heldItems(kind, ids, false);
          notHeld += ids.length - held.length;
        }
        return {
          codebook: cb.id,
          codebookName: cb.name,
          version,
          coders: created,
          codings: codings.length,
          adjudications: adjudications.length,
          itemsNotHeld: notHeld,
          warnings: project.warnings,
        };
      } catch (e) {
        if (e instanceof SkeinError) throw e;
        throw refused(`Skein cannot read ${u.name}: ${e instanceof Error ? e.message : String(e)}.`);
      }
    },
  };
}

export type CodingImports = ReturnType<typeof createCodingImports>;
