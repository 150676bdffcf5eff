/**
 * Collections: every export written (and every fetch-everything run) becomes a named collection of
 * the project that holds its items, in order with their thread depth. core/index.ts wires this to the export
 * area's `onWritten`; what it reads of a written export is declared here.
 */
import { OPERATIONS, type OperationId } from '../../shared/api/catalog';
import type { Handle } from './host';
import type { ArchiveThread } from './thread';

const CHUNK = 1_000;

/** What the archive keeps of a written export: its view, its manifest, and its items in order. */
export interface WrittenExport {
  job: { view: { operation: OperationId; kind: string; title?: string }; scope: 'loaded' | 'all' };
  manifest: { mode: string; exported_at: string };
  items: () => AsyncIterable<{ id: string | null; position: string }>;
  /** a collection an earlier try began: its items are written again from the first (each place once), none begun anew */
  collection?: number;
  /** told the new collection's number as soon as it exists, before any of its items are written */
  begun?: (collection: number) => Promise<void>;
}

/** Keeps a written export's items, in order with their thread depth, as a collection of the project that holds them. */
export async function keepAsCollection(
  thread: ArchiveThread,
  handleFor: (which: 'current' | 'demo') => Promise<Handle>,
  run: WrittenExport,
): Promise<number> {
  const { job, manifest } = run;
  const handle = await handleFor(manifest.mode === 'demo' ? 'demo' : 'current');
  const kind = OPERATIONS[job.view.operation].itemKind;
  const itemKind = kind === 'listFollower' ? 'user' : kind;
  const name = `${job.view.title ?? job.view.kind} · ${manifest.exported_at.slice(0, 16).replace('T', ' ')} UTC`;
  const id =
    run.collection ??
    (await thread.call('createCollection', handle, {
      name,
      kind: job.scope === 'all' ? 'fetch-everything' : 'export',
      manifest,
    }));
  await run.begun?.(id);
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
