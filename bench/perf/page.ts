/**
 * Code that runs inside the app's page. Every function here is serialized by
 * Playwright (`Function.prototype.toString`), so each must be self-contained:
 * no imports, no outer variables, only page globals and its argument.
 *
 * `installProbe` is the bench's recorder, added as an init script to the
 * bench's own browser context (never to the app): it wraps the page's fetch,
 * the browser shell's bridge transport, to time each `api.call` as the page sees it, and keeps the
 * PerformanceObserver entries the budgets need (long tasks, long animation
 * frames, Event Timing).
 */

/** One api.call as the page saw it. */
export interface PageCall {
  callId: string;
  operation: string;
  items: number;
  fromCache: boolean;
  /** performance.now() in the page */
  sentAt: number;
  answeredAt: number;
  /** first DOM change after the answer (the render that shows it), or null */
  handledAt: number | null;
}

export interface LongEntry {
  start: number;
  duration: number;
  /** long-animation-frame only */
  blockingDuration?: number;
  scripts?: string[];
}

export interface EventEntry {
  name: string;
  interactionId: number;
  start: number;
  duration: number;
  processingStart: number;
  processingEnd: number;
}

export interface Probe {
  calls: PageCall[];
  itemsByOperation: Record<string, number>;
  longTasks: LongEntry[];
  loafs: LongEntry[];
  events: EventEntry[];
  supported: { longtask: boolean; loaf: boolean; event: boolean };
  /** api.calls sent and not answered yet */
  inFlight: number;
  /** while true, an answer is held (parsed, not handed to the app) until `release` */
  hold: boolean;
  /** hands the app the answers held */
  release: () => void;
  /** answers held */
  held: number;
  reset: () => void;
}

declare global {
  interface Window {
    __bench?: Probe;
  }
}

/** The probe's source, for `addInitScript` and for the page already loaded. */
export function probeSource(): string {
  // tsx's esbuild keeps names with a module-level `__name()` helper the page lacks
  return `globalThis.__name ??= (f) => f; (${installProbe.toString()})();`;
}

