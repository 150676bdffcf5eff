/**
 * The pre-flight estimate of an export: pages still to fetch, calls and
 * credits, from what the view knows (pages loaded, items shown, the total
 * the API announces when it does) and the shared price table.
 */
import { creditsFor, DEFAULT_PRICES, type PriceTable } from '../../../shared/api/pricing';
import { STALE_TIME_MS } from '../../../shared/api/cache-policy';
import type { ExportEstimate, ExportScope, ViewDescriptor } from '../../../shared/ipc/export';
import { planView } from './views';

const TYPICAL_PAGE_ITEMS = 20;

export function estimateExport(view: ViewDescriptor, scope: ExportScope, prices: PriceTable = DEFAULT_PRICES): ExportEstimate {
  const plan = planView(view);
  const minutes = Math.round(STALE_TIME_MS[plan.operation] / 60_000);
  const storeNote =
    minutes > 0
      ? `What the view loaded comes from Skein's store at no cost while it is fresh (${minutes} min); older pages are fetched again.`
      : 'This view is always fetched fresh.';
  if (scope === 'loaded' || (plan.paged && view.reachedEnd)) {
    return { paged: plan.paged, remainingPages: 0, calls: 0, credits: 0, basis: storeNote };
  }
  if (!plan.paged) {
    let credits = 0;
    for (const r of plan.requests) {
      const asked = r.idsAsked?.length;
      credits += creditsFor({ operation: plan.operation, httpStatus: 200, items: asked ?? 1, idsAsked: asked }, prices);
    }
    return {
      paged: false,
      remainingPages: plan.requests.length,
      calls: plan.requests.length,
      credits,
      basis: `${plan.requests.length} call(s); at most ${credits} credits if every id is found. ${storeNote}`,
    };
  }
  const loadedPages = Math.max(0, view.loadedPages ?? 0);
  const loadedItems = Math.max(0, view.loadedItems ?? 0);
  const pageSize = loadedPages > 0 && loadedItems > 0 ? loadedItems / loadedPages : TYPICAL_PAGE_ITEMS;
  const perPage = creditsFor({ operation: plan.operation, httpStatus: 200, items: Math.round(pageSize) }, prices);
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
  return {
    paged: true,
    remainingPages,
    calls: remainingPages,
    credits: remainingPages * perPage,
    basis: `About ${remainingItems} more items announced, ${Math.round(pageSize)} per page, about ${perPage} credits per page. The API's own total can be off; caps stop the run where you say. ${storeNote}`,
  };
}
