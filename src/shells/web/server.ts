/**
 * The browser shell's HTTP server: the built renderer (out/renderer, with the
 * app's CSP and path resolver), the bridge script, and the one bridge endpoint
 * that goes through the same `guarded()` dispatcher as Electron's IPC. Every
 * request passes the gate (security.ts) first; no CORS headers are ever sent.
 * It knows nothing of how the core was built: cli.ts (users) and e2e/host.ts
 * (tests) compose it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { events, type EventName, type EventPayload, type Envelope } from '../../shared/ipc';
import { bridgeLayout } from '../../preload/bridge';
import {
  type Core,
  createDispatcher,
  guarded,
  isTrustedFrame,
  type DispatcherOptions,
  SECURITY_HEADERS,
  serveAsset,
} from '../../core';
import { BRIDGE_PATH, SCRIPT_PATH, webBridgeScript, type StreamMessage } from './client';
import { menuShortcuts } from './shortcuts';
import { createGate, isLoopback, newSecret, type Gate, type GateRequest } from './security';

/** where the printed URL's secret is exchanged for the cookie */
export const AUTH_PATH = '/__skein/auth';
const MAX_BODY_BYTES = 1 << 20;

export interface WebShellOptions {
  core: Core;
  rendererDir: string;
  /** default 127.0.0.1 */
  host?: string;
  /** default 0: any free port */
  port?: number;
  /** must be true to bind anything but a loopback address */
  allowRemote?: boolean;
  /** told about bugs inside handlers (the page only gets a generic error) */
  onInternalError?: DispatcherOptions['onInternalError'];
  /**
   * true: an allowed external link is opened by the page itself, as a new tab
   * (the core's openExternal is then a no-op). The e2e host passes false and
   * records the URLs through its own openExternal.
   */
  pageOpensLinks?: boolean;
  /** test-only (the bench): extra headers on every asset, e.g. COEP for a finer clock */
  assetHeaders?: Readonly<Record<string, string>>;
  /** test-only (the bench): told of every bridge call once answered */
  onBridgeCall?: (call: {
    channel: string;
    input: unknown;
    output: Envelope<unknown>;
    mainMs: number;
    answeredAt: number;
  }) => void;
}

export interface WebShell {
  /** the URL to open: carries the per-run secret; print it once, never log it */
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  /** pushes a contract event to every open page */
  emit: <E extends EventName>(name: E, payload: EventPayload<E>) => void;
  /** taskbar progress and notifications of exports, for the core's `exportPlatform` */
  platform: {
    setProgress: (value: number | 'indeterminate' | null) => void;
    notify: (title: string, body: string) => void;
  };
  close: () => Promise<void>;
}

/** Refuses what the shell must never do; returns the host to bind. */
export function bindHost(host: string | undefined, allowRemote: boolean | undefined): string {
  const chosen = host ?? '127.0.0.1';
  if (chosen === '0.0.0.0' || chosen === '::' || chosen === '') {
    throw new Error(`Refusing to listen on every interface (${chosen || 'empty'}): name one address with --host.`);
  }
  if (!isLoopback(chosen) && !allowRemote) {
    throw new Error(
      `Refusing to listen on ${chosen}: it is not a loopback address. Pass --host ${chosen} explicitly to allow it.`,
    );
  }
  return chosen;
}

function gateRequest(req: IncomingMessage): GateRequest {
  return { host: req.headers.host, cookie: req.headers.cookie, origin: req.headers.origin };
}

function refuse(res: ServerResponse, status: number): void {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
  });
  res.end(
    status === 401
      ? 'Open Skein with the URL printed in its terminal.\n'
      : status === 403
        ? 'Forbidden\n'
        : 'Not found\n',
  );
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error('body too large');
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
}

/** Inserts the bridge script before the renderer's own scripts (a file, never inline). */
function withBridgeScript(html: string): string {
  const tag = `<script src="${SCRIPT_PATH}"></script>`;
  const at = html.indexOf('<script');
  return at >= 0 ? html.slice(0, at) + tag + html.slice(at) : html.replace('</head>', `${tag}</head>`);
}