function installProbe(): void {
  if (window.__bench) return;
  const types = PerformanceObserver.supportedEntryTypes ?? [];
  const probe: Probe = {
    calls: [],
    itemsByOperation: {},
    longTasks: [],
    loafs: [],
    events: [],
    supported: {
      longtask: types.includes('longtask'),
      loaf: types.includes('long-animation-frame'),
      event: types.includes('event'),
    },
    inFlight: 0,
    hold: false,
    held: 0,
    release() {
      probe.hold = false;
      for (const go of waiting.splice(0)) go();
      probe.held = 0;
    },
    reset() {
      probe.itemsByOperation = {};
      probe.calls.length = 0;
      probe.longTasks.length = 0;
      probe.loafs.length = 0;
      probe.events.length = 0;
    },
  };
  Object.defineProperty(window, '__bench', { value: probe });
  const waiting: Array<() => void> = [];

  const pending: PageCall[] = [];
  // the commit that shows an answer: new nodes, or the list's aria-busy dropping as "loading more" ends.
  // Observed only while an answer waits for it: a document-wide observer costs every DOM change a record,
  // and the scroll runs make thousands of changes a second that no call waits for.
  const observer = new MutationObserver(() => {
    observer.disconnect();
    const now = performance.now();
    for (const c of pending.splice(0)) c.handledAt = now;
  });
  const watch = () => {
    if (pending.length !== 1) return; // already watching
    const root = document.documentElement;
    if (root)
      observer.observe(root, {
        childList: true,
        subtree: true,
        characterData: true,
        attributes: true,
        attributeFilter: ['aria-busy'],
      });
  };

  type Out = { ok?: boolean; data?: { items?: unknown[]; meta?: { fromCache?: boolean } } } | null;
  const record = (channel: string, input: unknown, sentAt: number, out: Out) => {
    const isCall = channel.endsWith('api.call');
    const i = (input ?? {}) as { callId?: string; operation?: string };
    // the bench's own calls (preloading main's store) are not the app's
    if (isCall && !String(i.callId ?? '').startsWith('bench-')) {
      const answeredAt = performance.now();
      const items = out?.ok && Array.isArray(out.data?.items) ? out.data.items.length : 0;
      const op = String(i.operation ?? '?');
      probe.itemsByOperation[op] = (probe.itemsByOperation[op] ?? 0) + items;
      const call: PageCall = {
        callId: String(i.callId ?? ''),
        operation: op,
        items,
        fromCache: Boolean(out?.data?.meta?.fromCache),
        sentAt,
        answeredAt,
        handledAt: null,
      };
      if (probe.calls.length < 20_000) probe.calls.push(call);
      pending.push(call);
      watch();
    }
  };
  // The browser shell's transport (src/shells/web/client.ts): a call is a POST of
  // {channel, input} to its bridge endpoint, answered when the page has parsed the envelope.
  const originalFetch = window.fetch.bind(window);
  window.fetch = async (resource: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof resource === 'string' ? resource : resource instanceof URL ? resource.href : resource.url;
    if (!url.endsWith('/__skein/bridge') || typeof init?.body !== 'string') return originalFetch(resource, init);
    const message = JSON.parse(init.body) as { channel?: string; input?: unknown };
    if (typeof message.channel !== 'string') return originalFetch(resource, init);
    const channel = message.channel;
    const sentAt = performance.now();
    const isCall = channel.endsWith('api.call');
    if (isCall) probe.inFlight++;
    let res: Response;
    try {
      res = await originalFetch(resource, init);
    } catch (error) {
      if (isCall) probe.inFlight--;
      throw error;
    }
    const json = res.json.bind(res);
    res.json = async () => {
      try {
        const out = (await json()) as Out;
        if (isCall && probe.hold) {
          probe.held++;
          await new Promise<void>((go) => waiting.push(go));
        }
        record(channel, message.input, sentAt, out);
        return out;
      } finally {
        if (isCall) probe.inFlight--;
      }
    };
    return res;
  };

  const observe = (type: string, onEntry: (e: PerformanceEntry) => void, extra: Record<string, unknown> = {}) => {
    if (!types.includes(type)) return;
    new PerformanceObserver((list) => list.getEntries().forEach(onEntry)).observe({
      type,
      buffered: false,
      ...extra,
    });
  };
  observe('longtask', (e) => probe.longTasks.push({ start: e.startTime, duration: e.duration }));
  observe('long-animation-frame', (e) => {
    const loaf = e as PerformanceEntry & {
      blockingDuration?: number;
      scripts?: Array<{ sourceFunctionName?: string; sourceURL?: string; invoker?: string; duration?: number }>;
    };
    probe.loafs.push({
      start: e.startTime,
      duration: e.duration,
      blockingDuration: loaf.blockingDuration ?? 0,
      scripts: (loaf.scripts ?? [])
        .slice()
        .sort((a, b) => (b.duration ?? 0) - (a.duration ?? 0))
        .slice(0, 3)
        .map((s) => `${s.invoker ?? ''} ${s.sourceFunctionName ?? ''} ${Math.round(s.duration ?? 0)}ms`.trim()),
    });
  });
  observe(
    'event',
    (e) => {
      const ev = e as PerformanceEntry & { interactionId?: number; processingStart: number; processingEnd: number };
      probe.events.push({
        name: e.name,
        interactionId: ev.interactionId ?? 0,
        start: e.startTime,
        duration: e.duration,
        processingStart: ev.processingStart,
        processingEnd: ev.processingEnd,
      });
    },
    { durationThreshold: 16 },
  );
}

/* ---------------------------------------------------------------- scrolling */

export interface ScrollArgs {
  /** px per second */
  speed: number;
  direction: 1 | -1;
  durationMs: number;
}

export interface ScrollRun {
  frames: number;
  /** requestAnimationFrame intervals, ms */
  intervals: number[];
  /** the timestamp of each frame (performance.now() clock) */
  times: number[];
  /** frames whose viewport showed no post card */
  blankFrames: number;
  /** per frame: how far (px) the anchor card moved that the scroll step does not explain */
  jumps: number[];
  /** frames where the scroll could not move (end of what is loaded, or the top) */
  stalledFrames: number;
  distancePx: number;
  startTop: number;
  endTop: number;
}

