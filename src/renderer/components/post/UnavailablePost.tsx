import type { UnavailablePost as Unavailable } from '../../../shared/api/schemas';
import { Handle } from '../Identity';

/**
 * A quoted post that could not be read as one (a deleted post arrives as an object of empty strings):
 * "This post is unavailable", with whatever could be read of it, its id as text when it came with one. No link:
 * the service has nothing to show for it, and opening it would spend a call on that.
 */
export function UnavailablePost({ post, compact = false }: { post: Unavailable; compact?: boolean }) {
  const why =
    post.reason === 'empty'
      ? 'The service sent it empty: it was deleted, or its author hid or protected it.'
      : 'Skein could not read its id; the export keeps it as it came.';
  if (compact)
    return (
      <p className="post__quote-link post__quote-link--unavailable" title={why}>
        Quoting a post that is unavailable
      </p>
    );
  return (
    <div className="post post--quoted post--unavailable" role="group" aria-label="Unavailable post">
      <p className="post__unavailable">This post is unavailable.</p>
      {post.userName || post.text ? (
        <p className="post__unavailable-what">
          {post.userName ? <Handle handle={post.userName} /> : null}
          {post.userName && post.text ? ': ' : null}
          {post.text ? <span dir="auto">{post.text}</span> : null}
        </p>
      ) : null}
      <p className="post__unavailable-why muted">
        {why}
        {post.id ? (
          <>
            {' '}
            Its id: <span className="post__unavailable-id">{post.id}</span>.
          </>
        ) : null}
      </p>
    </div>
  );
}
