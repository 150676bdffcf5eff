/**
 * What a batch lookup asked for and did not get, with the reason as far as Skein knows it. The service answers a
 * batch with the items it has and says nothing of the others, so most reasons are the honest "not returned";
 * an item that came back unreadable, or a batch that failed after its retries, says so.
 */
import type { MissingId } from '../../../shared/ipc/ids';
import type { FailedFetch, PageRecord } from './journal';
import type { ViewPlan } from './views';

export const NOT_RETURNED = 'not returned (deleted, protected or suspended)';

export function missingIds(
  plan: ViewPlan,
  pages: readonly PageRecord[],
  failures: readonly FailedFetch[],
): MissingId[] {
  const reasons = new Map<string, string>();
  const answered = new Set<number>();
  for (const page of pages) {
    answered.add(page.request);
    for (const id of page.notFound) reasons.set(id, NOT_RETURNED);
    // an unreadable item is also "not found" among the readable ones: say what really happened
    for (const d of page.dropped) {
      if (d.id && reasons.has(d.id)) reasons.set(d.id, `returned, but Skein could not read it (${d.message})`);
    }
  }
  const out: MissingId[] = [...reasons].map(([id, reason]) => ({ id, reason }));
  const failed = new Map<number, FailedFetch>();
  for (const f of failures) if (!answered.has(f.request)) failed.set(f.request, f);
  for (const [request, f] of failed) {
    for (const id of plan.requests[request]?.idsAsked ?? []) {
      out.push({ id, reason: `not asked again: its batch failed (${f.message})` });
    }
  }
  return out;
}
