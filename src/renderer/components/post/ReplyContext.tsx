import type { CardPost } from '../../../shared/api/schemas';
import { formatRoute, routes } from '../../lib/routes';
import { Handle } from '../Identity';

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
/** a user id to link to; "0" (a placeholder the service sends) is none */
const userId = (v: unknown): string | null => (typeof v === 'string' && /^[1-9]\d*$/.test(v) ? v : null);

/**
 * "Replying to @x · parent post": the mention the reply hides, else the live service's extra fields. Shown
 * for replies only (`isReply`, which the reader sets from inReplyToId): a post that merely starts with
 * @mentions carries inReplyToUserId/-Username too, and is not one.
 */
export function ReplyContext({ post }: { post: CardPost }) {
  const start = post.displayTextRange?.[0] ?? 0;
  const leading = (post.entities?.user_mentions ?? []).filter((m) => m.indices[1] <= start);
  const byName = str(post.inReplyToUsername);
  const mentions = leading.length
    ? leading.map((m) => ({ key: m.id_str || m.screen_name, handle: m.screen_name, id: userId(m.id_str) }))
    : byName
      ? [{ key: byName, handle: byName, id: userId(post.inReplyToUserId) }]
      : [];
  const parentId = str(post.inReplyToId);
  return (
    <p className="post__reply-context">
      Replying to{' '}
      {mentions.length === 0
        ? 'a post'
        : mentions.map((m, i) => (
            <span key={m.key}>
              {i > 0 ? ', ' : null}
              <a href={formatRoute(m.id ? routes.userById(m.id) : routes.userByHandle(m.handle))}>
                <Handle handle={m.handle} />
              </a>
            </span>
          ))}
      {parentId ? (
        <>
          {' · '}
          <a href={formatRoute(routes.post(parentId))}>parent post</a>
        </>
      ) : null}
    </p>
  );
}
