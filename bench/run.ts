/**
 * `npm run bench`: Skein's performance budgets, measured (never asserted by
 * timed tests). Builds nothing: it runs the renderer `npm run build` left in
 * out/renderer, through the e2e host (Chromium, `window.skein` routed to the
 * real main handlers and the embedded sandbox), or with `--electron` through
 * Playwright's `_electron` where an Electron binary exists (skipped otherwise).
 * Methods: docs/benchmarks.md and the header of each module in bench/perf/.
 *
 * Writes bench/results/report.json and bench/results/summary.md and prints
 * the table. Exit code 0 whether budgets pass or fail (it is a measurement);
 * 1 only when the bench itself could not run. A section in the browser that
 * gives no answer in 12 minutes is reported as not measured, and the next one
 * runs in a fresh app.
 *
 *   npm run bench                      everything (~8–10 min on the 2-core dev machine)
 *   npm run bench -- --only=scroll,dom first sections only: baseline, scroll, prepend, dom (with heap),
 *                                      heap100k, first, interactions, data, main, children, archive
 *   npm run bench -- --quick           shorter scroll runs, fewer repetitions, no 100k session
 *   npm run bench -- --electron        the real app (where an Electron binary exists)
 *   npm run bench -- --cpu-slowdown=2.5  the renderer's main thread slowed 2.5 times (Chromium's CPU throttling,
 *                                      as DevTools does it): a machine that much slower, for the frame budgets
 *                                      (its CPU times are read under it too: compare runs at the same rate only)
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { chromiumExecutable } from '../e2e/host';
import { checkBuilt, launchChromium, openApp, type BenchApp, type BridgeLog, type Target } from './perf/app';
import { info, skipped, type Metric } from './perf/budgets';
import { measureArchive } from './perf/archive';
import { measureChildren, RESULTS_DIR } from './perf/children';
import { cpuTimes, stealShare } from './perf/cpu-steal';
import { measureDataPath } from './perf/data-path';
import { measureFirstContent } from './perf/first-content';
import { measureInteractions } from './perf/interactions';
import { measureMainBlock } from './perf/main-block';
import { measureDomAndHeap, measureHeap100k } from './perf/memory';
import type { PageCall } from './perf/page';
import { environment, MACHINE_NOTE, table, writeReport } from './perf/report';
import { measurePrepend, measureScroll, rafBaseline } from './perf/scroll';
import { measureArchiveScroll } from './perf/archive-scroll';
import { round } from './perf/stats';

const SECTIONS = [
  'baseline',
  'scroll',
  'archiveScroll',
  'prepend',
  'dom',
  'heap100k',
  'first',
  'interactions',
  'data',
  'main',
  'children',
  'archive',
] as const;
type Section = (typeof SECTIONS)[number];

function parseArgs(argv: string[]): { target: Target; only: Set<Section>; quick: boolean; slowdown: number } {
  const target: Target = argv.includes('--electron') ? 'electron' : 'chromium-host';
  const quick = argv.includes('--quick');
  const slowArg = argv.find((a) => a.startsWith('--cpu-slowdown='));
  const slowdown = slowArg ? Number(slowArg.slice('--cpu-slowdown='.length)) : 1;
  if (!Number.isFinite(slowdown) || slowdown < 1) throw new Error(`--cpu-slowdown takes a number of at least 1`);
  const onlyArg = argv.find((a) => a.startsWith('--only='));
  const only = new Set<Section>(SECTIONS);
  if (onlyArg) {
    only.clear();
    for (const s of onlyArg.slice('--only='.length).split(',')) {
      if (!(SECTIONS as readonly string[]).includes(s))
        throw new Error(`unknown section "${s}"; sections: ${SECTIONS.join(', ')}`);
      only.add(s as Section);
    }
  }
  if (quick && !onlyArg) only.delete('heap100k');
  return { target, only, quick, slowdown };
}

function chromiumVersion(): string {
  const exe = chromiumExecutable();
  if (!exe) return "Playwright's bundled Chromium";
  try {
    return execFileSync(exe, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return exe;
  }
}

/**
 * The longest a section measuring in the browser may take (the longest, the DOM's and the 100k session's, take 1–5
 * min): past it the section is reported as not measured and the run goes on. The child processes' sections bound
 * their children themselves.
 */
const SECTION_TIMEOUT_MS = 12 * 60_000;

