import { describe, expect, it } from 'vitest';
import type { Post } from '../../../../shared/api/schemas';
import type { ThreadRow } from '../../../lib/thread-tree';
import { sameRow } from './ThreadRowView';

const post = { id: '1' } as Post;
const row = (over: Partial<Extract<ThreadRow<Post>, { kind: 'post' }>> = {}): ThreadRow<Post> => ({
  kind: 'post',
  key: '1',
  post,
  depth: 1,
  descendants: 3,
  collapsed: false,
  isFocal: false,
  ...over,
});
const same = (a: ThreadRow<Post>, b: ThreadRow<Post>) => sameRow({ row: a, threadId: 't' }, { row: b, threadId: 't' });

describe('a thread row renders again only when what it shows changed', () => {
  it('a reply whose subtree grew renders again (its toggle says how many replies it hides)', () => {
    expect(same(row(), row({ descendants: 4 }))).toBe(false);
    expect(same(row(), row())).toBe(true);
  });

  it('the focal post does not render again as pages add replies under it (it has no toggle)', () => {
    expect(
      same(row({ isFocal: true, depth: 0, descendants: 20 }), row({ isFocal: true, depth: 0, descendants: 40 })),
    ).toBe(true);
  });

  it('collapsing, another post object or another depth renders again', () => {
    expect(same(row(), row({ collapsed: true }))).toBe(false);
    expect(same(row(), row({ post: { id: '1' } as Post }))).toBe(false);
    expect(same(row(), row({ depth: 2 }))).toBe(false);
  });
});
