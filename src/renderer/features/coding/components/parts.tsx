/** Small pieces the coding tabs share: a coded item's card, a failure in plain words, a coder's name. */
import type { CardPost, User } from '../../../../shared/api/schemas';
import type { Coder } from '../../../../shared/coding/records';
import { isSkeinError } from '../../../../shared/errors';
import type { CodedItem } from '../../../../shared/ipc/coding';
import { PostCard } from '../../../components/post/PostCard';
import { UserCard } from '../../../components/UserCard';
import { formatRoute, routes } from '../../../lib/routes';

/**
 * The item as the project holds it (a post's card, an account), or why it cannot be shown. Read in place: a
 * click on it opens nothing; the post page (or profile), which may spend calls, is an explicit link below.
 */
export function ItemCard({ item }: { item: CodedItem }) {
  return (
    <div className="coding-item">
      <ItemBody item={item} />
      <p className="coding-item__open muted">
        <a href={formatRoute(item.kind === 'post' ? routes.post(item.id) : routes.userById(item.id))}>
          {item.kind === 'post' ? 'Open post page' : 'Open profile page'}
        </a>{' '}
        (leaves coding; may spend API calls)
      </p>
    </div>
  );
}

function ItemBody({ item }: { item: CodedItem }) {
  const what = item.kind === 'post' ? 'post' : 'account';
  if (item.item === null)
    return (
      <p className="coding__missing" data-post-id={item.kind === 'post' ? item.id : undefined}>
        {item.damaged
          ? `This ${what}'s copy in the project (${item.id}) is damaged and cannot be shown. Hydrating its id again mends it. Its values are kept all the same.`
          : `This ${what} (${item.id}) is not in this project: its values are kept all the same.`}
      </p>
    );
  return item.kind === 'post' ? (
    <PostCard post={item.item as CardPost} inPlace />
  ) : (
    <UserCard user={item.item as User} inPlace />
  );
}

/** A failure as the person reads it: what happened, and what to do. */
export function Problem({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : 'Something went wrong.';
  const fields = isSkeinError(error) ? (error.details?.fields ?? []) : [];
  const action = isSkeinError(error) ? error.details?.action : undefined;
  return (
    <div className="coding__problem" role="alert">
      <p>{message}</p>
      {fields.length > 1 ? (
        <ul>
          {fields.map((f) => (
            <li key={`${f.field}:${f.message}`}>
              {f.field}: {f.message}
            </li>
          ))}
        </ul>
      ) : null}
      {action ? <p className="muted">{action}</p> : null}
    </div>
  );
}

export function coderName(coders: readonly Coder[] | undefined, id: number): string {
  return coders?.find((c) => c.id === id)?.name ?? `coder ${id}`;
}

export const fmt = (v: number | null | undefined, digits = 3) =>
  v === null || v === undefined ? '—' : v.toFixed(digits);
export const pct = (v: number | null | undefined) =>
  v === null || v === undefined ? '—' : `${(v * 100).toFixed(1)} %`;
