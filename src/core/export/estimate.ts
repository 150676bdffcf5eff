/**
 * The pre-flight estimate of an export: pages still to fetch, calls and
 * credits, from what the view knows (pages loaded, items shown, the total
 * the API announces when it does) and the shared price table. A thread's
 * post announces only its direct replies: its estimate is a range read from
 * the conversation's listings the project holds (conversation-estimate.ts).
 */
import { creditsFor, DEFAULT_PRICES, type PriceTable } from '../../shared/api/pricing';
import { STALE_TIME_MS } from '../../shared/api/cache-policy';
import type { ExportEstimate, ExportScope, ViewDescriptor } from '../../shared/ipc/export';
import type { IdList } from '../ids';
import { conversationRange, type ListingSample } from './conversation-estimate';
import { planView } from './views';

const TYPICAL_PAGE_ITEMS = 20;
/** Views whose announced total counts only part of what they walk (a thread: direct replies of the whole conversation). */
const LOWER_BOUND_TOTALS: ReadonlySet<ViewDescriptor['kind']> = new Set(['thread']);

export function estimateExport(
  view: ViewDescriptor,
  scope: ExportScope,
  prices: PriceTable = DEFAULT_PRICES,
  imported?: IdList,
  held?: IdList,
  /** a thread's listings the project holds (its conversation, in any order) */
  conversation?: readonly ListingSample[],
): ExportEstimate {
  const plan = planView(view, imported, held);
  /** what a page of this many items costs (a batch: asked for `idsAsked` ids) */
  const pageCredits = (items: number, idsAsked?: number) =>
    creditsFor({ operation: plan.operation, httpStatus: 200, items, idsAsked }, prices);
  const minutes = Math.round(STALE_TIME_MS[plan.operation] / 60_000);
  const storeNote =
    minutes > 0
      ? `What the view loaded comes from Skein's store at no cost while it is fresh (${minutes} min); older pages are fetched again.`
      : 'This view is always fetched fresh.';
  if (scope === 'loaded' || (plan.paged && view.reachedEnd)) {
    if (minutes > 0) return { paged: plan.paged, remainingPages: 0, calls: 0, credits: 0, basis: storeNote };
    // never kept (a space changes by the second): what the view shows is asked for again, page by page
    const calls = plan.paged ? Math.max(1, view.loadedPages ?? 1) : plan.requestCount;
    const credits = calls * pageCredits(Math.max(1, Math.round((view.loadedItems ?? calls) / calls)));
    return {
      paged: plan.paged,
      remainingPages: calls,
      calls,
      credits,
      basis: `${storeNote} The export asks for it again: ${calls} call${calls === 1 ? '' : 's'}.`,
    };
  }
  if (!plan.paged) {
    let credits = 0;
    // a hydration's ids the project holds come first, from it, at no cost
    const free = plan.fromList?.heldRequests ?? 0;
    for (let i = free; i < plan.requestCount; i++) {
      const asked = plan.askedCount(i) ?? undefined;
      credits += pageCredits(asked ?? 1, asked);
    }
    const calls = plan.requestCount - free;
    const inProject = plan.fromList?.held;
    return {
      paged: false,
      remainingPages: calls,
      calls,
      credits,
      ...(inProject !== undefined && held !== undefined ? { alreadyInProject: inProject } : {}),
      // a hydration's list has no view to have loaded: what the project holds is its store
      basis: `${calls} ${calls === 1 ? 'call' : 'calls'}; at most ${credits} credits if every id is found, and only the ids that come back are charged.${inProject ? ` ${inProject} of the ids are already in the project: taken from it, free.` : ''}${view.idsFrom === undefined ? ` ${storeNote}` : ''}`,
    };
  }
  const loadedPages = Math.max(0, view.loadedPages ?? 0);
  const loadedItems = Math.max(0, view.loadedItems ?? 0);
  const pageSize = loadedPages > 0 && loadedItems > 0 ? loadedItems / loadedPages : TYPICAL_PAGE_ITEMS;
  const perPage = pageCredits(Math.round(pageSize));
  if (view.expectedItems === undefined) {
    return {
      paged: true,
      remainingPages: null,
      calls: null,
      credits: null,
      basis: `The API does not say how many pages remain. Each page costs about ${perPage} credits (${Math.round(pageSize)} items); set a cap to bound the cost. ${storeNote}`,
    };
  }
  const remainingItems = Math.max(0, view.expectedItems - loadedItems);
  const remainingPages = Math.ceil(remainingItems / Math.max(1, pageSize));
  const learned =
    loadedPages > 0 && loadedItems > 0
      ? `Pages hold about ${Math.round(pageSize)} items (from the ${loadedPages} page${loadedPages === 1 ? '' : 's'} loaded)`
      : `Pages hold about ${Math.round(pageSize)} items (typical; none loaded in this order yet)`;
  const rootId = String(plan.params.tweetId ?? '');
  const range =
    LOWER_BOUND_TOTALS.has(plan.kind) && conversation && conversation.length > 0
      ? conversationRange({ rootId, listings: conversation }, view.expectedItems)
      : null;
  if (range && conversation) {
    // the listing sends the post itself first, then every reply: pages of about the size seen
    const withPost = conversation.some((l) => l.items.some((p) => p.id === rootId)) ? 1 : 0;
    const sampled =
      conversation.reduce((s, l) => s + l.items.length, 0) / conversation.reduce((s, l) => s + l.pages, 0);
    const size = loadedPages > 0 && loadedItems > 0 ? pageSize : sampled > 0 ? sampled : TYPICAL_PAGE_ITEMS;
    const per = pageCredits(Math.round(size));
    const calls = (replies: number) => Math.max(0, Math.ceil((replies + withPost - loadedItems) / Math.max(1, size)));
    const [low, middle, high] = [calls(range.low), calls(range.middle), calls(range.high)];
    const pages = `Pages hold about ${Math.round(size)} items, about ${per} credits each.`;
    return {
      paged: true,
      remainingPages: middle,
      calls: middle,
      credits: middle * per,
      ...(range.exact
        ? {}
        : { range: { calls: [low, high] as [number, number], credits: [low * per, high * per] as [number, number] } }),
      basis: `${range.exact ? range.basis : `The post counts only its direct replies; its conversation is about ${range.middle.toLocaleString('en-US')} replies, between ${range.low.toLocaleString('en-US')} and ${range.high.toLocaleString('en-US')}. ${range.basis}`} ${pages} Set a cap to bound the cost. ${storeNote}`,
    };
  }
  if (LOWER_BOUND_TOTALS.has(plan.kind) && remainingItems === 0) {
    return {
      paged: true,
      remainingPages: null,
      calls: null,
      credits: null,
      basis: `The view already holds ${loadedItems} replies, more than the post's ${view.expectedItems} direct replies: the API does not say how many remain. ${learned}, about ${perPage} credits per page; set a cap to bound the cost. ${storeNote}`,
    };
  }
  if (LOWER_BOUND_TOTALS.has(plan.kind)) {
    // a post's replyCount counts its direct replies; the conversation (replies to replies) is larger
    return {
      paged: true,
      remainingPages,
      calls: remainingPages,
      credits: remainingPages * perPage,
      atLeast: true,
      basis: `The post counts ${view.expectedItems} direct replies; the whole conversation (replies to replies) is larger and the API does not say by how much. ${learned}, about ${perPage} credits per page: these are lower bounds. Set a cap to bound the cost. ${storeNote}`,
    };
  }
  return {
    paged: true,
    remainingPages,
    calls: remainingPages,
    credits: remainingPages * perPage,
    basis: `About ${remainingItems} more items announced, ${learned}, about ${perPage} credits per page. The API's own total can be off; caps stop the run where you say. ${storeNote}`,
  };
}
