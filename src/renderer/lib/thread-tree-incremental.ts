/**
 * `buildThreadTree`, one post at a time: the same tree (same nodes, children
 * in arrival order, placeholders for parents not loaded, descendant counts)
 * for the same posts, but each post costs its depth instead of a rebuild of
 * the whole thread. A thread paged through to 100,000 replies rebuilt its
 * tree from scratch on every page (~150 ms at the end); this adds 20 replies.
 * `threadRows` flattens it as before.
 */
import type { ThreadPost, ThreadTree } from './thread-tree';

type Node<P extends ThreadPost> = ThreadTree<P>['roots'][number];

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
    } else node = { id: post.id, post, parent: null, children: [], descendants: 0 };
    this.nodes.set(post.id, node);

    const parentId = post.inReplyToId;
    if (noParent(parentId) || parentId === this.focalId) {
      this.roots.push(node);
      return;
    }
    let parent = this.nodes.get(parentId!) ?? this.missing.get(parentId!);
    if (!parent) {
      parent = { id: parentId!, post: null, parent: null, children: [], descendants: 0 };
      this.missing.set(parentId!, parent);
    }
    for (let a: Node<P> | null = parent; a; a = a.parent) {
      if (a === node) {
        this.cut.push(node);
        return;
      }
    }
    node.parent = parent;
    parent.children.push(node);
    for (let a: Node<P> | null = parent; a; a = a.parent) a.descendants += node.descendants + 1;
  }

  /** The tree as `buildThreadTree` gives it; the same object until a post is added. */
  tree(): ThreadTree<P> {
    this.snapshot ??= { focal: this.focal, roots: [...this.roots, ...this.missing.values(), ...this.cut], size: this.size };
    if (this.snapshot.focal !== this.focal) this.snapshot = { ...this.snapshot, focal: this.focal };
    return this.snapshot;
  }
}
