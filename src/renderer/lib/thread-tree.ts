/**
 * Replies v2 arrive as pages of posts that carry `inReplyToId`. This module
 * rebuilds the conversation tree under the focal post and flattens it into
 * the rows a virtualized list shows: indented by depth, with collapsed
 * subtrees hidden and a placeholder where a reply's parent is not loaded.
 */
import { parseApiDate } from '../../shared/api/dates';

export interface ThreadPost {
  id: string;
  inReplyToId: string | null;
  createdAt: string;
}

export type ThreadRow<P extends ThreadPost> =
  | { kind: 'post'; key: string; post: P; depth: number; descendants: number; collapsed: boolean; isFocal: boolean }
  | { kind: 'missing'; key: string; parentId: string; depth: number; descendants: number; collapsed: boolean };

export interface ThreadNode<P extends ThreadPost> {
  id: string;
  post: P | null;
  parent: ThreadNode<P> | null;
  children: ThreadNode<P>[];
  /** replies below this node, all depths */
  descendants: number;
  /** the row `threadRows` last made for this node, given again while it shows the same */
  row: ThreadRow<P> | undefined;
}

export interface ThreadTree<P extends ThreadPost> {
  focal: P | null;
  /** top-level nodes: replies to the focal post, then placeholders for parents not loaded */
  roots: ThreadNode<P>[];
  size: number;
}

const noParent = (v: string | null | undefined) => v === null || v === undefined || v === '';

/** Build the tree in linear time; posts keep the order they arrived in among their siblings. */
export function buildThreadTree<P extends ThreadPost>(focalId: string, posts: readonly P[]): ThreadTree<P> {
  const nodes = new Map<string, ThreadNode<P>>();
  let focal: P | null = null;
  for (const p of posts) {
    if (p.id === focalId) {
      focal ??= p;
      continue;
    }
    if (!nodes.has(p.id))
      nodes.set(p.id, { id: p.id, post: p, parent: null, children: [], descendants: 0, row: undefined });
  }
  const roots: ThreadNode<P>[] = [];
  const missing = new Map<string, ThreadNode<P>>();
  for (const node of nodes.values()) {
    const parentId = node.post!.inReplyToId;
    if (noParent(parentId) || parentId === focalId) {
      roots.push(node);
      continue;
    }
    let parent = nodes.get(parentId);
    if (!parent) {
      parent = missing.get(parentId);
      if (!parent) {
        parent = { id: parentId, post: null, parent: null, children: [], descendants: 0, row: undefined };
        missing.set(parentId, parent);
      }
    }
    node.parent = parent;
    parent.children.push(node);
  }
  const all = [...roots, ...missing.values()];
  // Malformed data can link replies in a cycle, unreachable from any root: cut each cycle open.
  const visited = new Set<ThreadNode<P>>();
  const mark = (from: ThreadNode<P>) => {
    const stack = [from];
    while (stack.length) {
      const n = stack.pop()!;
      visited.add(n);
      for (const c of n.children) if (!visited.has(c)) stack.push(c);
    }
  };
  all.forEach(mark);
  for (const node of nodes.values()) {
    if (visited.has(node)) continue;
    if (node.parent) node.parent.children = node.parent.children.filter((c) => c !== node);
    node.parent = null;
    all.push(node);
    mark(node);
  }
  // descendant counts, children before parents
  const order: ThreadNode<P>[] = [];
  const stack = [...all];
  while (stack.length) {
    const n = stack.pop()!;
    order.push(n);
    stack.push(...n.children);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const n = order[i]!;
    if (n.parent) n.parent.descendants += n.descendants + 1;
  }
  return { focal, roots: all, size: nodes.size };
}

/** A node's row key, what `collapsed` holds: the post's id, or `missing:` and the id of a post not loaded. */
export function rowKey(node: Pick<ThreadNode<ThreadPost>, 'id' | 'post'>): string {
  return node.post ? node.id : `missing:${node.id}`;
}

/** The focal post's row (first, above the tree), the same object as `last` while it shows the same. */
export function focalRow<P extends ThreadPost>(tree: ThreadTree<P>, last?: ThreadRow<P>): ThreadRow<P> | null {
  const focal = tree.focal;
  if (!focal) return null;
  if (last?.kind === 'post' && last.isFocal && last.post === focal && last.descendants === tree.size) return last;
  return {
    kind: 'post',
    key: focal.id,
    post: focal,
    depth: 0,
    descendants: tree.size,
    collapsed: false,
    isFocal: true,
  };
}

/** The row a node shows at `depth`: the one it showed last time when nothing it shows changed. */
export function rowOf<P extends ThreadPost>(
  node: ThreadNode<P>,
  depth: number,
  collapsed: ReadonlySet<string>,
): ThreadRow<P> {
  const last = node.row;
  // a placeholder whose post arrived is the same node, keyed by the post now
  const key = node.post ? node.id : last?.kind === 'missing' ? last.key : rowKey(node);
  const isCollapsed = collapsed.size > 0 && collapsed.has(key);
  const { descendants } = node;
  if (
    last &&
    last.depth === depth &&
    last.key === key &&
    last.descendants === descendants &&
    last.collapsed === isCollapsed &&
    (last.kind !== 'post' || last.post === node.post)
  )
    return last;
  const row: ThreadRow<P> = node.post
    ? { kind: 'post', key, post: node.post, depth, descendants, collapsed: isCollapsed, isFocal: false }
    : { kind: 'missing', key, parentId: node.id, depth, descendants, collapsed: isCollapsed };
  node.row = row;
  return row;
}

/**
 * Rows of the threaded view, depth first. The focal post comes first when the
 * API returned it. Subtrees whose key is in `collapsed` show their head only.
 *
 * A row is the same object as last time while its node shows the same (post,
 * depth, replies below, collapsed): a page of 20 replies changes a handful of
 * rows, and a walk over a thread paged through to 100,000 replies allocates
 * those, not 100,000 (memoized rows then skip rendering by identity too).
 */
export function threadRows<P extends ThreadPost>(tree: ThreadTree<P>, collapsed: ReadonlySet<string>): ThreadRow<P>[] {
  const rows: ThreadRow<P>[] = [];
  const focal = focalRow(tree);
  if (focal) rows.push(focal);
  // two stacks instead of one of [node, depth] pairs: no allocation per row
  const nodes: ThreadNode<P>[] = [];
  const depths: number[] = [];
  for (let i = tree.roots.length - 1; i >= 0; i--) {
    nodes.push(tree.roots[i]!);
    depths.push(0);
  }
  while (nodes.length) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    const row = rowOf(node, depth, collapsed);
    rows.push(row);
    if (!row.collapsed) {
      const { children } = node;
      for (let i = children.length - 1; i >= 0; i--) {
        nodes.push(children[i]!);
        depths.push(depth + 1);
      }
    }
  }
  return rows;
}

/** Flat chronological mode: oldest first, ties broken by id (ids grow with time). */
export function chronological<P extends ThreadPost>(posts: readonly P[]): P[] {
  const keyed = posts.map((p) => ({ p, t: parseApiDate(p.createdAt) ?? Number.POSITIVE_INFINITY }));
  keyed.sort((a, b) => a.t - b.t || compareIds(a.p.id, b.p.id));
  return keyed.map((k) => k.p);
}

/** Numeric-string id comparison without losing precision. */
export function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
