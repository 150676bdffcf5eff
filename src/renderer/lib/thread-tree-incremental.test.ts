import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildThreadTree, threadRows, type ThreadPost } from './thread-tree';
import { IncrementalThreadTree } from './thread-tree-incremental';

const post = (id: string, parent: string | null): ThreadPost => ({ id, inReplyToId: parent, createdAt: '' });

/** rows without the node objects, to compare two trees */
const shape = (posts: readonly ThreadPost[], tree: ReturnType<typeof buildThreadTree<ThreadPost>>, collapsed: ReadonlySet<string>) =>
  threadRows(tree, collapsed).map((r) => [r.kind, r.key, r.depth, r.descendants, r.collapsed, posts.length]);

describe('IncrementalThreadTree', () => {
  it('gives the tree buildThreadTree gives, after every post, whatever the arrival order (acyclic threads)', () => {
    // posts 1..n, each answering the focal post, an earlier-numbered post, or one never loaded;
    // they arrive in any order (a reply before its parent), some twice
    const thread = fc
      .integer({ min: 1, max: 40 })
      .chain((n) =>
        fc.tuple(
          fc.array(fc.oneof(fc.constant(-1), fc.constant(0), fc.integer({ min: 1, max: n })), { minLength: n, maxLength: n }),
          fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
          fc.array(fc.integer({ min: 0, max: n - 1 }), { maxLength: 5 }),
          fc.array(fc.integer({ min: 1, max: n }), { maxLength: 4 }),
        ),
      );
    fc.assert(
      fc.property(thread, ([parents, order, repeats, collapse]) => {
        const posts = parents.map((p, i) => {
          const id = String(i + 1);
          if (p === -1) return post(id, `gone${i % 3}`);
          if (p === 0 || p >= i + 1) return post(id, p === 0 ? 'focal' : null);
          return post(id, String(p));
        });
        const arrival = [post('focal', null), ...order.map((i) => posts[i]!), ...repeats.map((i) => posts[i]!)];
        const collapsed = new Set(collapse.map(String));
        const inc = new IncrementalThreadTree<ThreadPost>('focal');
        for (let k = 0; k < arrival.length; k++) {
          inc.add(arrival[k]!);
          const prefix = arrival.slice(0, k + 1);
          expect(shape(prefix, inc.tree(), collapsed)).toEqual(shape(prefix, buildThreadTree('focal', prefix), collapsed));
          expect(inc.tree().size).toBe(buildThreadTree('focal', prefix).size);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the same tree object until a post is added', () => {
    const inc = new IncrementalThreadTree<ThreadPost>('f');
    inc.add(post('1', 'f'));
    const t = inc.tree();
    expect(inc.tree()).toBe(t);
    inc.add(post('1', 'f'));
    expect(inc.tree()).toBe(t);
    inc.add(post('2', '1'));
    expect(inc.tree()).not.toBe(t);
  });

  it('survives replies that answer each other in a loop', () => {
    const inc = new IncrementalThreadTree<ThreadPost>('f');
    inc.add(post('a', 'b'));
    inc.add(post('b', 'a'));
    const rows = threadRows(inc.tree(), new Set());
    expect(rows.filter((r) => r.kind === 'post').map((r) => r.key).sort()).toEqual(['a', 'b']);
  });
});
