import { memo } from 'react';
import { QUERY_TYPES, type QueryType } from '../../../../shared/api/catalog';
import { navigate } from '../../../lib/navigation';
import { routes } from '../../../lib/routes';

const ORDER_LABEL: Record<QueryType, string> = { Relevance: 'Most relevant', Latest: 'Latest', Likes: 'Most liked' };
/** What the flat list really shows: the API's order, pages appended as they come. */
const FLAT_ORDER: Record<QueryType, string> = {
  Latest: 'newest first',
  Relevance: 'most relevant first',
  Likes: 'most liked first',
};

/**
 * Order and layout of the replies. Memoized: it depends on the route only, so
 * the pages arriving under it do not render (and re-sync) its select and radios.
 */
export const ReplyControls = memo(function ReplyControls({
  postId,
  order,
  flat,
}: {
  postId: string;
  order: QueryType;
  flat: boolean;
}) {
  return (
    <>
      <label>
        Order
        <select
          className="select"
          value={order}
          onChange={(e) =>
            navigate(routes.post(postId, 'replies', e.target.value as QueryType, flat), { replace: true })
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
          <input
            type="radio"
            name={`layout-${postId}`}
            checked={!flat}
            onChange={() => navigate(routes.post(postId, 'replies', order, false), { replace: true })}
          />
          Threaded
        </label>
        <label>
          <input
            type="radio"
            name={`layout-${postId}`}
            checked={flat}
            onChange={() => navigate(routes.post(postId, 'replies', order, true), { replace: true })}
          />
          Flat, {FLAT_ORDER[order]}
        </label>
      </fieldset>
    </>
  );
});
