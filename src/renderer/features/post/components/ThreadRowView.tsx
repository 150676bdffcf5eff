import { memo } from 'react';
import type { CardPost } from '../../../../shared/api/schemas';
import { PostCard } from '../../../components/post/PostCard';
import { countLabel } from '../../../lib/format';
import { formatRoute, routes } from '../../../lib/routes';
import type { ThreadRow } from '../../../lib/thread-tree';
import { useUi } from '../../../state/ui';
import { handleText } from '../../../components/Identity';

const MAX_INDENT = 12;

/** One row of the threaded view: indented by depth, with a collapse/expand toggle for its subtree. */
export const ThreadRowView = memo(function ThreadRowView({
  row,
  threadId,
}: {
  row: ThreadRow<CardPost>;
  threadId: string;
}) {
  const toggle = useUi((s) => s.toggleBranch);
  const who =
    row.kind !== 'post'
      ? 'the missing post'
      : row.post.author
        ? handleText(row.post.author.userName)
        : 'the post by an unknown author';
  const hidden = countLabel(row.descendants, 'reply', 'replies');
  return (
    <div
      className={`thread-row${row.depth > 0 ? ' thread-row--nested' : ''}`}
      style={{ ['--depth' as string]: Math.min(row.depth, MAX_INDENT) }}
      data-depth={row.depth}
    >
      <div className="thread-row__rail">
        {row.descendants > 0 && !(row.kind === 'post' && row.isFocal) ? (
          <button
            type="button"
            className="thread-row__toggle"
            aria-expanded={!row.collapsed}
            aria-label={`${row.collapsed ? 'Expand' : 'Collapse'} ${hidden} under ${who}`}
            title={`${row.collapsed ? 'Expand' : 'Collapse'} ${hidden}`}
            onClick={() => toggle(threadId, row.key)}
          >
            {row.collapsed ? '+' : '−'}
          </button>
        ) : null}
      </div>
      <div className="thread-row__body">
        {row.depth > MAX_INDENT ? <p className="thread-row__deep">Reply depth {row.depth + 1}</p> : null}
        {row.kind === 'post' ? (
          <PostCard post={row.post} badge={row.isFocal ? 'Original post' : undefined} />
        ) : (
          <div
            className="thread-row__missing"
            data-nav-item=""
            tabIndex={0}
            role="note"
            aria-label="Reply to a post that is not loaded"
          >
            <p>
              Replies to a post that is not loaded.{' '}
              <a href={formatRoute(routes.post(row.parentId))}>Open post {row.parentId}</a>
            </p>
          </div>
        )}
        {row.collapsed ? <p className="thread-row__hidden">{hidden} hidden</p> : null}
      </div>
    </div>
  );
}, sameRow);

/** Rows are rebuilt whenever a page arrives; one that shows the same thing need not render again. */
export function sameRow(
  a: { row: ThreadRow<CardPost>; threadId: string },
  b: { row: ThreadRow<CardPost>; threadId: string },
): boolean {
  const x = a.row;
  const y = b.row;
  if (a.threadId !== b.threadId || x.kind !== y.kind || x.key !== y.key || x.depth !== y.depth) return false;
  if (x.collapsed !== y.collapsed) return false;
  // the focal post shows no toggle, so how many replies it has (every page adds some) changes nothing
  if (x.kind === 'post' && y.kind === 'post')
    return x.post === y.post && x.isFocal === y.isFocal && (x.isFocal || x.descendants === y.descendants);
  if (x.descendants !== y.descendants) return false;
  return x.kind === 'missing' && y.kind === 'missing' && x.parentId === y.parentId;
}
