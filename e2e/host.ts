/**
 * The e2e test host: Skein's browser shell (src/shells/web), the one users
 * run with `npm run web`, driven by Playwright. The shell serves the built
 * renderer (out/renderer) under the app's own CSP and path resolver and builds
 * `window.skein` from the same contract and builder as the preload; every call
 * crosses its one HTTP endpoint and goes through the same handle() (sender
 * check + schemas) to the real handlers of `createCore`, running here in the
 * test process. The page opens the printed URL, as a user does, and gets the
 * session cookie that way. Without `apiBaseUrl` the core runs demo mode on the
 * embedded sandbox; with it, Skein talks to any server speaking the API.
 *
 * The test-only hooks (the next save answer, recorded external opens, internal
 * errors, the bench's probes) are this file's own dependencies of the core and
 * options of the shell: nothing a page can reach or a flag can turn on.
 *
 * Usage: `const app = await launchApp(); await app.page.getByRole('heading')…; await app.close();`
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { createCore, type ConfirmRequest, type Core, type SaveRequest, type SecretStorage } from '../src/core';
import type { Format } from '../src/core/formats';
import { startSandbox, type SandboxOptions } from '../src/sandbox';
import { EVENTS_ATTRIBUTE } from '../src/shells/web/client';
import { startWebShell, type WebShell } from '../src/shells/web/server';
import type { EventName, EventPayload } from '../src/shared/ipc';

export const ROOT = resolve(import.meta.dirname, '..');
export const RENDERER_DIR = join(ROOT, 'out', 'renderer');

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
  /** the export formats the core writes and offers (default: the built-in ones): a spec registers one of its own */
  formats?: readonly Format[];
  /**
   * The machine's clock as the core sees it (a spec that simulates days moves it, and gives its sandbox the
   * same one): the clock is a port, so this is the clock's test double.
   */
  now?: () => number;
  /** how often the watches' runner looks for due runs (the app: 30 s; a spec that moves the clock: less) */
  watchTickMs?: number;
  /** the window's size (default 1280 × 840) */
  viewport?: { width: number; height: number };
  /** the page's colour scheme (default: the system's, light) */
  colorScheme?: 'light' | 'dark';
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
  close: () => Promise<void>;
  /** where settings, usage and caches live for this run */
  userDataDir: string;
  /** what the next "Save as" dialog answers: a path, or null for Cancel */
  setSavePath: (path: string | null) => Promise<void>;
  /** push an event from main to the renderer, as the native menu does */
  emit: <E extends EventName>(name: E, payload: EventPayload<E>) => Promise<void>;
  // --- the unforgeable confirmation (main's native dialog in the app): a test double ---
  /** what the user answers main's next confirmation dialogs (default: yes, as a user who clicks OK) */
  setConfirmAnswer: (answer: boolean) => Promise<void>;
  /**
   * The e2e host's recorders and its sandbox's control plane. Null in the `electron` project, whose main
   * process keeps its own: an expectation on them is host-only (`hostOf` in e2e/fixtures skips the rest of
   * the test there), never a vacuous pass on an empty list.
   */
  host: HostDoubles | null;
}

export interface HostDoubles {
  /** base URL of the demo sandbox (started on demand) for its control plane; null when pointed at `apiBaseUrl` */
  sandboxUrl: () => Promise<string | null>;
  /** the save dialogs main has opened so far */
  saveRequests: () => readonly SaveRequest[];
  /** URLs main handed to the system browser (recorded, not opened) */
  openedExternally: () => readonly string[];
  /** unexpected failures inside main handlers (bugs), as the app would log them */
  internalErrors: () => readonly unknown[];
  /** the confirmations main has asked for so far */
  confirmRequests: () => readonly ConfirmRequest[];
}

/** Chromium to run: `SKEIN_CHROMIUM`, else Debian's `/usr/bin/chromium`, else Playwright's own browser. */
export function chromiumExecutable(): string | undefined {
  const fromEnv = process.env.SKEIN_CHROMIUM;
  if (fromEnv) return fromEnv;
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ headless: true, args: CHROMIUM_ARGS, executablePath: chromiumExecutable() });
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

/** The page's event stream is live: events emitted now reach it. */
async function eventsLive(page: Page): Promise<void> {
  await page.locator(`html[${EVENTS_ATTRIBUTE}="live"]`).waitFor({ state: 'attached' });
}