const log = (s: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${s}`);

async function main(): Promise<number> {
  const started = performance.now();
  const loadAtStart = loadavg();
  const cpuAtStart = cpuTimes();
  const { target, only, quick, slowdown } = parseArgs(process.argv.slice(2));
  const metrics: Metric[] = [];
  const details: Record<string, unknown> = {};
  const notes: string[] = [];

  const missing = checkBuilt(target);
  if (missing && target === 'electron' && !missing.startsWith('No built')) {
    // the real-app variant, where no binary can exist here: report it, do not fail
    log(`electron: skipped — ${missing}`);
    metrics.push(skipped('electron', 'target', 'the real app through Playwright _electron', '', undefined, missing));
    const files = writeReport(RESULTS_DIR, {
      env: environment(target, chromiumVersion(), loadAtStart),
      metrics,
      details,
      durationS: 0,
      notes: [missing],
    });
    console.log(table(metrics, false));
    log(`wrote ${files.json} and ${files.md}`);
    return 0;
  }
  if (missing) {
    console.error(`bench: ${missing}`);
    return 1;
  }

  log(
    `target ${target}; sections: ${[...only].join(', ')}${quick ? ' (quick)' : ''}; load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}`,
  );
  const browser = target === 'chromium-host' ? await launchChromium() : undefined;
  const bridges: BridgeLog[] = [];
  let loadedCalls: PageCall[] = [];
  /** sections that timed out: their app is closed and the next one opens another */
  let timedOut = false;
  const section = async (
    name: Section,
    what: string,
    fn: () => Promise<{ metrics: Metric[]; detail?: unknown; details?: unknown }>,
    timeoutMs: number | null = SECTION_TIMEOUT_MS,
  ) => {
    if (!only.has(name)) return;
    log(`${what}…`);
    const t0 = performance.now();
    const cpu0 = cpuTimes();
    let timer: NodeJS.Timeout | undefined;
    try {
      const r = await Promise.race([
        fn(),
        new Promise<never>((_, reject) => {
          if (timeoutMs === null) return;
          timer = setTimeout(() => {
            timedOut = true;
            void pageState().then((state) => {
              if (state) log(`${what}: the page when it was stopped: ${state}`);
              reject(new Error(`no answer in ${timeoutMs / 60_000} min: the section was stopped`));
            });
          }, timeoutMs);
        }),
      ]);
      metrics.push(...r.metrics);
      details[name] = r.detail ?? r.details;
      const steal = stealShare(cpu0, cpuTimes());
      if (steal !== null)
        metrics.push(
          info(
            `machine.steal.${name}`,
            'machine',
            `CPU time taken by the hypervisor (steal) during "${name}"`,
            steal,
            '%',
          ),
        );
      log(
        `${what}: done in ${round((performance.now() - t0) / 1000, 1)} s${steal !== null ? ` (steal ${steal} %)` : ''}`,
      );
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
      log(`${what}: FAILED — ${message}`);
      metrics.push(skipped(`${name}.error`, name, `${what} (the bench could not measure it)`, '', undefined, message));
    } finally {
      clearTimeout(timer);
    }
  };

  let app: BenchApp | null = null;
  /** what the probe in a hung section's page says (calls in flight, an answer held, the page hidden), or null */
  const pageState = async (): Promise<string | null> => {
    const page = app?.page;
    if (!page) return null;
    const read = page.evaluate(() => {
      const p = window.__bench;
      return JSON.stringify({
        visibility: document.visibilityState,
        inFlight: p?.inFlight,
        hold: p?.hold,
        held: p?.held,
        lastCalls: p?.calls.slice(-3),
      });
    });
    const late = new Promise<string>((r) => setTimeout(() => r('no answer from the page in 10 s either'), 10_000));
    return Promise.race([read, late]).catch((error: unknown) => `unreadable (${String(error).split('\n')[0]})`);
  };
  /**
   * The app the next section measures: after a section that timed out (its page may still be busy with it), a
   * fresh one, so one hang costs one section and not the rest of the run.
   */
  const appNow = async (): Promise<BenchApp> => {
    if (app && !timedOut) return app;
    if (app) {
      log('the section before timed out: the app is opened again for the next one');
      await app.close().catch(() => {});
    }
    timedOut = false;
    const opened = await openApp({ target, browser });
    app = opened;
    bridges.push(opened.bridge);
    // held for the page's whole life, reloads included: it belongs to the page's target, not to a document
    if (slowdown > 1) await opened.cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
    return opened;
  };
  try {
    const needsApp = (
      ['baseline', 'scroll', 'archiveScroll', 'prepend', 'dom', 'first', 'interactions', 'data'] as Section[]
    ).some((s) => only.has(s));
    if (needsApp) {
      await appNow();
      if (slowdown > 1) {
        notes.push(
          `The renderer's main thread was slowed ${slowdown}× (Chromium's CPU throttling): every renderer figure, frame intervals and CPU times alike, is that of a machine that much slower; compare it only with runs at the same rate.`,
        );
        log(`renderer slowed ${slowdown}×`);
      }
      await section('baseline', 'idle frame cadence (rAF baseline)', async () => {
        const a = await appNow();
        await a.goto('#/settings');
        await a.page.waitForTimeout(500);
        return rafBaseline(a, 3000);
      });
      await section('scroll', 'scroll the 10,000-reply thread', async () =>
        measureScroll(await appNow(), { speeds: [2400, 9000], durationMs: quick ? 2500 : 5000 }),
      );
      await section('archiveScroll', 'scroll the Archive view (the thread, kept in the project)', async () =>
        measureArchiveScroll(await appNow(), { speeds: [2400, 9000], durationMs: quick ? 2500 : 5000 }),
      );
      await section('prepend', 'prepend drift', async () =>
        measurePrepend(await appNow(), { depthItems: quick ? 1500 : 3000, events: 5 }),
      );
      await section('dom', 'DOM size and heap (1k, 10k, round trip)', async () => {
        const r = await measureDomAndHeap(await appNow());
        loadedCalls = (r.detail.loadCalls as PageCall[] | undefined) ?? [];
        delete r.detail.loadCalls;
        return r;
      });
      await section('first', 'time to first content', async () => measureFirstContent(await appNow(), quick ? 5 : 10));
      await section('interactions', 'interaction latency', async () =>
        measureInteractions(await appNow(), quick ? 5 : 12),
      );
    }
    await section('heap100k', 'heap with 100k replies in a session', async () => {
      if (target === 'electron')
        return {
          metrics: [skipped('heap.100k', 'heap', '100k session', 'MiB', undefined, 'needs the host sandbox options')],
        };
      return measureHeap100k({ target, browser, timeoutMs: 240_000, backTimeoutMs: 150_000, pageSize: 200 });
    });
    await section('data', 'data path per page', async () => {
      if (target === 'electron')
        return {
          metrics: [
            skipped(
              'data.renderer.arrival.p95',
              'data path',
              'data path',
              'ms',
              undefined,
              'needs the host bridge tap',
            ),
          ],
        };
      return measureDataPath({ pages: 60, app: await appNow(), appCalls: loadedCalls, bridge: bridges });
    });
  } finally {
    // set by appNow, which the compiler's narrowing does not follow
    await (app as BenchApp | null)?.close().catch(() => {});
    await browser?.close().catch(() => {});
  }
  await section('main', "main's longest event-loop block during the first demo call", () => measureMainBlock());
  await section(
    'children',
    'sandbox and export benches (child processes)',
    () => measureChildren({ timeoutMs: 300_000 }),
    null,
  );
  await section(
    'archive',
    'research archive: ingest, size, search, chart (child process)',
    () => measureArchive({ timeoutMs: 900_000, posts: quick ? 50_000 : undefined }),
    null,
  );

  const loadAtEnd = loadavg();
  metrics.push(
    info(
      'machine.load',
      'machine',
      'load average (1 min) at the end',
      round(loadAtEnd[0] ?? 0, 2),
      '',
      `${round(loadAtStart[0] ?? 0, 2)} at the start, on ${cpus().length} cores`,
    ),
  );
  const steal = stealShare(cpuAtStart, cpuTimes());
  if (steal !== null)
    metrics.push(
      info('machine.steal', 'machine', 'CPU time taken by the hypervisor (steal) during the whole run', steal, '%'),
    );
  notes.push(MACHINE_NOTE);
  const durationS = (performance.now() - started) / 1000;
  const files = writeReport(RESULTS_DIR, {
    env: environment(target, chromiumVersion(), loadAtStart),
    metrics,
    details,
    durationS,
    notes,
  });
  console.log(`\n${table(metrics, false)}\n`);
  const fails = metrics.filter((m) => m.status === 'fail').length;
  const passes = metrics.filter((m) => m.status === 'pass').length;
  log(
    `${passes} pass, ${fails} fail, ${metrics.filter((m) => m.status === 'skipped').length} skipped in ${Math.round(durationS)} s`,
  );
  log(`wrote ${files.json} and ${files.md}`);
  return 0;
}

process.exitCode = await main();
