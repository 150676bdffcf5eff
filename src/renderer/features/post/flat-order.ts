/**
 * The flat reply list's order, exactly what its control says, kept as pages arrive. The API's
 * reply listing walks the conversation depth first — a reply's answers follow it, whatever their time — so
 * "Latest" pages are not newest first: every page loaded is sorted again. "Most liked" sorts by likes. "Oldest
 * first" is only true once every reply is loaded (the listing pages back in time), so the view offers it then.
 * "Most relevant" is the service's own ranking, which no field shows: that list stays in the API's order.
 */
import type { QueryType } from '../../../shared/api/catalog';
import { parseApiDate } from '../../../shared/api/dates';
import { compareIds } from '../../lib/thread-tree';

export type FlatSort = 'newest' | 'oldest' | 'likes' | 'service';

/** The sort a flat list shows: oldest first once asked and every reply is loaded, else what the order means. */
export function flatSort(order: QueryType, oldest: boolean): FlatSort {
  if (oldest) return 'oldest';
  return order === 'Latest' ? 'newest' : order === 'Likes' ? 'likes' : 'service';
}

/** What the control says: "Flat, newest first". */
export const FLAT_LABEL: Record<FlatSort, string> = {
  newest: 'newest first',
  oldest: 'oldest first',
  likes: 'most liked first',
  service: 'as the service ranks them',
};

interface Sortable {
  id: string;
  createdAt?: string | null;
  likeCount?: number | null;
}

/** Parsed times, per post object (pages keep their objects: a page arriving parses only its own). */
const TIMES = new WeakMap<object, number | null>();

function timeOf(p: Sortable): number | null {
  let t = TIMES.get(p);
  if (t === undefined) {
    t = parseApiDate(p.createdAt ?? null);
    TIMES.set(p, t);
  }
  return t;
}

/** Newest first; posts whose time cannot be read last; the same time by id (ids grow with time). */
function newest(a: Sortable, b: Sortable): number {
  const ta = timeOf(a);
  const tb = timeOf(b);
  if (ta === null || tb === null) return ta === tb ? compareIds(b.id, a.id) : ta === null ? 1 : -1;
  return tb - ta || compareIds(b.id, a.id);
}

function oldest(a: Sortable, b: Sortable): number {
  const ta = timeOf(a);
  const tb = timeOf(b);
  if (ta === null || tb === null) return ta === tb ? compareIds(a.id, b.id) : ta === null ? 1 : -1;
  return ta - tb || compareIds(a.id, b.id);
}

const likes = (p: Sortable): number =>
  typeof p.likeCount === 'number' && Number.isFinite(p.likeCount) ? p.likeCount : -1;

/** The posts in the sort's order (a new array; `service` keeps the API's). */
export function sortFlat<P extends Sortable>(posts: readonly P[], sort: FlatSort): P[] {
  const out = [...posts];
  if (sort === 'newest') out.sort(newest);
  else if (sort === 'oldest') out.sort(oldest);
  else if (sort === 'likes') out.sort((a, b) => likes(b) - likes(a) || newest(a, b));
  return out;
}
