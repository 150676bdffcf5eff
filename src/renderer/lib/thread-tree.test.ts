import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildThreadTree, chronological, compareIds, threadRows, type ThreadPost } from './thread-tree';

const p = (id: string, parent: string | null, minute = Number(id)): ThreadPost => ({
  id,
  inReplyToId: parent,
  createdAt: `Mon Jan 05 10:${String(minute % 60).padStart(2, '0')}:00 +0000 2026`,
});

const shape = (rows: ReturnType<typeof threadRows>) =>
  rows.map((r) => `${'  '.repeat(r.depth)}${r.kind === 'post' ? r.post.id : `?${r.parentId}`}`);

describe('thread tree', () => {
  // focal 1; 2 and 3 reply to it; 4 replies to 2; 5 replies to 4; 6 replies to 99 (not loaded)
  const posts = [p('1', null), p('2', '1'), p('4', '2'), p('3', '1'), p('6', '99'), p('5', '4')];

  it('shows the focal post first, then replies indented by depth, with placeholders for missing parents', () => {
    const rows = threadRows(buildThreadTree('1', posts), new Set());
    expect(shape(rows)).toEqual(['1', '2', '  4', '    5', '3', '?99', '  6']);
    expect(rows[0]).toMatchObject({ isFocal: true });
    expect(rows[1]).toMatchObject({ descendants: 2 });
  });

  it('hides a collapsed subtree but keeps its head and its size', () => {
    const rows = threadRows(buildThreadTree('1', posts), new Set(['2', 'missing:99']));
    expect(shape(rows)).toEqual(['1', '2', '3', '?99']);
    expect(rows[1]).toMatchObject({ collapsed: true, descendants: 2 });
  });

  it('attaches replies whose parent arrives on a later page once it does', () => {
    const page1 = [p('5', '4')];
    expect(shape(threadRows(buildThreadTree('1', page1), new Set()))).toEqual(['?4', '  5']);
    const page2 = [...page1, p('4', '1')];
    expect(shape(threadRows(buildThreadTree('1', page2), new Set()))).toEqual(['4', '  5']);
  });

  it('treats empty-string and null parents as top level, and survives cycles', () => {
    expect(shape(threadRows(buildThreadTree('1', [p('2', ''), p('3', null)]), new Set()))).toEqual(['2', '3']);
    const cyc = [p('7', '8'), p('8', '7')];
    const rows = threadRows(buildThreadTree('1', cyc), new Set());
    expect(
      rows
        .filter((r) => r.kind === 'post')
        .map((r) => (r.kind === 'post' ? r.post.id : ''))
        .sort(),
    ).toEqual(['7', '8']);
  });

  it('shows every loaded reply exactly once, whatever the shape', () => {
    const arb = fc.uniqueArray(fc.tuple(fc.integer({ min: 2, max: 60 }), fc.integer({ min: 1, max: 70 })), {
      maxLength: 80,
      selector: ([id]) => id,
    });
    fc.assert(
      fc.property(arb, (pairs) => {
        const list = pairs.map(([id, parent]) => p(String(id), String(parent)));
        const rows = threadRows(buildThreadTree('1', list), new Set());
        const ids = rows.flatMap((r) => (r.kind === 'post' ? [r.post.id] : []));
        expect(ids.sort()).toEqual(list.map((x) => x.id).sort());
      }),
    );
  });

  it('handles a 10,000-deep chain without recursion', () => {
    const chain = Array.from({ length: 10_000 }, (_, i) => p(String(i + 2), String(i + 1)));
    const rows = threadRows(buildThreadTree('1', chain), new Set());
    expect(rows).toHaveLength(10_000);
    expect(rows.at(-1)?.depth).toBe(9_999);
  });
});

describe('chronological', () => {
  it('orders oldest first, ties by id', () => {
    const list = [p('30', null, 5), p('4', null, 1), p('200', null, 5)];
    expect(chronological(list).map((x) => x.id)).toEqual(['4', '30', '200']);
  });
  it('compares long ids numerically', () => {
    expect(compareIds('1850000000000000002', '999')).toBeGreaterThan(0);
    expect(compareIds('1850000000000000002', '1850000000000000003')).toBeLessThan(0);
  });
});
