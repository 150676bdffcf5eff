/**
 * 6. The data path of one 20-post page, in four parts:
 *
 * - main: `handle()` of a core built here with `createCore` (the handlers the
 *   app runs: sender check, input schema, request to the sandbox, response
 *   schema, normalization, output schema), walking the big conversation page
 *   by page: cold (every page asked of the sandbox, latency 0) and again from
 *   main's response store. The sandbox's own time per request (its request
 *   log) is subtracted from the cold figure: Skein's cost, not the fake
 *   server's.
 * - IPC: Electron's ipcRenderer.invoke copies messages with the structured
 *   clone algorithm; v8.serialize + v8.deserialize of the same envelope is
 *   that copy, timed here. (The e2e host's Playwright binding is JSON over
 *   the DevTools protocol, far slower than IPC and not Skein's: shown apart.)
 * - renderer: in the app, from the answer reaching the page to the first DOM
 *   change after it (the render that shows it), for the pages the thread
 *   loaded during the bench (page.ts probe).
 * - the largest message crossing the bridge during the whole bench, either
 *   way (the host's bridge tap: JSON length of input and envelope).
 * The budget is checked on p50(main, cold, net of the sandbox) + p50(IPC) + p50(renderer).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { memorySecretStorage } from '../../e2e/host';
import { createCore } from '../../src/main/core';
import { createDispatcher, guarded } from '../../src/main/ipc/dispatch';
import { startSandbox } from '../../src/main/sandbox';
import { channelName } from '../../src/shared/ipc';
import type { BenchApp, BridgeLog } from './app';
import { BUDGETS, budget, info, type Metric } from './budgets';
import type { PageCall } from './page';
import { distribution, percentile, round } from './stats';

const SECTION = 'data path';

interface DirectResult {
  cold: number[];
  coldNetOfSandbox: number[];
  sandboxMs: number[];
  store: number[];
  cloneMs: number[];
  bytes: number[];
}

/** main's side, with the core's handlers directly (no browser). */
async function mainDirect(pages: number): Promise<DirectResult> {
  const dir = await mkdtemp(join(tmpdir(), 'skein-bench-core-'));
  const core = createCore({
    userDataDir: dir,
    secretStorage: memorySecretStorage(),
    openExternal: async () => {},
    app: { name: 'Skein', version: 'bench', platform: process.platform },
    startSandbox: (o) => startSandbox(o),
    chooseSavePath: async () => null,
    emit: () => {},
  });
  const handle = guarded(createDispatcher(core.handlers), () => true);
  const call = channelName('api', 'call');
  const out: DirectResult = { cold: [], coldNetOfSandbox: [], sandboxMs: [], store: [], cloneMs: [], bytes: [] };
  try {
    const sandbox = await core.sandbox();
    if (!sandbox) throw new Error('no demo sandbox');
    const tweetId = sandbox.examples.bigThreadPostId;
    const walk = async (into: number[], envelopes?: unknown[]) => {
      let cursor: string | null = null;
      for (let i = 0; i < pages; i++) {
        const params: Record<string, string> = { tweetId, queryType: 'Latest' };
        if (cursor) params.cursor = cursor;
        const t0 = performance.now();
        const env = (await handle(call, null, { operation: 'postRepliesV2', params, callId: `direct-${i}` }, { senderId: 1 })) as {
          ok: boolean;
          data: { paging: { nextCursor: string | null } | null };
        };
        into.push(performance.now() - t0);
        if (!env.ok) throw new Error(`page ${i}: ${JSON.stringify(env)}`);
        envelopes?.push(env);
        cursor = env.data.paging?.nextCursor ?? null;
        if (!cursor) break;
      }
    };
    // warm the code paths (JIT) on another order, then measure
    await warmUp(handle, call, tweetId);
    await fetch(`${sandbox.baseUrl}/__sandbox/requests`, { method: 'DELETE' });
    const envelopes: unknown[] = [];
    await walk(out.cold, envelopes);
    const log = (await (await fetch(`${sandbox.baseUrl}/__sandbox/requests`)).json()) as { requests: Array<{ ms: number; operation: string | null }> };
    const served = log.requests.filter((r) => r.operation === 'postRepliesV2').map((r) => r.ms);
    out.sandboxMs = served;
    out.coldNetOfSandbox = out.cold.map((ms, i) => Math.max(0, ms - (served[i] ?? 0)));
    await walk(out.store);
    for (let rep = 0; rep < 3; rep++) {
      for (const env of envelopes) {
        const t0 = performance.now();
        const buf = serialize(env);
        deserialize(buf);
        if (rep === 2) {
          out.cloneMs.push(performance.now() - t0);
          out.bytes.push(Buffer.byteLength(JSON.stringify(env)));
        }
      }
    }
  } finally {
    await core.dispose();
    await rm(dir, { recursive: true, force: true });
  }
  return out;
}

