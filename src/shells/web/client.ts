/**
 * The page side of the browser shell's bridge: `window.skein`, built by the
 * preload's own `buildBridge` from the same contract layout, over the shell's
 * one endpoint (`BRIDGE_PATH`):
 * - a call is `POST {channel, input, sender}` → the envelope `guarded()` returned;
 * - events are one long `POST {subscribe: sender}` whose response streams one
 *   JSON message a line: `{c, p}` a contract event, `{progress}` / `{notify}` the
 *   export's taskbar progress (shown in the page title) and notification (the web
 *   Notification API, when the user granted it).
 * Served as a script file (`SCRIPT_PATH`), never inline (the CSP forbids that).
 */
import { buildBridge, type BridgeLayout } from '../../preload/bridge';
import type { Shortcut } from './shortcuts';

export const BRIDGE_PATH = '/__skein/bridge';
export const SCRIPT_PATH = '/__skein/bridge.js';
/** set on <html> while the event stream is live (tests wait for it before emitting) */
export const EVENTS_ATTRIBUTE = 'data-skein-events';

/** What the shell streams to a page (see the header). */
export type StreamMessage =
  | { c: string; p: unknown }
  | { progress: number | 'indeterminate' | null }
  | { notify: { title: string; body: string } };

interface PageGlobals {
  fetch: typeof fetch;
  crypto: { randomUUID: () => string };
  document: {
    title: string;
    documentElement: { setAttribute: (n: string, v: string) => void; removeAttribute: (n: string) => void };
  };
  Notification?: {
    permission: string;
    requestPermission: () => Promise<string>;
    new (title: string, options: { body: string }): unknown;
  };
  open: (url: string, target: string, features: string) => unknown;
  addEventListener: (type: string, listener: (event: KeyLike) => void, capture?: boolean) => void;
  setTimeout: (fn: () => void, ms: number) => unknown;
}

type Build = typeof buildBridge;

interface KeyLike {
  key?: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  shiftKey?: boolean;
  altKey?: boolean;
  preventDefault?: () => void;
}

/**
 * Runs in the page. Self-contained (serialized with `toString`): everything it
 * needs comes in as arguments.
 */
export function installWebBridge(
  win: PageGlobals,
  build: Build,
  layout: BridgeLayout,
  endpoint: string,
  eventsAttribute: string,
  shortcuts: readonly Shortcut[] = [],
): Record<string, unknown> {
  const sender = win.crypto.randomUUID();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let baseTitle: string | null = null;
  let leaving = false;
  win.addEventListener('pagehide', () => {
    leaving = true;
  });

  const post = (body: unknown, signal?: AbortSignal) =>
    win.fetch(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
      signal,
    });

  const unreachable = (message: string) => ({
    ok: false,
    error: {
      code: 'internal',
      message,
      details: { action: 'Check that the Skein shell is still running in its terminal, then reload.' },
    },
  });

  const showProgress = (value: number | 'indeterminate' | null) => {
    const title = win.document.title.replace(/^\[[^\]]*\] /, '');
    if (baseTitle === null || value !== null) baseTitle = title;
    if (value === null) win.document.title = baseTitle;
    else
      win.document.title = `[${value === 'indeterminate' ? 'exporting' : `${Math.round(value * 100)}%`}] ${baseTitle}`;
  };

  const handle = (message: Record<string, unknown>) => {
    if (typeof message.c === 'string') {
      for (const listener of listeners.get(message.c) ?? []) listener(message.p);
    } else if ('progress' in message) {
      showProgress(message.progress as number | 'indeterminate' | null);
    } else if (message.notify && typeof message.notify === 'object') {
      const n = message.notify as { title: string; body: string };
      if (win.Notification?.permission === 'granted') new win.Notification(n.title, { body: n.body });
    }
  };

  const listen = async () => {
    for (let attempt = 0; !leaving; attempt++) {
      try {
        const res = await post({ subscribe: sender });
        if (!res.ok || !res.body) return;
        win.document.documentElement.setAttribute(eventsAttribute, 'live');
        attempt = 0;
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffered = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffered += value;
          let nl: number;
          while ((nl = buffered.indexOf('\n')) >= 0) {
            const line = buffered.slice(0, nl);
            buffered = buffered.slice(nl + 1);
            if (line) handle(JSON.parse(line) as Record<string, unknown>);
          }
        }
      } catch {
        /* the shell went away or the page is leaving: try again below */
      }
      win.document.documentElement.removeAttribute(eventsAttribute);
      if (attempt > 5) return;
      await new Promise<void>((done) => win.setTimeout(done, 500 * (attempt + 1)));
    }
  };
  void listen();

  // No native menu here: its Ctrl/Cmd shortcuts reach the page's listeners as the menu's commands would.
  win.addEventListener(
    'keydown',
    (event) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || typeof event.key !== 'string') return;
      const hit = shortcuts.find((s) => s.key === event.key?.toLowerCase() && s.shift === Boolean(event.shiftKey));
      if (!hit || !layout.events.menu) return;
      event.preventDefault?.();
      handle({ c: layout.events.menu, p: hit.command });
    },
    true,
  );

  const invoke = async (channel: string, input: unknown): Promise<unknown> => {
    // An export is started by a click: the moment to ask whether its end may be notified.
    if (channel === layout.functions.export?.start && win.Notification?.permission === 'default') {
      void win.Notification.requestPermission().catch(() => undefined);
    }
    let res: Response;
    try {
      res = await post({ channel, input, sender });
    } catch {
      return unreachable('Skein could not reach its shell.');
    }
    if (!res.ok) return unreachable(`Skein's shell refused the call (HTTP ${res.status}).`);
    const envelope = (await res.json()) as { ok: boolean; data?: unknown };
    // External links: main checked the URL (http/https); the page opens only https, as a normal new tab.
    if (
      channel === layout.functions.app?.openExternal &&
      envelope.ok &&
      (envelope.data as { opened?: boolean } | undefined)?.opened &&
      res.headers.get('x-skein-open') === '1'
    ) {
      const url = new URL(String((input as { url?: unknown }).url));
      if (url.protocol === 'https:') win.open(url.toString(), '_blank', 'noopener,noreferrer');
    }
    return envelope;
  };

  const subscribe = (channel: string, _name: string, listener: (payload: unknown) => void) => {
    let set = listeners.get(channel);
    if (!set) listeners.set(channel, (set = new Set()));
    set.add(listener);
    return () => {
      listeners.get(channel)?.delete(listener);
    };
  };
  return build(layout, invoke, subscribe);
}

/** The script the shell serves at SCRIPT_PATH: defines `window.skein` before the renderer's module runs. */
export function webBridgeScript(layout: BridgeLayout, shortcuts: readonly Shortcut[] = []): string {
  // Under tsx, esbuild's keepNames wraps functions in `__name()`: give the serialized source a no-op one.
  return `(() => {
  const __name = (f) => f;
  const buildBridge = ${buildBridge.toString()};
  const install = ${installWebBridge.toString()};
  const bridge = install(window, buildBridge, ${JSON.stringify(layout)}, ${JSON.stringify(BRIDGE_PATH)}, ${JSON.stringify(EVENTS_ATTRIBUTE)}, ${JSON.stringify(shortcuts)});
  Object.defineProperty(window, 'skein', { value: bridge, enumerable: true });
})();
`;
}