export async function launchApp(options: LaunchOptions = {}): Promise<SkeinApp> {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
    throw new Error(`No built renderer in ${RENDERER_DIR}: run \`npm run build\` first.`);
  }
  const ownDataDir = !options.userDataDir;
  const userDataDir = options.userDataDir ?? (await mkdtemp(join(tmpdir(), 'skein-e2e-')));
  const browser = options.browser ?? (await launchChromium());
  let context: BrowserContext | undefined;
  let core: Core | undefined;
  let shell: WebShell | undefined;

  let savePath: string | null = null;
  const saveRequests: SaveRequest[] = [];
  const opened: string[] = [];
  const internalErrors: unknown[] = [];
  let confirmAnswer = true;
  const confirmRequests: ConfirmRequest[] = [];
  let page: Page | undefined;
  let acks = 0;

  // Delivered, not only sent: the page's own listener (registered after the spec's) has run.
  const emit = async <E extends EventName>(name: E, payload: EventPayload<E>) => {
    const target = page;
    if (!target || !shell) return;
    await eventsLive(target);
    const key = `__skeinAck${++acks}`;
    await target.evaluate(
      ([event, ack]) => {
        const w = window as unknown as Record<string, unknown>;
        w[ack] = new Promise<void>((done) => {
          const off = window.skein!.events.on(event, () => {
            off();
            done();
          });
        });
      },
      [name, key] as const,
    );
    shell.emit(name, payload);
    await target.evaluate(async (ack) => {
      const w = window as unknown as Record<string, unknown>;
      const delivered = w[ack] as Promise<void>;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>(
        (_, fail) => (timer = setTimeout(() => fail(new Error('event not delivered within 10 s')), 10_000)),
      );
      try {
        await Promise.race([delivered, late]);
      } finally {
        clearTimeout(timer);
        delete w[ack];
      }
    }, key);
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
      emit: (name, payload) => shell?.emit(name, payload),
      log: { error: (message, error) => internalErrors.push({ message, error }), warn: () => {} },
      // the archive in its worker thread, from source
      workers: {
        archive: new URL('../src/core/compose/archive-worker.ts', import.meta.url),
        reexport: new URL('../src/core/compose/reexport-worker.ts', import.meta.url),
        live: new URL('../src/core/compose/live-worker.ts', import.meta.url),
        files: new URL('../src/core/compose/files-worker.ts', import.meta.url),
        execArgv: ['--import', 'tsx'],
      },
      formats: options.formats,
      ...(options.now ? { now: options.now } : {}),
      ...(options.watchTickMs ? { watches: { tickMs: options.watchTickMs } } : {}),
    });
    shell = await startWebShell({
      core,
      rendererDir: RENDERER_DIR,
      pageOpensLinks: false,
      onInternalError: (error, channel) => internalErrors.push({ channel, error }),
      assetHeaders: options.crossOriginIsolated ? { 'Cross-Origin-Embedder-Policy': 'credentialless' } : undefined,
      onBridgeCall: options.onBridgeCall,
    });
    context = await browser.newContext({
      viewport: options.viewport ?? { width: 1280, height: 840 },
      reducedMotion: 'reduce',
      ...(options.colorScheme ? { colorScheme: options.colorScheme } : {}),
    });
    page = await context.newPage();
    // As a user does: the printed URL sets the session cookie, then the app opens.
    await page.goto(shell.url);
    await page.waitForURL(`${shell.origin}/index.html`);
    await eventsLive(page);
  } catch (error) {
    await context?.close().catch(() => {});
    if (!options.browser) await browser.close().catch(() => {});
    await shell?.close().catch(() => {});
    await core?.dispose().catch(() => {});
    throw error;
  }

  const readyCore = core;
  const readyShell = shell;
  const readyContext = context;
  return {
    page,
    userDataDir,
    setSavePath: async (path) => {
      savePath = path;
    },
    emit,
    setConfirmAnswer: async (answer) => {
      confirmAnswer = answer;
    },
    host: {
      sandboxUrl: async () => (await readyCore.sandbox())?.baseUrl ?? null,
      saveRequests: () => saveRequests,
      openedExternally: () => opened,
      internalErrors: () => internalErrors,
      confirmRequests: () => confirmRequests,
    },
    close: async () => {
      await readyContext.close().catch(() => {});
      if (!options.browser) await browser.close().catch(() => {});
      await readyShell.close();
      await readyCore.dispose();
      if (ownDataDir) await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
