/**
 * Replies v2 arrive as pages of posts that carry `inReplyToId`. This module
 * rebuilds the conversation tree under the focal post and flattens it into
 * the rows a virtualized list shows: indented by depth, with collapsed
 * subtrees hidden and a placeholder where a reply's parent is not loaded.
 */
import { parseApiDate } from './time';

export interface ThreadPost {
  id: string;
  inReplyToId: string | null;
  createdAt: string;
}

export type ThreadRow<P extends ThreadPost> =
  | { kind: 'post'; key: string; post: P; depth: number; descendants: number; collapsed: boolean; isFocal: boolean }
  | { kind: 'missing'; key: string; parentId: string; depth: number; descendants: number; collapsed: boolean };

interface Node<P> {
  id: string;
  post: P | null;
  parent: Node<P> | null;
  children: Node<P>[];
  /** replies below this node, all depths */
  descendants: number;
}

export interface ThreadTree<P extends ThreadPost> {
  focal: P | null;
  /** top-level nodes: replies to the focal post, then placeholders for parents not loaded */
  roots: Node<P>[];
  size: number;
}

const noParent = (v: string | null | undefined) => v === null || v === undefined || v === '';

/** Build the tree in linear time; posts keep the order they arrived in among their siblings. */
export function buildThreadTree<P extends ThreadPost>(focalId: string, posts: readonly P[]): ThreadTree<P> {
  const nodes = new Map<string, Node<P>>();
  let focal: P | null = null;
  for (const p of posts) {
    if (p.id === focalId) {
      focal ??= p;
      continue;
    }
    if (!nodes.has(p.id)) nodes.set(p.id, { id: p.id, post: p, parent: null, children: [], descendants: 0 });
  }
  const roots: Node<P>[] = [];
  const missing = new Map<string, Node<P>>();
  for (const node of nodes.values()) {
    const parentId = node.post!.inReplyToId;
    if (noParent(parentId) || parentId === focalId) {
      roots.push(node);
      continue;
    }
    let parent = nodes.get(parentId!);
    if (!parent) {
      parent = missing.get(parentId!);
      if (!parent) {
        parent = { id: parentId!, post: null, parent: null, children: [], descendants: 0 };
        missing.set(parentId!, parent);
      }
    }
    node.parent = parent;
    parent.children.push(node);
  }
  const all = [...roots, ...missing.values()];
  // Malformed data can link replies in a cycle, unreachable from any root: cut each cycle open.
  const visited = new Set<Node<P>>();
  const mark = (from: Node<P>) => {
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
  const order: Node<P>[] = [];
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

/**
 * Rows of the threaded view, depth first. The focal post comes first when the
 * API returned it. Subtrees whose key is in `collapsed` show their head only.
 */
export function threadRows<P extends ThreadPost>(tree: ThreadTree<P>, collapsed: ReadonlySet<string>): ThreadRow<P>[] {
  const rows: ThreadRow<P>[] = [];
  if (tree.focal) {
    rows.push({ kind: 'post', key: tree.focal.id, post: tree.focal, depth: 0, descendants: tree.size, collapsed: false, isFocal: true });
  }
  const stack: Array<[Node<P>, number]> = tree.roots.map((n) => [n, 0] as [Node<P>, number]).reverse();
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    const key = node.post ? node.id : `missing:${node.id}`;
    const isCollapsed = collapsed.has(key);
    const { descendants } = node;
    if (node.post) rows.push({ kind: 'post', key, post: node.post, depth, descendants, collapsed: isCollapsed, isFocal: false });
    else rows.push({ kind: 'missing', key, parentId: node.id, depth, descendants, collapsed: isCollapsed });
    if (!isCollapsed) for (let i = node.children.length - 1; i >= 0; i--) stack.push([node.children[i]!, depth + 1]);
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

/** Keep the first occurrence of each id (pages can repeat items). */
export function uniqueById<T extends { id: string }>(items: readonly T[]): { items: T[]; removed: number } {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const it of items) {
    if (seen.has(it.id)) continue;
    seen.add(it.id);
    out.push(it);
  }
  return { items: out, removed: items.length - out.length };
}