export async function startWebShell(options: WebShellOptions): Promise<WebShell> {
  const host = bindHost(options.host, options.allowRemote);
  const secret = newSecret();
  const dispatcher = createDispatcher(options.core.handlers, { onInternalError: options.onInternalError });
  const layout = bridgeLayout();
  const script = webBridgeScript(layout, menuShortcuts());
  const streams = new Map<string, { senderId: number; res: ServerResponse }>();
  const senderIds = new Map<string, number>();
  let nextSenderId = 1;
  // known once the port is: until then every request is refused
  const ready: { gate?: Gate; handle?: ReturnType<typeof guarded> } = {};

  const senderOf = (token: string): number => {
    let id = senderIds.get(token);
    if (id === undefined) senderIds.set(token, (id = nextSenderId++));
    return id;
  };

  const broadcast = (message: StreamMessage) => {
    const line = `${JSON.stringify(message)}\n`;
    for (const { res } of streams.values()) res.write(line);
  };

  async function onBridge(req: IncomingMessage, res: ServerResponse, call: ReturnType<typeof guarded>): Promise<void> {
    let body: unknown;
    try {
      body = await readBody(req);
    } catch {
      // not JSON, or too big: answer, and drop the connection rather than read the rest
      res.setHeader('Connection', 'close');
      refuse(res, 400);
      return;
    }
    const msg = (body ?? {}) as { channel?: unknown; input?: unknown; sender?: unknown; subscribe?: unknown };
    if (typeof msg.subscribe === 'string' && msg.subscribe.length <= 100) {
      const token = msg.subscribe;
      const senderId = senderOf(token);
      res.writeHead(200, {
        ...SECURITY_HEADERS,
        'Content-Type': 'application/x-ndjson; charset=utf-8',
        'Cache-Control': 'no-store',
      });
      res.flushHeaders();
      streams.set(token, { senderId, res });
      // The page reloaded or closed: cancel what it started, as a closed Electron window does.
      res.on('close', () => {
        if (streams.get(token)?.res === res) streams.delete(token);
        senderIds.delete(token);
        options.core.onSenderGone(senderId);
      });
      return;
    }
    if (typeof msg.channel !== 'string' || typeof msg.sender !== 'string' || msg.sender.length > 100) {
      refuse(res, 400);
      return;
    }
    const started = performance.now();
    // The gate checked the Origin; the sender check of guarded() sees it as the calling frame's URL.
    const output = await call(msg.channel, { url: `${req.headers.origin ?? ''}/`, parent: null }, msg.input, {
      senderId: senderOf(msg.sender),
    });
    if (options.onBridgeCall) {
      const answered = performance.now();
      options.onBridgeCall({
        channel: msg.channel,
        input: msg.input,
        output,
        mainMs: answered - started,
        answeredAt: performance.timeOrigin + answered,
      });
    }
    const json = Buffer.from(JSON.stringify(output), 'utf8');
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(json.length),
      'Cache-Control': 'no-store',
      ...(options.pageOpensLinks ? { 'X-Skein-Open': '1' } : {}),
    });
    res.end(json);
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { gate, handle } = ready;
    if (!gate || !handle) return refuse(res, 403);
    const url = new URL(req.url ?? '/', gate.origin);
    // The printed URL: the secret in its query is exchanged for the cookie, then the app opens
    // (a meta refresh, not a redirect: the cookie is SameSite=Strict, and a same-origin page's
    // navigation carries it even when the printed link was opened from another site).
    if (url.pathname === AUTH_PATH && req.method === 'GET') {
      if (!gate.hostOk(req.headers.host)) return refuse(res, 403);
      if (!gate.checkSecret(url.searchParams.get('secret'))) return refuse(res, 401);
      res.writeHead(200, {
        ...SECURITY_HEADERS,
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
        'Set-Cookie': gate.cookie(),
      });
      res.end(
        '<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=/index.html"><title>Skein</title><p>Opening Skein…</p>\n',
      );
      return;
    }
    if (url.pathname === BRIDGE_PATH) {
      const verdict = gate.checkBridge(gateRequest(req));
      if (!verdict.ok) return refuse(res, verdict.status);
      if (req.method !== 'POST' || !(req.headers['content-type'] ?? '').startsWith('application/json'))
        return refuse(res, 405);
      return onBridge(req, res, handle);
    }
    const verdict = gate.check(gateRequest(req));
    if (!verdict.ok) return refuse(res, verdict.status);
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405);
    if (url.pathname === SCRIPT_PATH) {
      res.writeHead(200, {
        ...SECURITY_HEADERS,
        ...options.assetHeaders,
        'Content-Type': 'text/javascript; charset=utf-8',
        'Cache-Control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : script);
      return;
    }
    // the CSP names the running demo sandbox's exact origin for images, as the app protocol does
    const asset = await serveAsset(options.rendererDir, url.pathname, await options.core.mediaPolicy());
    let body = asset.body;
    if (asset.status === 200 && asset.headers['Content-Type']?.startsWith('text/html')) {
      body = withBridgeScript(typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));
    }
    res.writeHead(asset.status, { ...asset.headers, ...options.assetHeaders });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  const server: Server = createServer((req, res) => {
    onRequest(req, res).catch((error: unknown) => {
      // the path only: a query may hold the secret, which is never logged
      options.onInternalError?.(error, (req.url ?? '').split('?')[0] ?? '');
      if (!res.headersSent) refuse(res, 500);
      else res.destroy();
    });
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', fail);
      done();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const gate = createGate({ host, port, secret });
  const origin = gate.origin;
  ready.gate = gate;
  ready.handle = guarded(dispatcher, (frame) => isTrustedFrame(frame, [origin]));

  return {
    url: `${origin}${AUTH_PATH}?secret=${secret}`,
    origin,
    port,
    emit: (name, payload) => broadcast({ c: layout.events[name] as string, p: events[name].parse(payload) }),
    platform: {
      setProgress: (value) => broadcast({ progress: value }),
      notify: (title, body) => broadcast({ notify: { title, body } }),
    },
    close: async () => {
      for (const { res } of streams.values()) res.end();
      streams.clear();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
