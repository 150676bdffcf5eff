/**
 * 6. The data path of one 20-post page, in four parts:
 *
 * - main: `handle()` of a core built here with `createCore` (the handlers the
 *   app runs: sender check, input schema, request building, response parsing
 *   and schema, normalization, paging guards, output schema), walking the big
 *   conversation page by page: cold (every page asked of the sandbox, latency
 *   0) and again from main's response store. The core's `fetch` is timed
 *   (answer read in full, then handed back as a new Response): that network
 *   time, the sandbox's work and the bench's wrapping included, is taken out
 *   of the cold figure: Skein's cost, not the server's. Skein still reads the
 *   body from that Response (stream, size cap, decoding): counted as main's.
 * - IPC: Electron's ipcRenderer.invoke copies messages with the structured
 *   clone algorithm; v8.serialize + v8.deserialize of the same envelope is
 *   that copy, timed here. (The e2e host is the browser shell: JSON over
 *   HTTP on 127.0.0.1, far slower than IPC and not Electron's: shown apart.)
 * - renderer: in the app, from the answer reaching the page (parsed) to the
 *   commit that puts it in the list (the list's aria-busy dropping as
 *   "loading more" ends; page.ts probe), one page at a time on a quiet page:
 *   the reader stays far above the end of the list, the list's "Load more"
 *   button asks for the next page (from main's store), nothing else moves
 *   until it is committed. 24 pairs of pages from the start of the thread (within the
 *   thread's window of 50 pages: see `rendererQuiet`), then 20 more past 5,000 replies (the outline the rows are built from is then
 *   5,000 long). Alongside, the renderer main thread's CPU time per page
 *   (CDP ThreadTime, click to commit and the "loading more" skeleton frames
 *   included; independent of the machine's load), and, as information, the
 *   same latency for the pages loaded while scrolling (DOM section: they wait
 *   behind the frames being drawn).
 * - the largest message crossing the bridge during the whole bench, either
 *   way (the host's bridge tap: JSON length of input and envelope).
 * The budget is on the renderer: a page arriving costs its main thread at most 4 ms of CPU at p95. Measured
 * load-independently with ThreadTime: the probe holds a parsed answer until the "loading more" frames are over,
 * then hands it to the app (`arrive`) and waits for its commit and two frames; the same wait with nothing
 * handed over is taken off. The sum of the parts (main + IPC + renderer, p50) is information. Beside it, measured
 * the same way right after each page, the browser's own floor under that budget: the two changes of a page that the
 * reader sees (the status bar's call count, the list's height) made by hand, with no script of Skein's, so what a
 * page costs beyond them is React's commit and Skein's own work.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { memorySecretStorage } from '../../e2e/host';
import { createCore } from '../../src/core';
import { createDispatcher, guarded } from '../../src/core/bridge/dispatch';
import { startSandbox } from '../../src/sandbox';
import { channelName } from '../../src/shared/ipc';
import { threadHash, waitForList, type BenchApp, type BridgeLog } from './app';
import { BUDGETS, budget, info, type Metric } from './budgets';
import { loadUntil, type PageCall } from './page';
import { distribution, percentile, round } from './stats';

const SECTION = 'data path';
/** how much the list's box grows in the floor below: about what a page of 20 replies adds */
const FLOOR_GROWTH_PX = 1500;

interface DirectResult {
  cold: number[];
  coldNet: number[];
  networkMs: number[];
  store: number[];
  cloneMs: number[];
  bytes: number[];
}

