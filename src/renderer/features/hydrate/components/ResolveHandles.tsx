import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { IdImport } from '../../../../shared/ipc/ids';
import { navigate } from '../../../lib/navigation';
import { creditsLabel } from '../../../lib/format';
import { routes } from '../../../lib/routes';
import { usePrices } from '../../../lib/settings';
import { estimatePages } from '../../../lib/usage/cost-estimate';
import { resolveHandles } from '../../../lib/lookups';
import { extendWithIds } from '../queries';

/**
 * A user list's @handles (and profile URLs): each is one people search, so the cost is shown first; the ids
 * they resolve to go into a new list with the list's own ids, and what could not be resolved is listed.
 */
export function ResolveHandles({ list }: { list: IdImport }) {
  const handles = list.report?.handleList ?? [];
  const total = list.report?.handles ?? 0;
  const prices = usePrices();
  const qc = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const [failed, setFailed] = useState<Array<{ handle: string; why: string }>>([]);
  const [error, setError] = useState<string | null>(null);
  if (handles.length === 0) return null;
  const cost = estimatePages('userSearch', handles.length, prices);

  const resolve = async () => {
    setError(null);
    const resolved = await resolveHandles(qc, handles, setProgress);
    const ids = resolved.flatMap((r) => ('id' in r ? [r.id] : []));
    setFailed(resolved.flatMap((r) => ('why' in r ? [r] : [])));
    try {
      if (ids.length > 0) {
        const next = await extendWithIds(list, `${list.label} with handles`.slice(0, 200), ids);
        await qc.invalidateQueries({ queryKey: ['ids'] });
        navigate(routes.hydrate('users', next.importId));
      }
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setProgress(null);
    }
  };

  return (
    <div className="hydrate-handles">
      <p>
        This list also names {total.toLocaleString()} @{total === 1 ? 'handle' : 'handles'}
        {total > handles.length ? ` (the first ${handles.length.toLocaleString()} are kept for resolving)` : ''}.
        Resolving {handles.length === 1 ? 'it' : 'them'} costs {cost.calls.toLocaleString()} people{' '}
        {cost.calls === 1 ? 'search' : 'searches'}, about {creditsLabel(cost.credits, null)}; the ids found are added to
        a new list with this list’s ids.
      </p>
      <div className="hydrate-panel__actions">
        <button type="button" className="btn btn--small" disabled={progress !== null} onClick={() => void resolve()}>
          Resolve {handles.length.toLocaleString()} {handles.length === 1 ? 'handle' : 'handles'}
        </button>
        {progress !== null ? (
          <span role="status">
            Resolving handle {progress + 1} of {handles.length}…
          </span>
        ) : null}
      </div>
      {failed.length > 0 ? (
        <div role="alert" className="hydrate-empty">
          <p>Not resolved (not added):</p>
          <ul>
            {failed.map((f) => (
              <li key={f.handle}>
                <code>@{f.handle}</code> — {f.why}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="error-text">
          {error}
        </p>
      ) : null}
    </div>
  );
}
