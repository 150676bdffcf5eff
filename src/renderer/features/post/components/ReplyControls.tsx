import { memo } from 'react';
import { QUERY_TYPES, type QueryType } from '../../../../shared/api/catalog';
import { navigate } from '../../../lib/navigation';
import { routes } from '../../../lib/routes';
import { FLAT_LABEL, flatSort } from '../flat-order';

const ORDER_LABEL: Record<QueryType, string> = { Relevance: 'Most relevant', Latest: 'Latest', Likes: 'Most liked' };

/**
 * Order and layout of the replies. The flat layout's label says its order exactly (flat-order.ts); oldest first
 * is offered once the flat list holds every reply. Memoized: it depends on the route and on that, so the pages
 * arriving under it do not render (and re-sync) its select and radios.
 */
export const ReplyControls = memo(function ReplyControls({
  postId,
  order,
  flat,
  oldest,
  oldestAvailable,
}: {
  postId: string;
  order: QueryType;
  flat: boolean;
  /** the flat list is shown oldest first */
  oldest: boolean;
  /** every reply is loaded in the flat list: oldest first can be true */
  oldestAvailable: boolean;
}) {
  const layout = (toFlat: boolean, toOldest = false) =>
    navigate(routes.post(postId, 'replies', order, toFlat, toOldest), { replace: true });
  return (
    <>
      <label>
        Order
        <select
          className="select"
          value={order}
          onChange={(e) =>
            navigate(routes.post(postId, 'replies', e.target.value as QueryType, flat, oldest), { replace: true })
          }
        >
          {QUERY_TYPES.map((q) => (
            <option key={q} value={q}>
              {ORDER_LABEL[q]}
            </option>
          ))}
        </select>
      </label>
      <fieldset className="segmented">
        <legend className="visually-hidden">Layout</legend>
        <label>
          <input type="radio" name={`layout-${postId}`} checked={!flat} onChange={() => layout(false)} />
          Threaded
        </label>
        <label>
          <input type="radio" name={`layout-${postId}`} checked={flat && !oldest} onChange={() => layout(true)} />
          Flat, {FLAT_LABEL[flatSort(order, false)]}
        </label>
        <label title={oldestAvailable ? undefined : 'The listing pages back in time: load every reply first'}>
          <input
            type="radio"
            name={`layout-${postId}`}
            checked={flat && oldest}
            disabled={!oldestAvailable}
            onChange={() => layout(true, true)}
          />
          Flat, oldest first{oldestAvailable ? null : <span className="muted"> (needs every reply loaded)</span>}
        </label>
      </fieldset>
    </>
  );
});
