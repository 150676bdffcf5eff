/**
 * 5. Time to first content: route change → first post card painted (page.ts
 * `timeToFirstCard`: the hash is set, a MutationObserver sees the first card
 * of the new view commit, then the frame that paints it: rAF + a task).
 * Cold: posts never opened in this session (renderer cache and main's store
 * both empty for them; the sandbox answers with no added latency). From
 * cache: the same posts opened again (TanStack Query still holds them).
 * Between two openings the app goes to Settings (a view without cards).
 */
import type { BenchApp } from './app';
import { BUDGETS, budget, info, type Metric } from './budgets';
import { timeToFirstCard } from './page';
import { distribution } from './stats';

const SECTION = 'first content';

async function samplePostIds(app: BenchApp, n: number): Promise<string[]> {
  // posts of the big conversation the app has not opened: a page from the bench's own bridge call
  return app.page.evaluate(
    async ({ postId, n }) => {
      const api = (
        window as unknown as {
          skein: { api: { call: (i: unknown) => Promise<{ ok: boolean; data: { items: Array<{ id: string }> } }> } };
        }
      ).skein.api;
      const res = await api.call({
        operation: 'postRepliesV2',
        params: { tweetId: postId, queryType: 'Likes' },
        callId: 'bench-sample',
      });
      return res.ok
        ? res.data.items
            .map((p) => p.id)
            .filter((id) => id !== postId)
            .slice(0, n)
        : [];
    },
    { postId: app.examples.bigThreadPostId, n },
  );
}

export async function measureFirstContent(
  app: BenchApp,
  runs: number,
): Promise<{ metrics: Metric[]; detail: Record<string, unknown> }> {
  const { page } = app;
  await app.reload();
  const ids = await samplePostIds(app, runs);
  const cold: number[] = [];
  const cached: number[] = [];
  const commits: { cold: number[]; cached: number[] } = { cold: [], cached: [] };
  const between = async () => {
    await app.goto('#/settings');
    await page.waitForSelector('main h1');
    await page.waitForTimeout(150);
  };
  for (const pass of ['cold', 'cached'] as const) {
    for (const id of ids) {
      await between();
      const t = await page.evaluate(timeToFirstCard, `#/post/${id}/replies`);
      if (!t) continue;
      (pass === 'cold' ? cold : cached).push(t.ms);
      commits[pass].push(t.commitMs);
      await page.waitForTimeout(200);
    }
  }
  const c = distribution(cold, 1);
  const k = distribution(cached, 1);
  return {
    metrics: [
      budget(
        'first.cache.p50',
        SECTION,
        `route change → first card painted, from cache (p50 of ${k.n})`,
        k.p50,
        'ms',
        BUDGETS.firstContentFromCacheMs,
        `max ${k.max} ms`,
      ),
      info(
        'first.cold.p50',
        SECTION,
        `route change → first card painted, cold (p50 of ${c.n}; sandbox latency 0)`,
        c.p50,
        'ms',
        `max ${c.max} ms`,
      ),
    ],
    detail: {
      cold: c,
      cached: k,
      commitMs: { cold: distribution(commits.cold, 1), cached: distribution(commits.cached, 1) },
    },
  };
}
