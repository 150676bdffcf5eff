/**
 * The app under measurement, launched through the e2e host (`launchApp`: the
 * built renderer in Chromium, `window.skein` routed to the real main handlers
 * and the embedded sandbox) or, with `--electron`, through Playwright's
 * `_electron` where a binary exists. Adds only bench-side instruments: the
 * host's bridge-call tap (time in main, message sizes), the in-page probe
 * (see page.ts) and a CDP session for forced GC and heap figures.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, CDPSession, Page } from '@playwright/test';
import { electronBinary, launchElectronApp } from '../../e2e/fixtures/electron';
import { launchApp, launchChromium, RENDERER_DIR, type BridgeCall, type SkeinApp } from '../../e2e/host';
import type { SandboxOptions } from '../../src/sandbox';
import type { DemoExamples } from '../../src/shared/ipc/app';
import { probeSource } from './page';
import { MiB, round } from './stats';

export type Target = 'chromium-host' | 'electron';

/** What the bench needs before it can start, or why it cannot. */
export function checkBuilt(target: Target): string | null {
  if (!existsSync(join(RENDERER_DIR, 'index.html')))
    return `No built renderer in ${RENDERER_DIR}: run \`npm run build\` first.`;
  if (target === 'electron') {
    const bin = electronBinary();
    if ('missing' in bin) return `Electron binary not available (${bin.missing}).`;
  }
  return null;
}

/** A bridge call as the bench keeps it (the messages themselves are not kept). */
export interface BridgeRecord {
  channel: string;
  callId: string | null;
  operation: string | null;
  mainMs: number;
  inputBytes: number;
  outputBytes: number;
  fromCache: boolean | null;
  items: number;
}

export class BridgeLog {
  readonly records: BridgeRecord[] = [];
  largest: { bytes: number; channel: string; direction: 'to main' | 'to renderer'; operation: string | null } = {
    bytes: 0,
    channel: '',
    direction: 'to renderer',
    operation: null,
  };
  total = 0;

  add(call: BridgeCall): void {
    const input = (call.input ?? {}) as { callId?: unknown; operation?: unknown };
    const env = call.output as { ok?: boolean; data?: { items?: unknown[]; meta?: { fromCache?: boolean } } } | null;
    const inputBytes = Buffer.byteLength(JSON.stringify(call.input ?? null));
    const outputBytes = Buffer.byteLength(JSON.stringify(call.output ?? null));
    const operation = typeof input.operation === 'string' ? input.operation : null;
    const rec: BridgeRecord = {
      channel: call.channel,
      callId: typeof input.callId === 'string' ? input.callId : null,
      operation,
      mainMs: call.mainMs,
      inputBytes,
      outputBytes,
      fromCache: env?.ok ? Boolean(env.data?.meta?.fromCache) : null,
      items: env?.ok && Array.isArray(env.data?.items) ? env.data.items.length : 0,
    };
    this.total++;
    if (this.records.length < 50_000) this.records.push(rec);
    if (inputBytes > this.largest.bytes)
      this.largest = { bytes: inputBytes, channel: call.channel, direction: 'to main', operation };
    if (outputBytes > this.largest.bytes)
      this.largest = { bytes: outputBytes, channel: call.channel, direction: 'to renderer', operation };
  }

  byCallId(): Map<string, BridgeRecord> {
    const m = new Map<string, BridgeRecord>();
    for (const r of this.records) if (r.callId) m.set(r.callId, r);
    return m;
  }
}

export interface Ledger {
  calls: number;
  credits: number;
}

export interface BenchApp {
  target: Target;
  page: Page;
  cdp: CDPSession;
  bridge: BridgeLog;
  examples: DemoExamples;
  /** the demo sandbox's control plane; null under Electron (the app's own sandbox is out of reach) */
  sandboxUrl: string | null;
  ledger: () => Promise<Ledger | null>;
  /** heap after a forced GC, MiB */
  heap: () => Promise<{ usedMb: number; jsHeapUsedMb: number | null }>;
  /** a fresh renderer (reload): empty query cache; main, its response store and the sandbox stay */
  reload: () => Promise<void>;
  goto: (hash: string) => Promise<void>;
  close: () => Promise<void>;
}

export interface OpenOptions {
  target: Target;
  browser?: Browser;
  sandbox?: Omit<SandboxOptions, 'port'>;
}

