/**
 * How big a conversation is, estimated with no call from the pages of its reply listing the project holds (a
 * thread's export says what it will cost before it buys a page): a range of replies that should contain the
 * truth, its middle, and the basis in plain words.
 *
 * A post's replyCount counts its direct replies only. But every reply counts its own answers too, and every
 * reply of a conversation answers exactly one post of it, so with D direct replies and replies that draw μ
 * answers each on average, the conversation holds N = D + μN, that is D / (1 − μ) replies. The pages loaded show
 * μ: the mean replyCount of the replies they hold.
 *
 * - low, a floor that cannot be wrong: every reply loaded, every answer a loaded reply announces and that is
 *   not loaded, and one reply for each direct reply not loaded yet;
 * - high: each direct reply not loaded holds 1 / (1 − μ) replies, μ taken at the top of what the sample allows
 *   — its mean plus 2.5 standard errors (the pages of a depth-first listing are one corner of the conversation,
 *   and one branch can hold most of it), at least 0.3 for that bound and at most 0.9 (ten replies per direct
 *   reply): the bound tightens as replies are loaded;
 * - a newest-first listing (Latest) loads the newest replies, which had the least time to be answered: its μ
 *   is low whatever the conversation, so it reaches up to 8 replies per direct reply. A ranked listing (most
 *   relevant, most liked) is the better sample, and where the project holds both, it sets the range;
 * - a listing walked to its end is the exact answer.
 *
 * Checked on the sandbox's conversations (deep and wide, in its default and small worlds, docs/sandbox.md):
 * over their first 1 to 80 pages in both ranked orders, every range held the truth and every middle was within
 * 1.7 times it.
 */

/** One listing of the conversation as Skein holds it: its first pages, in order, each post with its parent and count. */
export interface ListingSample {
  /** the order it was asked in (`Latest` is newest first; the others are ranked) */
  order: string;
  /** the posts of its first pages, in listing order (the conversation's post itself first, when sent) */
  items: ReadonlyArray<{ id: string; parent: string | null; replies: number | null }>;
  /** pages those posts came in */
  pages: number;
  /** the listing was walked to its last page */
  complete: boolean;
}

export interface ConversationSample {
  rootId: string;
  listings: readonly ListingSample[];
}

export interface ConversationRange {
  /** replies in the conversation (the post itself not counted) */
  low: number;
  middle: number;
  high: number;
  /** the listing ran to its end: low = middle = high */
  exact: boolean;
  /** how it was reached, in plain words */
  basis: string;
}

/** How many standard errors above the sample's mean μ the range reaches. */
const REACH = 2.5;
/** The bound's μ is at least this (a few unanswered replies say little), and at most this (10 replies per direct one). */
const MU_FLOOR = 0.3;
const MU_CAP = 0.9;
/** A newest-first listing shows the replies that had the least time to be answered: the others may hold this many each. */
const NEWEST_FIRST_REACH = 8;

interface Reading {
  order: string;
  newestFirst: boolean;
  /** replies loaded (the post itself not counted) */
  loaded: number;
  direct: number;
  /** answers announced by loaded replies and not loaded: a floor of what their branches still hold */
  announced: number;
  /** answers the loaded replies announce in all (their replyCounts) */
  answers: number;
  complete: boolean;
}

/** A count as announced: a whole number of 0 or more (anything else, 0). */
const count = (v: number | null | undefined): number =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;

function read(rootId: string, listing: ListingSample): Reading {
  const ids = new Set<string>();
  const children = new Map<string, number>();
  for (const p of listing.items) {
    ids.add(p.id);
    if (p.parent !== null) children.set(p.parent, (children.get(p.parent) ?? 0) + 1);
  }
  let loaded = 0;
  let direct = 0;
  let announced = 0;
  let answers = 0;
  for (const p of listing.items) {
    if (p.id === rootId) continue;
    loaded++;
    if (p.parent === rootId) direct++;
    answers += count(p.replies);
    announced += Math.max(0, count(p.replies) - (children.get(p.id) ?? 0));
  }
  return {
    order: listing.order,
    newestFirst: listing.order === 'Latest',
    loaded,
    direct,
    announced,
    answers,
    complete: listing.complete,
  };
}

/** The sample's mean answers per reply, and the top of what it allows (`REACH` standard errors above). */
function answersPerReply(r: Reading): { mean: number; top: number } {
  const mean = r.loaded > 0 ? r.answers / r.loaded : 0;
  const spread = Math.sqrt((Math.max(mean, MU_FLOOR) * (1 - Math.min(mean, 0.99))) / Math.max(1, r.loaded));
  return { mean, top: Math.min(MU_CAP, Math.max(MU_FLOOR, mean) + REACH * spread) };
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const ORDER_WORDS: Record<string, string> = { Latest: 'newest first', Relevance: 'most relevant', Likes: 'most liked' };

/**
 * The range of replies in the conversation, from what its listings hold and the post's own count of direct
 * replies (`directReplies`); null when nothing of it is held.
 */
export function conversationRange(
  sample: ConversationSample,
  directReplies: number | undefined,
): ConversationRange | null {
  const readings = sample.listings.map((l) => read(sample.rootId, l)).filter((r) => r.loaded > 0 || r.complete);
  if (readings.length === 0) return null;
  const whole = readings.find((r) => r.complete);
  if (whole) {
    return {
      low: whole.loaded,
      middle: whole.loaded,
      high: whole.loaded,
      exact: true,
      basis: `Skein holds the whole listing (${whole.order}): ${plural(whole.loaded, 'reply', 'replies')}.`,
    };
  }
  // the ranked listing with the most replies loaded, else the newest-first one
  const ranked = readings.filter((r) => !r.newestFirst).sort((a, b) => b.loaded - a.loaded)[0];
  const best = ranked ?? [...readings].sort((a, b) => b.loaded - a.loaded)[0]!;
  const direct = Math.max(count(directReplies), best.direct);
  const remaining = direct - best.direct;
  // every reply loaded, every announced answer not loaded, and one reply for each direct reply not loaded
  const floor = Math.max(...readings.map((r) => r.loaded + r.announced)) + remaining;
  const mu = answersPerReply(best);
  const known = best.loaded + best.announced;
  const perDirect = best.newestFirst ? Math.max(NEWEST_FIRST_REACH, 1 / (1 - mu.top)) : 1 / (1 - mu.top);
  const low = floor;
  const high = Math.max(low, known + remaining * perDirect);
  const middle = (low + high) / 2;
  const seen = `${plural(best.loaded, 'reply', 'replies')} loaded in ${ORDER_WORDS[best.order] ?? best.order} order (${best.direct.toLocaleString('en-US')} of the post's ${plural(direct, 'direct reply', 'direct replies')})`;
  const identity = `answer ${mu.mean.toFixed(2)} times each on average (their reply counts); replies that draw μ answers each make a conversation of D / (1 − μ) replies for D direct ones`;
  const basis = best.newestFirst
    ? `The ${seen} ${identity}. Newest first loads the replies that had the least time to be answered, so each of the other ${plural(remaining, 'direct reply', 'direct replies')} counts at least itself and up to ${NEWEST_FIRST_REACH} replies; a page in Most relevant order narrows this.`
    : `The ${seen} ${identity}: each of the other ${plural(remaining, 'direct reply', 'direct replies')} counts at least itself and up to ${perDirect.toFixed(1)} replies, taking μ up to ${mu.top.toFixed(2)} (a few pages are one corner of a conversation; the bound tightens as more are loaded).`;
  return { low: Math.round(low), middle: Math.round(middle), high: Math.round(high), exact: false, basis };
}
