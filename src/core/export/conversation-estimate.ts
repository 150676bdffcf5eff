/**
 * How big a conversation is, estimated from the pages of its reply listing the project holds (issue 33 #7): a
 * range of replies that should contain the truth, its middle, and the basis in plain words. A post's replyCount
 * counts its direct replies only; the listing walks the whole conversation depth first (each direct reply, then
 * every reply below it), so the pages loaded are whole branches of the first direct replies and part of the
 * next. The estimate reads them as branches:
 *
 * - low, a floor that cannot be wrong: every reply loaded, every answer a loaded reply announces (its
 *   replyCount) and that is not loaded, and one reply for each direct reply not loaded yet;
 * - high: each direct reply not loaded holds as many answers as the branches loaded whole do on average
 *   (branches over 20 times the median set aside, at most one in twenty: one giant says little of the others;
 *   drawn toward one answer per direct reply by a prior worth five branches), times a factor for what a few
 *   branches cannot show — branch sizes are heavy-tailed, a few often hold most of a conversation — that
 *   narrows as branches add up: 1 + 15/sqrt(branches), between 1.5 and 6;
 * - a newest-first listing (Latest) loads the newest branches, which had the least time to grow: the others
 *   may hold up to eight replies each however small these are. A ranked listing (most relevant, most liked) is
 *   the better sample, and where the project holds both, it sets the range;
 * - a listing walked to its end is the exact answer.
 *
 * The constants were set on the sandbox's conversations (deep and wide, in its default and small worlds,
 * docs/sandbox.md): over their first 80 pages in both ranked orders, every range held the truth and every
 * middle was within 1.9 times it.
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

/**
 * How far the mean branch seen may be from the mean of all: wide with few branches (sizes are heavy-tailed:
 * a few branches often hold most of a conversation), narrowing as they add up.
 */
function spread(branches: number): number {
  return Math.min(6, Math.max(1.5, 1 + 15 / Math.sqrt(Math.max(1, branches))));
}
/** Before any branch is seen, a direct reply is taken to draw one answer; this prior weighs as much as five branches. */
const PRIOR_ANSWERS = 1;
const PRIOR_WEIGHT = 5;
/** A newest-first listing shows the branches that had the least time to grow: the others may be this many times larger. */
const NEWEST_FIRST_REACH = 8;

interface Reading {
  order: string;
  newestFirst: boolean;
  /** replies loaded (the post itself not counted) */
  loaded: number;
  direct: number;
  /** answers announced by loaded replies and not loaded: a floor of what their branches still hold */
  announced: number;
  /** sizes of the direct replies' branches seen whole */
  branches: number[];
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
  const branches: number[] = [];
  for (const p of listing.items) {
    if (p.id === rootId) continue;
    loaded++;
    if (p.parent === rootId) {
      direct++;
      branches.push(1);
    } else if (branches.length > 0) branches[branches.length - 1]!++;
    announced += Math.max(0, count(p.replies) - (children.get(p.id) ?? 0));
  }
  // the last branch may go on in the next page: only the ones before it are whole (all, at the end)
  if (!listing.complete) branches.pop();
  return {
    order: listing.order,
    newestFirst: listing.order === 'Latest',
    loaded,
    direct,
    announced,
    branches,
    complete: listing.complete,
  };
}

/**
 * Answers per branch (its replies but the direct reply), on average: branches over 20 times the median set
 * aside (at most one in twenty), and drawn toward one answer per direct reply by a prior worth five branches, so
 * that one or two branches cannot set it alone.
 */
function meanAnswers(branches: readonly number[]): number {
  const sorted = [...branches].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 1;
  const giants = sorted.filter((b) => b > 20 * median).length;
  const kept = sorted.slice(0, sorted.length - Math.min(giants, Math.floor(sorted.length / 20)));
  return (kept.reduce((sum, b) => sum + b - 1, 0) + PRIOR_ANSWERS * PRIOR_WEIGHT) / (kept.length + PRIOR_WEIGHT);
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
  // the ranked listing with the most branches seen whole, else the newest-first one
  const ranked = readings.filter((r) => !r.newestFirst).sort((a, b) => b.branches.length - a.branches.length)[0];
  const best = ranked ?? [...readings].sort((a, b) => b.branches.length - a.branches.length)[0]!;
  const direct = Math.max(count(directReplies), best.direct);
  const remaining = direct - best.direct;
  // every reply loaded, every announced answer not loaded, and one reply for each direct reply not loaded
  const floor = Math.max(...readings.map((r) => r.loaded + r.announced)) + remaining;
  const extra = meanAnswers(best.branches);
  const known = best.loaded + best.announced;
  const f = spread(best.branches.length);
  const low = floor;
  const perBranch = best.newestFirst ? Math.max(NEWEST_FIRST_REACH, 1 + extra * f) : 1 + extra * f;
  const high = Math.max(low, known + remaining * perBranch);
  const middle = (low + high) / 2;
  const seen = `${plural(best.loaded, 'reply', 'replies')} loaded in ${ORDER_WORDS[best.order] ?? best.order} order, ${best.direct.toLocaleString('en-US')} of the post's ${plural(direct, 'direct reply', 'direct replies')} among them`;
  const branchWords =
    best.branches.length === 0
      ? 'no direct reply is loaded with all its answers yet'
      : `the ${plural(best.branches.length, 'direct reply', 'direct replies')} loaded with all ${best.branches.length === 1 ? 'its' : 'their'} answers ${best.branches.length === 1 ? 'has' : 'have'} ${extra.toFixed(1)} ${best.branches.length === 1 ? 'answer' : 'answers each on average'}`;
  const basis = best.newestFirst
    ? `From ${seen}: ${branchWords}. Newest first loads the newest branches, which had the least time to grow, so each of the other ${plural(remaining, 'direct reply', 'direct replies')} holds at least itself and up to ${NEWEST_FIRST_REACH} replies in all; a page in Most relevant order narrows this.`
    : `From ${seen}: ${branchWords}. Each of the other ${plural(remaining, 'direct reply', 'direct replies')} counts at least itself, and up to ${f.toFixed(1)} times that many answers (a few branches often hold most of a conversation; the factor narrows as more are loaded).`;
  return { low: Math.round(low), middle: Math.round(middle), high: Math.round(high), exact: false, basis };
}
