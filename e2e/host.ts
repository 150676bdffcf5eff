/**
 * The e2e test host: Skein without the Electron binary. The built renderer
 * (out/renderer) runs in Chromium, served on 127.0.0.1 under the app's own CSP
 * and path resolver; `window.skein` is injected from the same contract and
 * builder as the preload, and every call goes through the same handle()
 * (sender check + schemas) to the real handlers of `createCore`, running here
 * in the test process. Without `apiBaseUrl` the core runs demo mode on the
 * embedded sandbox; with it, Skein talks to any server speaking the API.
 *
 * Usage: `const app = await launchApp(); await app.page.getByRole('heading')…; await app.close();`
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from '@playwright/test';
import { createCore, type ConfirmRequest, type Core, type SaveRequest, type SecretStorage } from '../src/main/core';
import { createDispatcher, guarded, isTrustedFrame, type FrameLike } from '../src/main/ipc/dispatch';
import { serveAsset, type MediaPolicy } from '../src/main/protocol/assets';
import { startSandbox, type SandboxOptions } from '../src/main/sandbox';
import { bridgeInitScript, bridgeLayout } from '../src/preload/bridge';
import { eventChannelName, type EventName, type EventPayload } from '../src/shared/ipc';

export const ROOT = resolve(import.meta.dirname, '..');
export const RENDERER_DIR = join(ROOT, 'out', 'renderer');
const INVOKE_BINDING = '__skeinInvoke';
/** the Playwright binding itself: JSON text each way (see below) */
const INVOKE_JSON_BINDING = '__skeinInvokeJson';
const EMIT_FUNCTION = '__skeinEmit';

export interface LaunchOptions {
  /** point Skein at this server instead of the embedded demo sandbox (live mode) */
  apiBaseUrl?: string;
  apiKey?: string;
  /** kept after close when given; otherwise a fresh temp folder, removed on close */
  userDataDir?: string;
  /** reuse a running Chromium (the fixture shares one per worker); otherwise one is launched and closed */
  browser?: Browser;
  /** options of the embedded demo sandbox (the bench's bigger worlds); it always listens on an ephemeral port */
  sandbox?: Omit<SandboxOptions, 'port'>;
  /** told of every bridge call once main has answered it (the bench's data-path and message-size probe) */
  onBridgeCall?: (call: BridgeCall) => void;
  /**
   * Serve the renderer cross-origin isolated (the app's COOP plus `Cross-Origin-Embedder-Policy:
   * credentialless`): the page's `performance.now()` then resolves 5 µs instead of Chromium's 100 µs.
   * The bench's timings only; the app itself is not isolated.
   */
  crossOriginIsolated?: boolean;
}

/** One bridge call as the host saw it: what crossed each way and the time main took (handle(): sender check, schemas, handler). */
export interface BridgeCall {
  channel: string;
  input: unknown;
  /** the envelope main returned */
  output: unknown;
  mainMs: number;
  /** performance.timeOrigin + performance.now() when main had the answer */
  answeredAt: number;
}

export interface SkeinApp {
  page: Page;
  close(): Promise<void>;
  /** where settings, usage and caches live for this run */
  userDataDir: string;
  /** base URL of the demo sandbox (started on demand) for its control plane; null when pointed at `apiBaseUrl` */
  sandboxUrl(): Promise<string | null>;
  /** what the next "Save as" dialog answers: a path, or null for Cancel */
  setSavePath(path: string | null): Promise<void>;
  /** the save dialogs main has opened so far */
  saveRequests(): readonly SaveRequest[];
  /** URLs main handed to the system browser (recorded, not opened) */
  openedExternally(): readonly string[];
  /** push an event from main to the renderer, as the native menu does */
  emit<E extends EventName>(name: E, payload: EventPayload<E>): Promise<void>;
  /** unexpected failures inside main handlers (bugs), as the app would log them */
  internalErrors(): readonly unknown[];
  // --- the unforgeable confirmation (main's native dialog in the app): a test double ---
  /** what the user answers main's next confirmation dialogs (default: yes, as a user who clicks OK) */
  setConfirmAnswer(answer: boolean): Promise<void>;
  /** the confirmations main has asked for so far */
  confirmRequests(): readonly ConfirmRequest[];
}