/** main's side, with the core's handlers directly (no browser). */
async function mainDirect(pages: number): Promise<DirectResult> {
  const dir = await mkdtemp(join(tmpdir(), 'skein-bench-core-'));
  let network = 0;
  const timedFetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const t0 = performance.now();
    const res = await fetch(url, init);
    const body = new Uint8Array(await res.arrayBuffer());
    // the answer handed back as fetch hands it (a Response): building it is the bench's, counted with the network
    const answer = new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    network += performance.now() - t0;
    return answer;
  };
  const core = createCore({
    fetch: timedFetch,
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
  const out: DirectResult = { cold: [], coldNet: [], networkMs: [], store: [], cloneMs: [], bytes: [] };
  try {
    const sandbox = await core.sandbox();
    if (!sandbox) throw new Error('no demo sandbox');
    const tweetId = sandbox.examples.bigThreadPostId;
    const walk = async (into: number[], envelopes?: unknown[], net?: number[]) => {
      let cursor: string | null = null;
      for (let i = 0; i < pages; i++) {
        const params: Record<string, string> = { tweetId, queryType: 'Latest' };
        if (cursor) params.cursor = cursor;
        network = 0;
        const t0 = performance.now();
        const env = (await handle(
          call,
          null,
          { operation: 'postRepliesV2', params, callId: `direct-${i}` },
          { senderId: 1 },
        )) as {
          ok: boolean;
          data: { paging: { nextCursor: string | null } | null };
        };
        into.push(performance.now() - t0);
        net?.push(network);
        if (!env.ok) throw new Error(`page ${i}: ${JSON.stringify(env)}`);
        envelopes?.push(env);
        cursor = env.data.paging?.nextCursor ?? null;
        if (!cursor) break;
      }
    };
    // warm the code paths (JIT) on another order, then measure
    await warmUp(handle, call, tweetId);
    const envelopes: unknown[] = [];
    await walk(out.cold, envelopes, out.networkMs);
    out.coldNet = out.cold.map((ms, i) => Math.max(0, ms - (out.networkMs[i] ?? 0)));
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
    const env = (await handle(
      call,
      null,
      { operation: 'postRepliesV2', params, callId: `warm-${i}` },
      { senderId: 1 },
    )) as {
      ok: boolean;
      data: { paging: { nextCursor: string | null } | null };
    };
    cursor = env.ok ? (env.data.paging?.nextCursor ?? null) : null;
    if (!cursor) break;
  }
}

/**
 * In the page: ask for the next page on a quiet page and wait until it is in.
 * The reader stays where it is, far above the end of the list, and the list's
 * own "Load more" button asks (so the page is taken in without drawing a
 * card). Resolves false when no page came.
 */
function quietPage(): Promise<boolean> {
  const probe = window.__bench!;
  const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));
  const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
  return (async () => {
    const more = document.querySelector<HTMLButtonElement>('.list-more button');
    if (!more) return false;
    more.click();
    let waited = 0;
    while (probe.inFlight === 0 && waited++ < 60) await frame();
    if (probe.inFlight === 0) return false;
    while (probe.inFlight > 0) await frame();
    await frame();
    await pause(250);
    return true;
  })();
}

/**
 * In the page: as `quietPage`, but the answer is held by the probe once parsed; resolves when it is held and
 * the "loading more" frames are over (true), or false when no page came. `arrive` then hands it to the app.
 */
function heldPage(): Promise<boolean> {
  const probe = window.__bench!;
  const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));
  const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
  return (async () => {
    const more = document.querySelector<HTMLButtonElement>('.list-more button');
    if (!more) return false;
    probe.hold = true;
    more.click();
    let waited = 0;
    while (probe.held === 0 && waited++ < 300) await frame();
    if (probe.held === 0) {
      probe.release();
      return false;
    }
    await frame();
    await pause(150);
    return true;
  })();
}

/** In the page: hand the held answer to the app (`release` = true), then wait for the commit and two frames. */
function arrive(release: boolean): Promise<void> {
  const probe = window.__bench!;
  const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));
  return (async () => {
    if (release) probe.release();
    while (probe.inFlight > 0) await frame();
    await frame();
    await frame();
  })();
}

/**
 * In the page: the two smallest changes a page arriving makes that the reader sees, made by hand with no script of
 * Skein's: the status bar's call count gets a new number and the list's box grows by about a page of rows (what
 * the scrollbar shows). `undo` puts both back. Then two frames, as `arrive` waits.
 */
