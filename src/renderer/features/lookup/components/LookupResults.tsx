import { useQueries, type UseQueryResult } from '@tanstack/react-query';
import type { CardPost, User } from '../../../../shared/api/schemas';
import { MAX_VIEW_PARAM_CHARS } from '../../../../shared/ipc/export';
import { ErrorState } from '../../../components/ErrorState';
import { PostCard } from '../../../components/post/PostCard';
import { Note, SkeletonList } from '../../../components/states';
import { UserCard } from '../../../components/UserCard';
import { VirtualList } from '../../../components/VirtualList';
import { fullCount } from '../../../lib/format';
import type { LookupKind } from '../../../lib/routes';
import { ExportButton, exportView } from '../../export';
import { batchesOf, postBatchQueries, userBatchQueries } from '../queries';

type Item = CardPost | User;
type BatchResult = Pick<
  UseQueryResult<{ items: Item[]; report: { dropped: unknown[] } }>,
  'status' | 'data' | 'error' | 'refetch'
>;

/** Found items in the order asked, and the ids the API did not return. */
export function LookupResults({ kind, ids }: { kind: LookupKind; ids: readonly string[] }) {
  return kind === 'posts' ? <PostResults ids={ids} /> : <UserResults ids={ids} />;
}

function PostResults({ ids }: { ids: readonly string[] }) {
  const results = useQueries({ queries: postBatchQueries(ids) });
  return <Results kind="posts" ids={ids} results={results} />;
}

function UserResults({ ids }: { ids: readonly string[] }) {
  const results = useQueries({ queries: userBatchQueries(ids) });
  return <Results kind="users" ids={ids} results={results} />;
}

function Results({
  kind,
  ids,
  results,
}: {
  kind: LookupKind;
  ids: readonly string[];
  results: readonly BatchResult[];
}) {
  const batches = results.length;
  const done = results.filter((r) => r.status !== 'pending').length;
  const failed = results.map((r, i) => ({ r, i })).filter(({ r }) => r.status === 'error');
  const byId = new Map<string, Item>();
  let dropped = 0;
  for (const r of results) {
    for (const item of r.data?.items ?? []) byId.set(item.id, item);
    dropped += r.data?.report.dropped.length ?? 0;
  }
  // ids whose batch has answered: only those can be called "not found"; a failed call's ids were not asked
  const asked = new Set<string>();
  const notAsked: Array<{ ids: readonly string[]; reason: string; retry: () => void }> = [];
  batchesOf(ids).forEach((batch, i) => {
    const r = results[i];
    if (r?.status === 'success') batch.forEach((id) => asked.add(id));
    else if (r?.status === 'error')
      notAsked.push({ ids: batch, reason: failureReason(r.error), retry: () => void r.refetch() });
  });
  const notAskedCount = notAsked.reduce((n, b) => n + b.ids.length, 0);
  const found = ids.filter((id) => byId.has(id)).map((id) => byId.get(id)!);
  const notFound = ids.filter((id) => asked.has(id) && !byId.has(id));
  const what = kind === 'posts' ? 'posts' : 'users';
  const idList = ids.join(',');
  // exportable once every batch has answered; main splits the ids into calls of 100 again
  const view =
    done === batches && idList.length <= MAX_VIEW_PARAM_CHARS
      ? kind === 'posts'
        ? exportView(
            'postsByIds',
            { tweet_ids: idList },
            { items: found.length, reachedEnd: true },
            { title: `${fullCount(ids.length)} posts by id` },
          )
        : exportView(
            'usersByIds',
            { userIds: idList },
            { items: found.length, reachedEnd: true },
            { title: `${fullCount(ids.length)} users by id` },
          )
      : null;

  return (
    <section className="lookup-results" aria-label="Results">
      <div className="lookup-summary">
        <p role="status">
          {done < batches
            ? `Looking up ${fullCount(ids.length)} ${what} in ${batches} ${batches === 1 ? 'call' : 'calls'}: ${done} of ${batches} done…`
            : `Found ${fullCount(found.length)} of ${fullCount(ids.length)} ${what} (${batches} ${batches === 1 ? 'call' : 'calls'}). ${fullCount(notFound.length)} not found.${
                notAskedCount > 0 ? ` ${fullCount(notAskedCount)} not asked: the call failed.` : ''
              }`}
        </p>
        <ExportButton view={view} />
      </div>
      {failed.map(({ r, i }) => (
        <ErrorState
          key={i}
          compact
          error={r.error}
          what={`batch ${i + 1} of ${batches}`}
          onRetry={() => void r.refetch()}
        />
      ))}
      {notAsked.map((b, k) => (
        <div key={k} className="lookup-missing lookup-missing--failed">
          <h2 className="section-title">
            Not asked: the call failed ({b.reason}) ({fullCount(b.ids.length)})
          </h2>
          <label className="field lookup-missing__field">
            <span className="visually-hidden">Ids not asked</span>
            <textarea className="textarea" readOnly value={b.ids.join('\n')} rows={Math.min(6, b.ids.length)} />
          </label>
          <button type="button" className="btn btn--small" onClick={b.retry}>
            {b.ids.length === 1 ? 'Retry this id' : `Retry these ${fullCount(b.ids.length)} ids`}
          </button>
        </div>
      ))}
      {dropped > 0 ? <Note>{dropped} unreadable items skipped.</Note> : null}
      {notFound.length > 0 ? (
        <div className="lookup-missing">
          <h2 className="section-title">Not found ({fullCount(notFound.length)})</h2>
          <label className="field lookup-missing__field">
            <span className="visually-hidden">Ids not found</span>
            <textarea className="textarea" readOnly value={notFound.join('\n')} rows={Math.min(6, notFound.length)} />
          </label>
        </div>
      ) : null}
      <h2 className="section-title">Found ({fullCount(found.length)})</h2>
      {done < batches && found.length === 0 ? (
        <SkeletonList count={3} label={`Loading ${what}…`} />
      ) : found.length === 0 ? (
        <Note>
          {notAskedCount > 0
            ? `Nothing found yet: ${fullCount(notAskedCount)} of these ids were not asked because the call failed.`
            : 'None of these ids were found.'}
        </Note>
      ) : (
        <VirtualList
          rows={found}
          getKey={(it) => it.id}
          label={`Found ${what}`}
          busy={done < batches}
          renderRow={(it) => (kind === 'posts' ? <PostCard post={it as CardPost} /> : <UserCard user={it as User} />)}
        />
      )}
    </section>
  );
}

/** a failed call's reason in a few words: the error's message without its final full stop */
function failureReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\.$/, '') || 'unknown error';
}
