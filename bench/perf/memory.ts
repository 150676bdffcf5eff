/**
 * 3. DOM size and 4. renderer heap, in sessions that load the thread through
 * the app itself (holding End: page.ts `loadUntil`).
 *
 * - DOM: elements in the whole page and in the list (`.vlist`) after 100,
 *   1,000 and 10,000 replies arrived, at the bottom and three screens above
 *   it; the larger is reported. (Elements, as Lighthouse's DOM-size audit
 *   counts them.)
 * - Heap: `HeapProfiler.collectGarbage` (twice) then `Runtime.getHeapUsage`
 *   (used JS heap, MiB) and `Performance.getMetrics` JSHeapUsedSize, after 1k
 *   and 10k replies in one session; then back to the top, GC, a full round
 *   trip (down to the end marker and back up, big steps, every page on the
 *   way), GC: growth = after / before − 1. The sandbox ledger is read around
 *   the round trip: pages the renderer let go must come back from main's
 *   response store (`meta.fromCache`), never as a new paid call.
 * - 100k: a second app whose sandbox grows the conversation to 100,000
 *   replies; the replies are loaded the same way, then heap after GC; then
 *   the reader goes all the way back to the top (past what main keeps in
 *   memory: the rest comes from the research project on disk) and the ledger must not move.
 */
import type { Browser, Page } from '@playwright/test';
import { openApp, threadHash, waitForList, type BenchApp, type Target } from './app';
import { BUDGETS, budget, info, skipped, type Metric } from './budgets';
import { domCounts, loadUntil, roundTrip, toTop } from './page';
import { round } from './stats';

const DOM = 'dom';
const HEAP = 'heap';

async function domMax(page: Page): Promise<{ page: number; list: number; rows: number }> {
  const atBottom = await page.evaluate(domCounts);
  await page.evaluate(() => {
    const m = document.querySelector('main')!;
    m.scrollTop = Math.max(0, m.scrollTop - m.clientHeight * 3);
  });
  await page.waitForTimeout(400);
  const above = await page.evaluate(domCounts);
  return {
    page: Math.max(atBottom.page, above.page),
    list: Math.max(atBottom.list, above.list),
    rows: Math.max(atBottom.rows, above.rows),
  };
}

async function pageCallsSince(page: Page, since: number): Promise<{ calls: number; fromCache: number }> {
  return page.evaluate((from) => {
    const calls = window.__bench!.calls.slice(from).filter((c) => c.operation === 'postRepliesV2');
    return { calls: calls.length, fromCache: calls.filter((c) => c.fromCache).length };
  }, since);
}

export async function measureDomAndHeap(
  app: BenchApp,
): Promise<{ metrics: Metric[]; detail: Record<string, unknown> }> {
  const { page } = app;
  const metrics: Metric[] = [];
  const detail: Record<string, unknown> = {};
  await app.reload();
  await app.goto(threadHash(app.examples.bigThreadPostId));
  await waitForList(page);
  detail.heapAtFirstPage = await app.heap();

  for (const target of [100, 1_000, 10_000]) {
    // the last one goes to the end marker: the round trip then re-reads pages, it asks for none never seen
    const loaded = await page.evaluate(loadUntil, {
      operation: 'postRepliesV2',
      target,
      timeoutMs: 240_000,
      toEnd: target === 10_000,
    });
    await page.waitForTimeout(400);
    const dom = await domMax(page);
    const label = target.toLocaleString('en-US');
    metrics.push(
      budget(
        `dom.${target}.page`,
        DOM,
        `elements in the page, ${label} replies loaded`,
        dom.page,
        'elements',
        BUDGETS.domNodes,
        `${loaded.items} replies arrived in ${round(loaded.ms / 1000, 1)} s`,
      ),
      info(
        `dom.${target}.list`,
        DOM,
        `elements in the list, ${label} replies loaded`,
        dom.list,
        'elements',
        `${dom.rows} rows rendered`,
      ),
    );
    detail[`load${target}`] = { ...loaded, dom };
    if (target >= 1_000) {
      const heap = await app.heap();
      detail[`heap${target}`] = heap;
      metrics.push(
        info(
          `heap.${target}`,
          HEAP,
          `renderer heap after GC, ${label} replies loaded`,
          heap.usedMb,
          'MiB',
          heap.jsHeapUsedMb === null ? undefined : `JSHeapUsedSize ${heap.jsHeapUsedMb} MiB`,
        ),
      );
    }
  }

  // the pages that grew the list (next-page loads), for the data path's renderer part
  detail.loadCalls = await page.evaluate(() =>
    window.__bench!.calls.filter((c) => c.operation === 'postRepliesV2' && c.items > 0),
  );

  // the 10k round trip
  const top = await page.evaluate(toTop, { stepPx: 4000, timeoutMs: 180_000 });
  const before = await app.heap();
  const ledgerBefore = await app.ledger();
  const callsFrom = await page.evaluate(() => window.__bench!.calls.length);
  const trip = await page.evaluate(roundTrip, { stepPx: 3000, timeoutMs: 240_000 });
  const after = await app.heap();
  const ledgerAfter = await app.ledger();
  const tripCalls = await pageCallsSince(page, callsFrom);
  const growth = before.usedMb > 0 ? (after.usedMb - before.usedMb) / before.usedMb : null;
  detail.roundTrip = { top, trip, before, after, ledgerBefore, ledgerAfter, tripCalls };
  const tripNote = `${round(trip.ms / 1000, 1)} s, ${trip.down ? 'reached the end' : 'did NOT reach the end'}, ${trip.up ? 'back at the top' : 'NOT back at the top'}; heap ${before.usedMb} → ${after.usedMb} MiB`;
  metrics.push(
    budget(
      'heap.roundtrip.growth',
      HEAP,
      'heap growth after a 10k scroll round trip',
      growth === null ? null : round(growth * 100, 1),
      '%',
      BUDGETS.heapGrowth * 100,
      tripNote,
    ),
  );
  if (ledgerBefore && ledgerAfter) {
    metrics.push(
      budget(
        'heap.roundtrip.paid',
        HEAP,
        'new paid API calls during the round trip (sandbox ledger)',
        ledgerAfter.calls - ledgerBefore.calls,
        'calls',
        0,
        `${tripCalls.calls} page calls by the renderer, ${tripCalls.fromCache} answered from main's store; ${ledgerAfter.credits - ledgerBefore.credits} credits`,
      ),
    );
  }
  return { metrics, detail };
}

