/**
 * A conversation's reply listings as a team project holds them: the pages of `postRepliesV2` answers for one
 * post, found here; the listing is assembled as the SQLite store's is (../conversation.ts).
 */
import type { Pool } from 'pg';
import { listingsOf, type HeldListing, type ListingPage } from '../conversation';
import { fromPg, fromPgOrNull, toPg } from '../../db';

/**
 * A request's param, read from its canonical params: the key's [name, value] pairs (what the client stores) or,
 * from older or hand-made rows, an object; null for params that are not JSON (kept escaped, text.ts).
 */
const param = (name: string) =>
  `(CASE left(params, 1)
     WHEN '{' THEN (params::json) ->> '${name}'
     WHEN '[' THEN (SELECT e ->> 1 FROM json_array_elements(params::json) e WHERE e ->> 0 = '${name}' LIMIT 1)
   END)`;

/** The reply listings (replies v2) of the post `rootId` the team project holds, one per order. */
export async function heldConversation(pool: Pool, rootId: string): Promise<HeldListing[]> {
  const pages = await pool.query<{ request: number; ord: string; page: number; next: string | null }>(
    `SELECT request, coalesce(ord, 'Relevance') AS ord, page, next FROM (
       SELECT rowid AS request, page_index AS page, next_cursor AS next, at,
         ${param('queryType')} AS ord, ${param('tweetId')} AS tweet
       FROM requests
       WHERE operation = 'postRepliesV2' AND http_status BETWEEN 200 AND 299 AND stopped = 0
     ) r WHERE tweet = $1
     ORDER BY ord, page, at DESC, request DESC`,
    [toPg(rootId)],
  );
  const rows: ListingPage[] = pages.rows.map((r) => ({ ...r, ord: fromPg(r.ord), next: fromPgOrNull(r.next) }));
  return listingsOf(rows, async (request) => {
    const items = await pool.query<{ raw: string }>(
      `SELECT i.raw FROM request_items r JOIN items i ON i.rowid = r.item WHERE r.request = $1 ORDER BY r.position`,
      [request],
    );
    return items.rows.map((r) => fromPg(r.raw));
  });
}
