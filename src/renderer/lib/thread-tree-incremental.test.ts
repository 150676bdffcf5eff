import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildThreadTree, threadRows, type ThreadPost } from './thread-tree';
import { IncrementalThreadTree } from './thread-tree-incremental';

const post = (id: string, parent: string | null): ThreadPost => ({ id, inReplyToId: parent, createdAt: '' });

/** rows without the node objects, to compare two trees */
const shape = (
  posts: readonly ThreadPost[],
  tree: ReturnType<typeof buildThreadTree<ThreadPost>>,
  collapsed: ReadonlySet<string>,
) => threadRows(tree, collapsed).map((r) => [r.kind, r.key, r.depth, r.descendants, r.collapsed, posts.length]);

/**
 * n posts and the order they arrive in: post i+1 answers the focal post (0), an earlier-numbered post,
 * or one never loaded (-1); a parent numbered i+1 or more makes it top level. `more(n)` adds what a test needs.
 */
const threadOf = <T>(maxN: number, more: (n: number) => fc.Arbitrary<T>) =>
  fc.integer({ min: 1, max: maxN }).chain((n) =>
    fc.tuple(
      fc.array(fc.oneof(fc.constant(-1), fc.constant(0), fc.integer({ min: 1, max: n })), {
        minLength: n,
        maxLength: n,
      }),
      fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
      more(n),
    ),
  );

const postsOf = (parents: readonly number[]): ThreadPost[] =>
  parents.map((p, i) => {
    const id = String(i + 1);
    if (p === -1) return post(id, `gone${i % 3}`);
    if (p === 0 || p >= i + 1) return post(id, p === 0 ? 'focal' : null);
    return post(id, String(p));
  });

describe('IncrementalThreadTree', () => {
  it('gives the tree buildThreadTree gives, after every post, whatever the arrival order (acyclic threads)', () => {
    // in any order (a reply before its parent), some twice
    const thread = threadOf(40, (n) =>
      fc.tuple(
        fc.array(fc.integer({ min: 0, max: n - 1 }), { maxLength: 5 }),
        fc.array(fc.integer({ min: 1, max: n }), { maxLength: 4 }),
      ),
    );
    fc.assert(
      fc.property(thread, ([parents, order, [repeats, collapse]]) => {
        const posts = postsOf(parents);
        const arrival = [post('focal', null), ...order.map((i) => posts[i]!), ...repeats.map((i) => posts[i]!)];
        const collapsed = new Set(collapse.map(String));
        const inc = new IncrementalThreadTree<ThreadPost>('focal');
        for (let k = 0; k < arrival.length; k++) {
          inc.add(arrival[k]!);
          const prefix = arrival.slice(0, k + 1);
          expect(shape(prefix, inc.tree(), collapsed)).toEqual(
            shape(prefix, buildThreadTree('focal', prefix), collapsed),
          );
          expect(inc.tree().size).toBe(buildThreadTree('focal', prefix).size);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('rows: the rows threadRows gives, whatever arrives between two calls and whatever is collapsed', () => {
    // as above, in batches (a page), with the collapsed set changing now and then
    const thread = threadOf(60, (n) =>
      fc.tuple(
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 20 }),
        fc.array(
          fc.option(
            fc.array(
              fc.oneof(fc.integer({ min: 1, max: n }).map(String), fc.constantFrom('missing:gone0', 'missing:gone1')),
              { maxLength: 3 },
            ),
            { nil: null },
          ),
          { maxLength: 20 },
        ),
      ),
    );
    fc.assert(
      fc.property(thread, ([parents, order, [batches, collapses]]) => {
        const posts = postsOf(parents);
        // placeholders become posts at the end: one under a reply, one at the top (never a loop)
        const arrival = [
          ...order.map((i) => posts[i]!),
          post('focal', null),
          post('gone1', '1'),
          post('gone0', 'focal'),
        ];
        const inc = new IncrementalThreadTree<ThreadPost>('focal');
        let collapsed: ReadonlySet<string> = new Set();
        let k = 0;
        for (let b = 0; k < arrival.length; b++) {
          const size = batches[b % batches.length]!;
          for (const p of arrival.slice(k, k + size)) inc.add(p);
          k += size;
          const change = collapses[b];
          if (change) collapsed = new Set(change);
          const prefix = arrival.slice(0, k);
          const fresh = threadRows(buildThreadTree('focal', prefix), collapsed);
          const rows = inc.rows(collapsed);
          expect(rows.map((r) => [r.kind, r.key, r.depth, r.descendants, r.collapsed])).toEqual(
            fresh.map((r) => [r.kind, r.key, r.depth, r.descendants, r.collapsed]),
          );
          expect(rows.map((r) => (r.kind === 'post' ? r.post : r.parentId))).toEqual(
            fresh.map((r) => (r.kind === 'post' ? r.post : r.parentId)),
          );
          expect(inc.rows(collapsed)).toBe(rows);
        }
      }),
      { numRuns: 500 },
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

  it('gives the same row objects again for rows that show the same, new ones for rows that changed', () => {
    const inc = new IncrementalThreadTree<ThreadPost>('f');
    for (const p of [post('1', 'f'), post('2', '1'), post('3', 'f'), post('4', 'gone')]) inc.add(p);
    const before = threadRows(inc.tree(), new Set());
    inc.add(post('5', '2')); // 1 and 2 now have one more reply below
    inc.add(post('gone', 'f')); // the placeholder's post arrived: same node, now a post
    const after = threadRows(inc.tree(), new Set());
    const byKey = (rows: typeof before) => new Map(rows.map((r) => [r.key, r]));
    const [was, now] = [byKey(before), byKey(after)];
    expect(now.get('3')).toBe(was.get('3'));
    expect(now.get('4')).toBe(was.get('4')); // its parent arrived: same depth, same post
    expect(now.get('1')).not.toBe(was.get('1'));
    expect(now.get('1')).toMatchObject({ descendants: 2 });
    expect(now.get('gone')).toMatchObject({ kind: 'post', depth: 0, descendants: 1 });
    expect(now.has('missing:gone')).toBe(false);
    // collapsing and expanding again: the rows fresh ones would be, the hidden ones back
    const shape = (rows: typeof before) => rows.map((r) => [r.key, r.depth, r.descendants, r.collapsed]);
    expect(shape(threadRows(inc.tree(), new Set(['1'])))).toEqual(
      shape(
        threadRows(
          buildThreadTree('f', [
            post('1', 'f'),
            post('2', '1'),
            post('3', 'f'),
            post('4', 'gone'),
            post('5', '2'),
            post('gone', 'f'),
          ]),
          new Set(['1']),
        ),
      ),
    );
    expect(threadRows(inc.tree(), new Set()).map((r) => r.key)).toEqual(after.map((r) => r.key));
    expect(threadRows(inc.tree(), new Set()).find((r) => r.key === '1')).toMatchObject({ collapsed: false });
  });

  it('survives replies that answer each other in a loop', () => {
    const inc = new IncrementalThreadTree<ThreadPost>('f');
    inc.add(post('a', 'b'));
    inc.add(post('b', 'a'));
    const rows = threadRows(inc.tree(), new Set());
    expect(
      rows
        .filter((r) => r.kind === 'post')
        .map((r) => r.key)
        .sort(),
    ).toEqual(['a', 'b']);
  });
});