function smallestChange({ step, growth }: { step: 'change' | 'undo' | 'none'; growth: number }): Promise<boolean> {
  const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));
  return (async () => {
    const count = [...document.querySelectorAll('footer strong')].find((el) =>
      el.parentElement?.textContent?.startsWith('Calls this session'),
    );
    // virtua's box of the rows: its height is the list's
    const box = document.querySelector<HTMLElement>('.vlist > div');
    const text = count?.firstChild;
    // without either there is nothing to change: said, so that no floor of nothing is measured
    if (!box || !(text instanceof Text)) return false;
    if (step !== 'none') {
      const w = window as unknown as { __floor?: { text: string; height: string } };
      if (step === 'change') {
        w.__floor = { text: text.data, height: box.style.height };
        text.data = String(Number(text.data) + 1);
        box.style.height = `${box.getBoundingClientRect().height + growth}px`;
      } else if (w.__floor) {
        text.data = w.__floor.text;
        box.style.height = w.__floor.height;
      }
    }
    await frame();
    await frame();
    return true;
  })();
}

interface QuietSample {
  /** answer → committed in the list, ms */
  latency: number[];
  /** the renderer main thread's CPU time per page (ThreadTime), ms */
  cpu: number[];
  /** main-thread CPU from handing the answer to the app to the second frame after it, net of idle frames, ms */
  busy: number[];
  /** the same for the browser alone making the least a page changes (`smallestChange`), right after each page */
  floor: number[];
}

