/**
 * A conversation's reply listings as the project holds them (what an export's estimate reads): for
 * each order it was asked in, its first pages in order — each page the newest answer the project holds for it,
 * from page 0 on, as long as there is no gap — with every post's id, parent and announced replies, and whether
 * the last of them ended the listing. Only what views already loaded: no call is ever made for it. The listing
 * is read the same way on both stores; only reading a request's params differs.
 */
import { sql, type Db, type Sql } from '../db';

export interface HeldListing {
  order: string;
  items: Array<{ id: string; parent: string | null; replies: number | null }>;
  pages: number;
  complete: boolean;
}

/** Pages read per order at most (the estimate needs the first ones; a walk of 1,000 pages is 20,000 posts). */
const MAX_PAGES = 1_000;

/**
 * A request's param, read from its canonical params: the key's [name, value] pairs (what the client stores) or,
 * from older or hand-made rows, an object (on PostgreSQL, null for params that are not JSON: kept escaped).
 */
const param = (name: string): Sql =>
  sql.of({
    sqlite: `(CASE json_type(params) WHEN 'object' THEN json_extract(params, '$.${name}')
     ELSE (SELECT json_extract(value, '$[1]') FROM json_each(params) WHERE json_extract(value, '$[0]') = '${name}') END)`,
    postgres: `(CASE left(params, 1)
     WHEN '{' THEN (params::json) ->> '${name}'
     WHEN '[' THEN (SELECT e ->> 1 FROM json_array_elements(params::json) e WHERE e ->> 0 = '${name}' LIMIT 1)
   END)`,
  });

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function postOf(raw: string): HeldListing['items'][number] | null {
  try {
    const p = JSON.parse(raw) as Record<string, unknown>;
    const id = text(p.id);
    if (!id) return null;
    const replies = typeof p.replyCount === 'number' && Number.isFinite(p.replyCount) ? p.replyCount : null;
    return { id, parent: text(p.inReplyToId), replies };
  } catch {
    return null;
  }
}

/** A reply-listing page the project holds: its request, its order, its place in its listing, its next cursor. */
interface ListingPage {
  request: number;
  ord: string;
  page: number;
  next: string | null;
}

/** The listings of these pages (ordered by order, page, newest first), each page's posts read by `itemsOf`. */
async function listingsOf(
  pages: readonly ListingPage[],
  itemsOf: (request: number) => Promise<string[]>,
): Promise<HeldListing[]> {
  const out: HeldListing[] = [];
  let listing = null as HeldListing | null;
  let nextPage = 0;
  for (const r of pages) {
    if (listing?.order !== r.ord) {
      listing = { order: r.ord, items: [], pages: 0, complete: false };
      out.push(listing);
      nextPage = 0;
    }
    // the newest answer of each page, pages in a row from the first: a gap ends what can be read in order
    if (r.page !== nextPage || listing.complete || listing.pages >= MAX_PAGES) continue;
    nextPage++;
    listing.pages++;
    for (const raw of await itemsOf(r.request)) {
      const post = postOf(raw);
      if (post) listing.items.push(post);
    }
    if (r.next === null || r.next === '') listing.complete = true;
  }
  return out.filter((l) => l.pages > 0);
}

/** The reply listings (replies v2) of the post `rootId` the project holds, one per order. */
export async function heldConversation(db: Db, rootId: string): Promise<HeldListing[]> {
  const pages = await db.all<ListingPage>(
    sql`SELECT request, coalesce(ord, 'Relevance') AS ord, page, next FROM (
         SELECT rowid AS request, page_index AS page, next_cursor AS next, at,
           ${param('queryType')} AS ord, ${param('tweetId')} AS tweet
         FROM requests
         WHERE operation = 'postRepliesV2' AND http_status BETWEEN 200 AND 299 AND stopped = 0
       ) r WHERE tweet = ${rootId}
       ORDER BY ord, page, at DESC, request DESC`,
  );
  return listingsOf(pages, async (request) =>
    (
      await db.all<{ raw: string }>(
        sql`SELECT i.raw AS raw FROM request_items r JOIN items i ON i.rowid = r.item WHERE r.request = ${request}
            ORDER BY r.position`,
      )
    ).map((r) => r.raw),
  );
}