/** Chromium to run: `SKEIN_CHROMIUM`, else Debian's `/usr/bin/chromium`, else Playwright's own browser. */
export function chromiumExecutable(): string | undefined {
  const fromEnv = process.env.SKEIN_CHROMIUM;
  if (fromEnv) return fromEnv;
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'];

export function launchChromium(): Promise<Browser> {
  const executablePath = chromiumExecutable();
  return chromium.launch({ headless: true, args: CHROMIUM_ARGS, ...(executablePath ? { executablePath } : {}) });
}

/** The OS key store stand-in: a keyring that "encrypts" in memory. */
export function memorySecretStorage(): SecretStorage {
  return {
    isEncryptionAvailable: async () => true,
    backend: () => 'gnome_libsecret',
    encryptString: async (plain) => new TextEncoder().encode(`enc:${plain}`),
    decryptString: async (bytes) => new TextDecoder().decode(bytes).replace(/^enc:/, ''),
  };
}

function appVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

function frameLike(frame: Frame): FrameLike {
  const parent = frame.parentFrame();
  return { url: frame.url(), parent: parent ? frameLike(parent) : null };
}

async function serveRenderer(isolated = false, media?: () => Promise<MediaPolicy>): Promise<{ server: Server; origin: string }> {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
    throw new Error(`No built renderer in ${RENDERER_DIR}: run \`npm run build\` first.`);
  }
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    void (media ? media() : Promise.resolve(undefined)).then((m) => serveAsset(RENDERER_DIR, path, m)).then((asset) => {
      res.writeHead(asset.status, isolated ? { ...asset.headers, 'Cross-Origin-Embedder-Policy': 'credentialless' } : asset.headers);
      res.end(req.method === 'HEAD' ? undefined : asset.body);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export async function launchApp(options: LaunchOptions = {}): Promise<SkeinApp> {
  const ownDataDir = !options.userDataDir;
  const userDataDir = options.userDataDir ?? (await mkdtemp(join(tmpdir(), 'skein-e2e-')));
  // the CSP names the running sandbox's exact origin, as the app protocol does
  let mediaPolicy: (() => Promise<MediaPolicy>) | undefined;
  const { server, origin } = await serveRenderer(options.crossOriginIsolated, () => (mediaPolicy ? mediaPolicy() : Promise.resolve({ remote: true, localOrigins: [] })));
  const browser = options.browser ?? (await launchChromium());
  let context: BrowserContext | undefined;
  let core: Core | undefined;

  let savePath: string | null = null;
  const saveRequests: SaveRequest[] = [];
  const opened: string[] = [];
  const internalErrors: unknown[] = [];
  let confirmAnswer = true;
  const confirmRequests: ConfirmRequest[] = [];
  let page: Page | undefined;

  const emit = async <E extends EventName>(name: E, payload: EventPayload<E>) => {
    await page?.evaluate(([fnName, channel, data]) => (window as never as Record<string, (c: string, p: unknown) => void>)[fnName]?.(channel, data), [
      EMIT_FUNCTION,
      eventChannelName(name),
      payload,
    ] as const);
  };

  try {
    core = createCore({
      userDataDir,
      secretStorage: memorySecretStorage(),
      openExternal: async (url) => {
        opened.push(url);
      },
      app: { name: 'Skein', version: appVersion(), platform: process.platform },
      apiBaseUrl: options.apiBaseUrl,
      apiKey: options.apiKey,
      startSandbox: (o) => startSandbox({ ...options.sandbox, ...o }),
      chooseSavePath: async (request) => {
        saveRequests.push(request);
        return savePath;
      },
      confirm: async (request) => {
        confirmRequests.push(request);
        return confirmAnswer;
      },
      emit: (name, payload) => void emit(name, payload),
      log: { error: (message, error) => internalErrors.push({ message, error }), warn: () => {} },
    });
    const running = core;
    mediaPolicy = () => running.mediaPolicy();
    const handle = guarded(
      createDispatcher(core.handlers, { onInternalError: (error, channel) => internalErrors.push({ channel, error }) }),
      (frame) => isTrustedFrame(frame, [origin]),
    );

    context = await browser.newContext({ viewport: { width: 1280, height: 840 }, reducedMotion: 'reduce' });
    let nextSenderId = 1;
    const senderIds = new WeakMap<Page, number>();
    const senderOf = (p: Page) => {
      let id = senderIds.get(p);
      if (id === undefined) senderIds.set(p, (id = nextSenderId++));
      return id;
    };
    const onBridgeCall = options.onBridgeCall;
    // Messages cross as JSON text: Playwright's own value serializer takes ~30 ms for a 20-post page
    // (JSON ~1 ms), and a copy of plain data is what Electron's IPC (structured clone) makes too.
    await context.exposeBinding(INVOKE_JSON_BINDING, async ({ frame, page: caller }, channel: unknown, inputJson: unknown) => {
      const input: unknown = typeof inputJson === 'string' ? JSON.parse(inputJson) : undefined;
      const started = performance.now();
      const output = await handle(String(channel), frameLike(frame), input, { senderId: senderOf(caller) });
      if (onBridgeCall) {
        const answered = performance.now();
        onBridgeCall({ channel: String(channel), input, output, mainMs: answered - started, answeredAt: performance.timeOrigin + answered });
      }
      return JSON.stringify(output);
    });
    await context.addInitScript({
      content: `Object.defineProperty(window, ${JSON.stringify(INVOKE_BINDING)}, {
  writable: true,
  value: (channel, input) =>
    window[${JSON.stringify(INVOKE_JSON_BINDING)}](channel, input === undefined ? undefined : JSON.stringify(input)).then((out) => (out === undefined ? undefined : JSON.parse(out))),
});`,
    });
    // Under tsx (scripts, the bench) esbuild's keepNames wraps functions in `__name()`: the builder's
    // source, serialized into the page, gets a no-op one of its own (Playwright's runner adds none).
    await context.addInitScript({
      content: `(() => { const __name = (f) => f; ${bridgeInitScript(bridgeLayout(), INVOKE_BINDING, EMIT_FUNCTION)} })();`,
    });
    page = await context.newPage();
    const current = page;
    // A reload cancels what the page started, as a reloaded Electron window does.
    current.on('framenavigated', (frame) => {
      if (frame === current.mainFrame()) running.onSenderGone(senderOf(current));
    });
    await current.goto(`${origin}/index.html`);
  } catch (error) {
    await context?.close().catch(() => {});
    if (!options.browser) await browser.close().catch(() => {});
    await core?.dispose().catch(() => {});
    server.close();
    throw error;
  }

  const readyCore = core;
  const readyContext = context;
  return {
    page,
    userDataDir,
    sandboxUrl: async () => (await readyCore.sandbox())?.baseUrl ?? null,
    setSavePath: async (path) => {
      savePath = path;
    },
    saveRequests: () => saveRequests,
    openedExternally: () => opened,
    emit,
    internalErrors: () => internalErrors,
    setConfirmAnswer: async (answer) => {
      confirmAnswer = answer;
    },
    confirmRequests: () => confirmRequests,
    close: async () => {
      await readyContext.close().catch(() => {});
      if (!options.browser) await browser.close().catch(() => {});
      await readyCore.dispose();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      if (ownDataDir) await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