/** Renderer handling of a page, one page at a time on a quiet page (see the header). */
async function rendererQuiet(app: BenchApp): Promise<{ shallow: QuietSample; deep: QuietSample; isolated: boolean }> {
  const { page } = app;
  await app.reload();
  await app.goto(threadHash(app.examples.bigThreadPostId));
  await waitForList(page);
  await page.waitForTimeout(500);
  const threadTime = async () =>
    (await app.cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime')?.value ?? 0;
  const change = (step: 'change' | 'undo' | 'none') => page.evaluate(smallestChange, { step, growth: FLOOR_GROWTH_PX });
  const floorSample = async (): Promise<number | null> => {
    const a0 = await threadTime();
    if (!(await change('change'))) return null;
    const a1 = await threadTime();
    await change('undo');
    await page.waitForTimeout(150);
    const b0 = await threadTime();
    await change('none');
    const b1 = await threadTime();
    await page.waitForTimeout(100);
    return Math.max(0, (a1 - a0 - (b1 - b0)) * 1000);
  };
  const sample = async (count: number): Promise<QuietSample> => {
    const out: QuietSample = { latency: [], cpu: [], busy: [], floor: [] };
    for (let i = 0; i < count; i++) {
      const from = await page.evaluate(() => window.__bench!.calls.length);
      const t0 = await threadTime();
      if (!(await page.evaluate(quietPage))) break;
      const t1 = await threadTime();
      const calls = await page.evaluate(
        (f) => window.__bench!.calls.slice(f).filter((c) => c.operation === 'postRepliesV2'),
        from,
      );
      const c = calls[0];
      if (calls.length !== 1 || !c || c.items !== 20 || c.handledAt === null) continue;
      out.latency.push(c.handledAt - c.answeredAt);
      out.cpu.push((t1 - t0) * 1000);
      // the page arriving alone: its answer held until the "loading more" frames are over, then
      // handed over; minus the same wait with nothing handed over (the frames and the bench's own calls)
      const held = await page.evaluate(() => window.__bench!.calls.length);
      if (!(await page.evaluate(heldPage))) continue;
      const a0 = await threadTime();
      await page.evaluate(arrive, true);
      const a1 = await threadTime();
      await page.waitForTimeout(250);
      const b0 = await threadTime();
      await page.evaluate(arrive, false);
      const b1 = await threadTime();
      await page.waitForTimeout(100);
      // as above: a page that brought another call with it did not arrive alone
      const heldCalls = await page.evaluate(
        (f) => window.__bench!.calls.slice(f).filter((c) => c.operation === 'postRepliesV2').length,
        held,
      );
      if (heldCalls === 1) out.busy.push(Math.max(0, (a1 - a0 - (b1 - b0)) * 1000));
      // right after, on the page as it now is, the browser alone making the least a page changes
      const floor = await floorSample();
      if (floor !== null) out.floor.push(floor);
    }
    return out;
  };
  // cross-origin isolated, the page's clock resolves 5 µs; otherwise Chromium coarsens it to 100 µs
  const isolated = await page.evaluate(() => crossOriginIsolated);
  // 24 pairs: pages 2 to 49 of the thread. Its view keeps a window of 50 pages; the next page, asked by this
  // bench's reader who stays at the top, would let the first page go from under the rows on screen, which then wait
  // for it and bring it back (two calls, a page's rows drawn twice): no reader asks for a page from there, since
  // "Load more" and the near-end load are at the end of the list
  const shallow = await sample(24);
  await page.evaluate(loadUntil, { operation: 'postRepliesV2', target: 5000, timeoutMs: 120_000 });
  // three screens up: the end is beyond the "load more" distance again
  await page.evaluate(() => {
    const m = document.querySelector('main')!;
    m.scrollTop -= m.clientHeight * 3;
  });
  await page.waitForTimeout(800);
  const deep = await sample(20);
  return { shallow, deep, isolated };
}

export async function measureDataPath(opts: {
  pages: number;
  app: BenchApp | null;
  appCalls: PageCall[];
  bridge: BridgeLog[];
}): Promise<{ metrics: Metric[]; detail: Record<string, unknown> }> {
  const none: QuietSample = { latency: [], cpu: [], busy: [], floor: [] };
  const quiet = opts.app ? await rendererQuiet(opts.app) : { shallow: none, deep: none, isolated: false };
  const handling = [...quiet.shallow.latency, ...quiet.deep.latency];
  const cpu = [...quiet.shallow.cpu, ...quiet.deep.cpu];
  const busy = [...quiet.shallow.busy, ...quiet.deep.busy];
  const direct = await mainDirect(opts.pages);
  const byId = new Map(opts.bridge.flatMap((b) => [...b.byCallId()]));
  const scrolling: number[] = [];
  const hostBinding: number[] = [];
  const tapMain: number[] = [];
  for (const c of opts.appCalls) {
    if (c.items !== 20) continue;
    if (c.handledAt !== null) scrolling.push(c.handledAt - c.answeredAt);
    const rec = byId.get(c.callId);
    if (rec) {
      tapMain.push(rec.mainMs);
      hostBinding.push(Math.max(0, c.answeredAt - c.sentAt - rec.mainMs));
    }
  }
  const d = {
    mainCold: distribution(direct.cold),
    mainColdNet: distribution(direct.coldNet),
    network: distribution(direct.networkMs),
    mainStore: distribution(direct.store),
    ipcClone: distribution(direct.cloneMs, 3),
    pageBytes: distribution(direct.bytes, 0),
    renderer: distribution(handling),
    rendererDeep: distribution(quiet.deep.latency),
    rendererCpu: distribution(cpu),
    rendererCpuDeep: distribution(quiet.deep.cpu),
    rendererBusy: distribution(busy, 2),
    rendererBusyDeep: distribution(quiet.deep.busy, 2),
    // each page in the order it came (30 from the start, then 20 past 5,000): which pages the p95 is made of
    rendererBusySamples: busy.map((ms) => round(ms, 2)),
    browserFloor: distribution([...quiet.shallow.floor, ...quiet.deep.floor], 2),
    rendererWhileScrolling: distribution(scrolling),
    hostBinding: distribution(hostBinding),
    tapMain: distribution(tapMain),
  };
  const p = (xs: number[]) => percentile(xs, 50);
  const parts = [p(direct.coldNet), p(direct.cloneMs), p(handling)];
  const total = parts.every((x) => x !== null)
    ? round(
        parts.reduce<number>((a, b) => a + (b ?? 0), 0),
        2,
      )
    : null;
  const largest = opts.bridge.reduce(
    (best, b) => (b.largest.bytes > best.largest.bytes ? b : best),
    opts.bridge[0]!,
  ).largest;
  const metrics: Metric[] = [
    budget(
      'data.renderer.arrival.p95',
      SECTION,
      'a page arriving: renderer main-thread CPU, answer handed over → 2 frames after it, p95',
      d.rendererBusy.p95,
      'ms',
      BUDGETS.pageArrivalP95Ms,
      `p50 ${d.rendererBusy.p50} ms over ${d.rendererBusy.n} pages; past 5,000 replies p95 ${d.rendererBusyDeep.p95} ms; ${worstPage(busy)}`,
    ),
    info(
      'data.renderer.floor.p95',
      SECTION,
      "the browser alone, the least a page changes (the call count's text, the list's box a page taller; no script of Skein's), measured as a page arriving, p95",
      d.browserFloor.p95,
      'ms',
      `p50 ${d.browserFloor.p50} ms over ${d.browserFloor.n} changes: what a page arriving costs before React commits anything`,
    ),
    info(
      'data.page.p50',
      SECTION,
      'one 20-post page: main (cold, net of the network) + IPC copy + renderer, p50',
      total,
      'ms',
      `main ${d.mainColdNet.p50} + IPC ${d.ipcClone.p50} + renderer ${d.renderer.p50} ms`,
    ),
    info(
      'data.main.cold.p95',
      SECTION,
      'main handle(), cold page, net of the network, p95',
      d.mainColdNet.p95,
      'ms',
      `with the request to the sandbox (its work included): p50 ${d.mainCold.p50}, p95 ${d.mainCold.p95} ms`,
    ),
    info(
      'data.main.store.p50',
      SECTION,
      "main handle(), page from main's response store, p50",
      d.mainStore.p50,
      'ms',
      `p95 ${d.mainStore.p95} ms`,
    ),
    info(
      'data.ipc.p50',
      SECTION,
      'IPC copy of a page envelope (structured clone), p50',
      d.ipcClone.p50,
      'ms',
      `envelope ${Math.round((d.pageBytes.p50 ?? 0) / 1024)} KiB as JSON`,
    ),
    info(
      'data.renderer.p50',
      SECTION,
      'renderer: answer → page committed in the list, one page at a time, p50',
      d.renderer.p50,
      'ms',
      `p95 ${d.renderer.p95} ms over ${d.renderer.n} pages; past 5,000 replies p50 ${d.rendererDeep.p50} ms; page clock ${quiet.isolated ? '5 µs' : '100 µs (not cross-origin isolated)'}`,
    ),
    info(
      'data.renderer.cpu.p50',
      SECTION,
      'renderer: main-thread CPU per page (click to commit, skeleton frames included), p50',
      d.rendererCpu.p50,
      'ms',
      `past 5,000 replies p50 ${d.rendererCpuDeep.p50} ms`,
    ),
    info(
      'data.renderer.scrolling.p50',
      SECTION,
      'renderer: answer → page shown while scrolling to 10k (waits behind frames), p50',
      d.rendererWhileScrolling.p50,
      'ms',
      `p95 ${d.rendererWhileScrolling.p95} ms over ${d.rendererWhileScrolling.n} pages`,
    ),
    info(
      'data.hostbinding.p50',
      SECTION,
      'e2e host only: browser shell HTTP round trip minus main, p50 (not Electron IPC)',
      d.hostBinding.p50,
      'ms',
      `p95 ${d.hostBinding.p95} ms`,
    ),
    budget(
      'data.largest',
      SECTION,
      'largest single bridge message',
      round(largest.bytes / 1024, 1),
      'KiB',
      BUDGETS.bridgeMessageBytes / 1024,
      `${largest.channel} ${largest.direction}${largest.operation ? ` (${largest.operation})` : ''}`,
    ),
  ];
  return { metrics, detail: { ...d, largest } };
}

/** The slowest page and where it came: the p95 of 44 pages is their third-worst, so one slow page moves it. */
function worstPage(busy: readonly number[]): string {
  if (busy.length === 0) return 'no page measured';
  const at = busy.indexOf(Math.max(...busy));
  return `worst ${round(busy[at] ?? 0, 2)} ms, the ${ordinal(at + 1)} page measured`;
}

function ordinal(n: number): string {
  const last = n % 10;
  const teen = n % 100 > 10 && n % 100 < 14;
  return `${n}${!teen && last >= 1 && last <= 3 ? ['st', 'nd', 'rd'][last - 1] : 'th'}`;
}
