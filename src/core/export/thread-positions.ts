/**
 * Where each post of a thread sits in the tree: `root_id` (the thread's
 * post), `parent_id` (the post it answers) and `depth` (0 for the root).
 * Depth is null when the parent is not part of the export (yet): an honest
 * "unknown" rather than a guess. Only ids and depths are kept in memory.
 */
import type { ThreadPosition } from '../formats';

function parentOf(raw: unknown): string | null {
  if (raw === null || typeof raw !== 'object') return null;
  const v = (raw as Record<string, unknown>).inReplyToId;
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  return null;
}

export class ThreadPositions {
  private readonly depths = new Map<string, number | null>();

  constructor(readonly rootId: string) {
    this.depths.set(rootId, 0);
  }

  /** Places one item (in the order the API sent them) and remembers it. */
  place(id: string | null, raw: unknown): ThreadPosition {
    if (id === this.rootId) return { root_id: this.rootId, parent_id: null, depth: 0 };
    const parent = parentOf(raw);
    let depth: number | null = null;
    if (parent !== null) {
      const parentDepth = this.depths.get(parent);
      depth = parentDepth === undefined || parentDepth === null ? null : parentDepth + 1;
    }
    if (id !== null) this.depths.set(id, depth);
    return { root_id: this.rootId, parent_id: parent, depth };
  }

  /** Re-learns an item placed in an earlier run (resume). */
  remember(id: string, depth: number | null): void {
    this.depths.set(id, depth);
  }
}