export async function measureHeap100k(opts: {
  target: Target;
  browser?: Browser;
  timeoutMs: number;
  backTimeoutMs: number;
  pageSize: number | null;
}): Promise<{ metrics: Metric[]; detail: Record<string, unknown> }> {
  const app: BenchApp = await openApp({
    target: opts.target,
    browser: opts.browser,
    sandbox: { size: { bigThreadReplies: 100_000 } },
  });
  try {
    const { page } = app;
    if (opts.pageSize && app.sandboxUrl) {
      await fetch(`${app.sandboxUrl}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ fault: `page-size;n=${opts.pageSize}`, operations: ['postRepliesV2'] }),
      });
    }
    await app.goto(threadHash(app.examples.bigThreadPostId));
    await waitForList(page);
    const loaded = await page.evaluate(loadUntil, {
      operation: 'postRepliesV2',
      target: 100_000,
      timeoutMs: opts.timeoutMs,
    });
    await page.waitForTimeout(500);
    const heap = await app.heap();
    const dom = await page.evaluate(domCounts);
    const metrics: Metric[] = [];
    const note = `${loaded.items.toLocaleString('en-US')} replies arrived in ${round(loaded.ms / 1000, 1)} s${opts.pageSize ? ` (pages of ${opts.pageSize} via the sandbox's page-size quirk, to load faster)` : ''}`;
    if (loaded.items >= 100_000)
      metrics.push(
        budget(
          'heap.100k',
          HEAP,
          'renderer heap after GC, 100k replies loaded in the session',
          heap.usedMb,
          'MiB',
          BUDGETS.heap100kMiB,
          note,
        ),
      );
    else {
      const extrapolated = round((heap.usedMb / Math.max(1, loaded.items)) * 100_000, 0);
      metrics.push(
        budget(
          'heap.100k',
          HEAP,
          'renderer heap after GC, 100k replies (extrapolated linearly: the load timed out)',
          extrapolated,
          'MiB',
          BUDGETS.heap100kMiB,
          `${note}; measured ${heap.usedMb} MiB`,
        ),
      );
    }
    metrics.push(info('dom.100k.page', DOM, 'elements in the page, 100k-reply session', dom.page, 'elements'));

    // all the way back to the top: every page the renderer let go must come from main's store
    // (the newest in memory, the older ones from the project on disk), never as a new paid call
    const ledgerBefore = await app.ledger();
    const from = await page.evaluate(() => window.__bench!.calls.length);
    const top = await page.evaluate(toTop, { stepPx: 8000, timeoutMs: opts.backTimeoutMs });
    const ledgerAfter = await app.ledger();
    const back = await pageCallsSince(page, from);
    if (ledgerBefore && ledgerAfter) {
      metrics.push(
        budget(
          'heap.100k.paid',
          HEAP,
          'new paid API calls scrolling back to the top of the 100k session (sandbox ledger)',
          ledgerAfter.calls - ledgerBefore.calls,
          'calls',
          0,
          `${back.calls} page calls by the renderer going back up (${top.reached ? 'reached the top' : 'did NOT reach the top'} in ${round(top.ms / 1000, 1)} s), ${back.fromCache} from main's store`,
        ),
      );
    } else
      metrics.push(
        skipped(
          'heap.100k.paid',
          HEAP,
          'new paid API calls scrolling back up (sandbox ledger)',
          'calls',
          0,
          'no sandbox ledger',
        ),
      );
    return { metrics, detail: { loaded, heap, dom, ledgerBefore, ledgerAfter, back, top } };
  } finally {
    await app.close();
  }
}