export async function openApp(options: OpenOptions): Promise<BenchApp> {
  const bridge = new BridgeLog();
  let app: SkeinApp;
  if (options.target === 'electron') app = await launchElectronApp({});
  // isolated: the page's clock resolves 5 µs (100 µs otherwise), so one page's ~1 ms in the renderer is not read in tenths
  else
    app = await launchApp({
      browser: options.browser,
      sandbox: options.sandbox,
      onBridgeCall: (c) => bridge.add(c),
      crossOriginIsolated: true,
    });
  const { page } = app;
  // the bench's probe, in its own context only (Electron: on this page)
  if (options.target === 'electron') await page.addInitScript({ content: probeSource() });
  else await page.context().addInitScript({ content: probeSource() });
  await page.evaluate(probeSource());
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const examples = await page.evaluate(async () => {
    const res = (await (
      window as unknown as { skein: { demo: { examples: () => Promise<unknown> } } }
    ).skein.demo.examples()) as { ok: boolean; data: unknown };
    if (!res.ok) throw new Error('no demo examples');
    return res.data;
  });
  const sandboxUrl = (await app.host?.sandboxUrl()) ?? null;

  return {
    target: options.target,
    page,
    cdp,
    bridge,
    examples: examples as DemoExamples,
    sandboxUrl,
    ledger: async () => {
      if (!sandboxUrl) return null;
      const res = await fetch(`${sandboxUrl}/__sandbox/usage`);
      const body = (await res.json()) as { totals: { calls: number; credits: number } };
      return { calls: body.totals.calls, credits: body.totals.credits };
    },
    heap: async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      await cdp.send('HeapProfiler.collectGarbage');
      const usage = await cdp.send('Runtime.getHeapUsage');
      const metrics = await cdp.send('Performance.getMetrics');
      const js = metrics.metrics.find((m) => m.name === 'JSHeapUsedSize')?.value;
      return { usedMb: round(usage.usedSize / MiB, 1), jsHeapUsedMb: js === undefined ? null : round(js / MiB, 1) };
    },
    reload: async () => {
      await page.reload();
      await page.waitForFunction(() => Boolean(window.__bench) && document.querySelector('main') !== null);
    },
    goto: async (hash: string) => {
      await page.evaluate((h) => {
        window.location.hash = h;
      }, hash);
    },
    close: () => app.close(),
  };
}

export { launchChromium };

/** `#/post/<id>/replies` in one of the API's orders. */
export function threadHash(postId: string, order: 'Relevance' | 'Latest' | 'Likes' = 'Relevance'): string {
  return `#/post/${postId}/replies${order === 'Relevance' ? '' : `?order=${order}`}`;
}

/** Wait for the replies list to show its first card. */
export async function waitForList(page: Page, timeoutMs = 60_000): Promise<void> {
  await page.waitForSelector('main .vlist article[data-post-id]', { timeout: timeoutMs });
}

/**
 * Fill main's response store with a thread's pages by calling the bridge from
 * the page, as the renderer would, without the renderer keeping anything:
 * the scroll runs then measure rendering, not the network.
 */
export async function preloadThread(
  page: Page,
  postId: string,
  order: string,
  maxPages: number,
): Promise<{ pages: number; items: number; ms: number }> {
  return page.evaluate(
    async ({ postId, order, maxPages }) => {
      const api = (
        window as unknown as {
          skein: {
            api: {
              call: (
                i: unknown,
              ) => Promise<{ ok: boolean; data: { items: unknown[]; paging: { nextCursor: string | null } | null } }>;
            };
          };
        }
      ).skein.api;
      const t0 = performance.now();
      let cursor: string | null = null;
      let pages = 0;
      let items = 0;
      do {
        const params: Record<string, string> = { tweetId: postId, queryType: order };
        if (cursor) params.cursor = cursor;
        const res = await api.call({ operation: 'postRepliesV2', params, callId: `bench-preload-${pages}` });
        if (!res.ok) throw new Error(`preload failed on page ${pages}`);
        pages++;
        items += res.data.items.length;
        cursor = res.data.paging?.nextCursor ?? null;
      } while (cursor && pages < maxPages);
      return { pages, items, ms: performance.now() - t0 };
    },
    { postId, order, maxPages },
  );
}