async function warmUp(handle: ReturnType<typeof guarded>, call: string, tweetId: string): Promise<void> {
  let cursor: string | null = null;
  for (let i = 0; i < 15; i++) {
    const params: Record<string, string> = { tweetId, queryType: 'Likes' };
    if (cursor) params.cursor = cursor;
    const env = (await handle(call, null, { operation: 'postRepliesV2', params, callId: `warm-${i}` }, { senderId: 1 })) as {
      ok: boolean;
      data: { paging: { nextCursor: string | null } | null };
    };
    cursor = env.ok ? (env.data.paging?.nextCursor ?? null) : null;
    if (!cursor) break;
  }
}

/** The pages the app loaded: host (main) and page (renderer) views of the same calls, joined by call id. */
export async function appCalls(app: BenchApp): Promise<PageCall[]> {
  return app.page.evaluate(() => window.__bench!.calls.filter((c) => c.operation === 'postRepliesV2' && c.items > 0));
}

export async function measureDataPath(opts: { pages: number; appCalls: PageCall[]; bridge: BridgeLog[] }): Promise<{ metrics: Metric[]; detail: Record<string, unknown> }> {
  const direct = await mainDirect(opts.pages);
  const byId = new Map(opts.bridge.flatMap((b) => [...b.byCallId()]));
  const handling: number[] = [];
  const hostBinding: number[] = [];
  const tapMain: number[] = [];
  for (const c of opts.appCalls) {
    if (c.items !== 20) continue;
    if (c.handledAt !== null) handling.push(c.handledAt - c.answeredAt);
    const rec = byId.get(c.callId);
    if (rec) {
      tapMain.push(rec.mainMs);
      hostBinding.push(Math.max(0, c.answeredAt - c.sentAt - rec.mainMs));
    }
  }
  const d = {
    mainCold: distribution(direct.cold),
    mainColdNet: distribution(direct.coldNetOfSandbox),
    sandboxServer: distribution(direct.sandboxMs),
    mainStore: distribution(direct.store),
    ipcClone: distribution(direct.cloneMs, 3),
    pageBytes: distribution(direct.bytes, 0),
    renderer: distribution(handling),
    hostBinding: distribution(hostBinding),
    tapMain: distribution(tapMain),
  };
  const p = (xs: number[]) => percentile(xs, 50);
  const parts = [p(direct.coldNetOfSandbox), p(direct.cloneMs), p(handling)];
  const total = parts.every((x) => x !== null) ? round(parts.reduce<number>((a, b) => a + (b ?? 0), 0), 2) : null;
  const largest = opts.bridge.reduce((best, b) => (b.largest.bytes > best.largest.bytes ? b : best), opts.bridge[0]!).largest;
  const metrics: Metric[] = [
    budget(
      'data.page.p50',
      SECTION,
      'one 20-post page: main (cold, net of the sandbox) + IPC copy + renderer, p50',
      total,
      'ms',
      BUDGETS.dataPathP50Ms,
      `main ${d.mainColdNet.p50} + IPC ${d.ipcClone.p50} + renderer ${d.renderer.p50} ms`,
    ),
    info('data.main.cold.p95', SECTION, 'main handle(), cold page, net of the sandbox, p95', d.mainColdNet.p95, 'ms', `with the sandbox's own time: p50 ${d.mainCold.p50}, p95 ${d.mainCold.p95} ms`),
    info('data.main.store.p50', SECTION, "main handle(), page from main's response store, p50", d.mainStore.p50, 'ms', `p95 ${d.mainStore.p95} ms`),
    info('data.ipc.p50', SECTION, 'IPC copy of a page envelope (structured clone), p50', d.ipcClone.p50, 'ms', `envelope ${Math.round((d.pageBytes.p50 ?? 0) / 1024)} KiB as JSON`),
    info('data.renderer.p50', SECTION, 'renderer: answer → DOM updated, p50', d.renderer.p50, 'ms', `p95 ${d.renderer.p95} ms over ${d.renderer.n} pages`),
    info('data.renderer.p95', SECTION, 'renderer: answer → DOM updated, p95', d.renderer.p95, 'ms'),
    info('data.hostbinding.p50', SECTION, 'e2e host only: Playwright binding round trip minus main, p50 (not Electron IPC)', d.hostBinding.p50, 'ms', `p95 ${d.hostBinding.p95} ms`),
    budget('data.largest', SECTION, 'largest single bridge message', round(largest.bytes / 1024, 1), 'KiB', BUDGETS.bridgeMessageBytes / 1024, `${largest.channel} ${largest.direction}${largest.operation ? ` (${largest.operation})` : ''}`),
  ];
  return { metrics, detail: { ...d, largest } };
}