/**
 * Scroll the view's scroller by requestAnimationFrame steps at `speed` px/s
 * (each step is speed × the real time since the last frame, so a slow frame
 * makes a bigger step, as a finger or wheel would). Per frame, right after the
 * step (a forced layout: what this frame paints): is any card in the viewport
 * (blank frame otherwise), and pick the card nearest the middle as the anchor.
 * At the next frame, before stepping, the anchor should be exactly where it
 * was painted: any difference is a jump (re-measured items above it moving it).
 */
export function scrollRun(args: ScrollArgs): Promise<ScrollRun> {
  const scroller = document.querySelector('main') as HTMLElement;
  const view = scroller.getBoundingClientRect();
  const out: ScrollRun = {
    frames: 0,
    intervals: [],
    times: [],
    blankFrames: 0,
    jumps: [],
    stalledFrames: 0,
    distancePx: 0,
    startTop: scroller.scrollTop,
    endTop: 0,
  };
  let anchor: Element | null = null;
  let anchorTop = 0;
  let last = -1;
  let started = -1;
  return new Promise((resolve) => {
    const frame = (ts: number) => {
      if (started < 0) started = ts;
      if (last >= 0) out.intervals.push(ts - last);
      out.times.push(ts);
      if (anchor && anchor.isConnected) out.jumps.push(Math.abs(anchor.getBoundingClientRect().top - anchorTop));
      const dt = last >= 0 ? ts - last : 1000 / 60;
      last = ts;
      const before = scroller.scrollTop;
      scroller.scrollTop = before + args.direction * args.speed * (dt / 1000);
      const moved = scroller.scrollTop - before;
      out.distancePx += Math.abs(moved);
      if (Math.abs(moved) < 0.5) out.stalledFrames++;
      out.frames++;
      // what this frame paints: cards intersecting the viewport
      let best: Element | null = null;
      let bestDistance = Infinity;
      let visible = 0;
      const middle = (view.top + view.bottom) / 2;
      for (const card of scroller.querySelectorAll('article[data-post-id]:not(.post--quoted)')) {
        const r = card.getBoundingClientRect();
        if (r.bottom <= view.top || r.top >= view.bottom || r.height === 0) continue;
        visible++;
        const d = Math.abs((r.top + r.bottom) / 2 - middle);
        if (d < bestDistance) {
          bestDistance = d;
          best = card;
        }
      }
      if (visible === 0) out.blankFrames++;
      anchor = best;
      anchorTop = best ? best.getBoundingClientRect().top : 0;
      if (ts - started < args.durationMs) requestAnimationFrame(frame);
      else {
        out.endTop = scroller.scrollTop;
        resolve(out);
      }
    };
    requestAnimationFrame(frame);
  });
}

/** requestAnimationFrame intervals with nothing happening: the machine's own cadence. */
export function idleFrames(durationMs: number): Promise<number[]> {
  return new Promise((resolve) => {
    const intervals: number[] = [];
    let last = -1;
    let started = -1;
    const frame = (ts: number) => {
      if (started < 0) started = ts;
      if (last >= 0) intervals.push(ts - last);
      last = ts;
      if (ts - started < durationMs) requestAnimationFrame(frame);
      else resolve(intervals);
    };
    requestAnimationFrame(frame);
  });
}

/* ---------------------------------------------------------------- loading */

/**
 * Hold "End" on the view: keep the scroller at its bottom, frame after frame,
 * until the page has received `target` items of `operation` (the probe counts
 * them), the list shows its end marker, or `timeoutMs` passes.
 */
