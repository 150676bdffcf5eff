/**
 * `buildThreadTree`, one post at a time: the same tree (same nodes, children
 * in arrival order, placeholders for parents not loaded, descendant counts)
 * for the same posts, but each post costs its depth instead of a rebuild of
 * the whole thread. A thread paged through to 100,000 replies rebuilt its
 * tree from scratch on every page (~150 ms at the end); this adds 20 replies.
 *
 * `rows` flattens it as `threadRows` does, but walks only what changed since
 * the rows it gave last: a subtree no reply was added to since is copied from
 * the last rows as one run (its rows, their order and depths are the same),
 * so a page costs the branches it touched and a copy, not a walk of every
 * reply loaded (~30 ms a page at 100,000 replies).
 */
import { focalRow, rowOf, type ThreadNode, type ThreadPost, type ThreadRow, type ThreadTree } from './thread-tree';

interface Node<P extends ThreadPost> extends ThreadNode<P> {
  parent: Node<P> | null;
  children: Node<P>[];
  /** the `rows` build this node or a node below it last changed in (or later: not built yet) */
  touched: number;
  /** as of the last rows: index of its row less its parent's (top level: less the row before the first) */
  at: number;
  /** as of the last rows: how many rows it and its shown subtree took; 0 when never listed */
  shown: number;
  /** as of the last rows: its depth */
  depth: number;
}

/** one level of the walk: the children of `node` (the top level when null) being listed */
interface Level<P extends ThreadPost> {
  node: Node<P> | null;
  children: readonly Node<P>[];
  next: number;
  depth: number;
  /** index of the parent's row, in the last rows (null: not listed there, open) and in the new ones */
  was: number | null;
  now: number;
  /** a run of the last rows waiting to be copied: [from, to) */
  from: number;
  to: number;
}

const noParent = (v: string | null | undefined) => v === null || v === undefined || v === '';

export class IncrementalThreadTree<P extends ThreadPost> {
  private focal: P | null = null;
  private readonly nodes = new Map<string, Node<P>>();
  /** placeholders for parents not loaded (yet), in creation order */
  private readonly missing = new Map<string, Node<P>>();
  private readonly roots: Node<P>[] = [];
  /** nodes a malformed cycle would have linked: shown at the top level, last */
  private readonly cut: Node<P>[] = [];
  private size = 0;
  private snapshot: ThreadTree<P> | null = null;
  /** the rows build to come: nodes changed since the last one carry it */
  private build = 1;
  private last: { tree: ThreadTree<P>; collapsed: ReadonlySet<string>; rows: ThreadRow<P>[]; base: number } | null =
    null;

  constructor(private readonly focalId: string) {}

  add(post: P): void {
    if (post.id === this.focalId) {
      this.focal ??= post;
      return;
    }
    if (this.nodes.has(post.id)) return;
    this.snapshot = null;
    this.size++;
    // a parent some replies were waiting for: the placeholder becomes the post
    let node = this.missing.get(post.id);
    if (node) {
      this.missing.delete(post.id);
      node.post = post;
      // it moves under its parent: where it was listed says nothing of where it goes (walked afresh)
      node.shown = 0;
    } else node = this.node(post.id, post);
    node.touched = this.build;
    this.nodes.set(post.id, node);

    const parentId = post.inReplyToId;
    if (noParent(parentId) || parentId === this.focalId) {
      this.roots.push(node);
      return;
    }
    let parent = this.nodes.get(parentId) ?? this.missing.get(parentId);
    if (!parent) {
      parent = this.node(parentId, null);
      this.missing.set(parentId, parent);
    }
    for (let a: Node<P> | null = parent; a; a = a.parent) {
      if (a === node) {
        this.cut.push(node);
        return;
      }
    }
    node.parent = parent;
    parent.children.push(node);
    for (let a: Node<P> | null = parent; a; a = a.parent) {
      a.descendants += node.descendants + 1;
      a.touched = this.build;
    }
  }

  private node(id: string, post: P | null): Node<P> {
    return {
      id,
      post,
      parent: null,
      children: [],
      descendants: 0,
      row: undefined,
      touched: this.build,
      at: 0,
      shown: 0,
      depth: -1,
    };
  }

  /** The tree as `buildThreadTree` gives it; the same object until a post is added. */
  tree(): ThreadTree<P> {
    this.snapshot ??= {
      focal: this.focal,
      roots: [...this.roots, ...this.missing.values(), ...this.cut],
      size: this.size,
    };
    if (this.snapshot.focal !== this.focal) this.snapshot = { ...this.snapshot, focal: this.focal };
    return this.snapshot;
  }

  /**
   * `threadRows(this.tree(), collapsed)`: the same rows (the same objects for
   * rows that show the same), from the last rows and what changed since.
   * Collapsing or expanding walks everything once.
   */
  rows(collapsed: ReadonlySet<string>): ThreadRow<P>[] {
    const tree = this.tree();
    const last = this.last;
    if (last && last.tree === tree && last.collapsed === collapsed) return last.rows;
    const full = !last || last.collapsed !== collapsed;
    const before = last?.rows ?? [];
    const build = this.build++;
    const out: ThreadRow<P>[] = [];
    const focal = focalRow(tree, last?.base === 1 ? before[0] : undefined);
    if (focal) out.push(focal);
    const base = out.length;
    const copy = (l: Level<P>) => {
      for (let i = l.from; i < l.to; i++) out.push(before[i]!);
      l.from = l.to = 0;
    };
    const levels: Level<P>[] = [
      {
        node: null,
        children: tree.roots as Node<P>[],
        next: 0,
        depth: 0,
        was: last ? last.base - 1 : null,
        now: base - 1,
        from: 0,
        to: 0,
      },
    ];
    while (levels.length) {
      const l = levels[levels.length - 1]!;
      if (l.next === l.children.length) {
        copy(l);
        levels.pop();
        if (l.node) l.node.shown = out.length - l.now;
        continue;
      }
      const child = l.children[l.next++]!;
      const wasAt = !full && l.was !== null && child.shown > 0 ? l.was + child.at : null;
      if (wasAt !== null && child.touched < build && child.depth === l.depth) {
        // unchanged below: its rows are the last ones, copied in runs
        if (l.to !== wasAt || l.from === l.to) {
          copy(l);
          l.from = l.to = wasAt;
        }
        child.at = out.length + (l.to - l.from) - l.now;
        l.to += child.shown;
        continue;
      }
      copy(l);
      const now = out.length;
      // its children were listed last time only if it was, open (a placeholder's key changes with its post)
      const open = wasAt !== null && child.row?.collapsed === false;
      const row = rowOf(child, l.depth, collapsed);
      out.push(row);
      child.at = now - l.now;
      child.depth = l.depth;
      if (row.collapsed || child.children.length === 0) child.shown = 1;
      else
        levels.push({
          node: child,
          children: child.children,
          next: 0,
          depth: l.depth + 1,
          was: open ? wasAt : null,
          now,
          from: 0,
          to: 0,
        });
    }
    this.last = { tree, collapsed, rows: out, base };
    return out;
  }
}