export function loadUntil(args: {
  operation: string;
  target: number;
  timeoutMs: number;
  toEnd?: boolean;
}): Promise<{ items: number; ended: boolean; ms: number }> {
  const scroller = document.querySelector('main') as HTMLElement;
  const t0 = performance.now();
  const count = () => window.__bench?.itemsByOperation[args.operation] ?? 0;
  return new Promise((resolve) => {
    const frame = () => {
      scroller.scrollTop = scroller.scrollHeight;
      const ended = document.querySelector('.list-end') !== null;
      if ((count() >= args.target && !args.toEnd) || ended || performance.now() - t0 > args.timeoutMs) {
        resolve({ items: count(), ended, ms: performance.now() - t0 });
        return;
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

/** Scroll to the top by big steps, frame after frame (a windowed list loads earlier pages on the way). */
export function toTop(args: { stepPx: number; timeoutMs: number }): Promise<{ reached: boolean; ms: number }> {
  const scroller = document.querySelector('main') as HTMLElement;
  const t0 = performance.now();
  let stillAtTop = 0;
  return new Promise((resolve) => {
    const frame = () => {
      scroller.scrollTop = Math.max(0, scroller.scrollTop - args.stepPx);
      // at the top and nothing arriving above for a few frames: the list's real start
      stillAtTop = scroller.scrollTop === 0 && !window.__bench?.inFlight ? stillAtTop + 1 : 0;
      if (stillAtTop >= 10 || performance.now() - t0 > args.timeoutMs) {
        resolve({ reached: stillAtTop >= 10, ms: performance.now() - t0 });
        return;
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

/** Scroll down by big steps to the list's end marker (or timeout), then back up to the top. */
export function roundTrip(args: {
  stepPx: number;
  timeoutMs: number;
}): Promise<{ down: boolean; up: boolean; frames: number; ms: number }> {
  const scroller = document.querySelector('main') as HTMLElement;
  const t0 = performance.now();
  let frames = 0;
  let phase: 'down' | 'up' = 'down';
  let down = false;
  let stillAtTop = 0;
  return new Promise((resolve) => {
    const frame = () => {
      frames++;
      const timedOut = performance.now() - t0 > args.timeoutMs;
      if (phase === 'down') {
        scroller.scrollTop += args.stepPx;
        const atBottom = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2;
        if ((atBottom && document.querySelector('.list-end')) || timedOut) {
          down = !timedOut;
          phase = 'up';
        }
      } else {
        scroller.scrollTop = Math.max(0, scroller.scrollTop - args.stepPx);
        stillAtTop = scroller.scrollTop === 0 && !window.__bench?.inFlight ? stillAtTop + 1 : 0;
        if (stillAtTop >= 10 || timedOut) {
          resolve({ down, up: stillAtTop >= 10, frames, ms: performance.now() - t0 });
          return;
        }
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

/* ---------------------------------------------------------------- DOM and paint */

export function domCounts(): { page: number; list: number; rows: number } {
  const list = document.querySelector('.vlist');
  return {
    page: document.getElementsByTagName('*').length,
    list: list ? list.getElementsByTagName('*').length : 0,
    rows: document.querySelectorAll('.vlist__row').length,
  };
}

/**
 * Route change → first card painted: set the hash, wait for a post card in
 * the view (a MutationObserver sees it as soon as React commits it), then for
 * the frame that paints it (requestAnimationFrame, then a task after it).
 */
export function timeToFirstCard(hash: string): Promise<{ ms: number; commitMs: number } | null> {
  return new Promise((resolve) => {
    const old = new WeakSet(document.querySelectorAll('main article[data-post-id]'));
    const fresh = () => [...document.querySelectorAll('main article[data-post-id]')].some((el) => !old.has(el));
    let t0 = 0;
    let done = false;
    const finish = (value: { ms: number; commitMs: number } | null) => {
      if (done) return;
      done = true;
      mo.disconnect();
      resolve(value);
    };
    const painted = () => {
      const commitMs = performance.now() - t0;
      requestAnimationFrame(() => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => finish({ ms: performance.now() - t0, commitMs });
        ch.port2.postMessage(0);
      });
    };
    const mo = new MutationObserver(() => {
      if (fresh()) {
        mo.disconnect();
        painted();
      }
    });
    // the old view's cards must not count: wait until the view changed
    mo.observe(document.body, { childList: true, subtree: true });
    setTimeout(() => finish(null), 15_000);
    t0 = performance.now();
    window.location.hash = hash;
  });
}
