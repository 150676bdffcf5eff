/**
 * Everything main does, minus Electron: builds the services and the bridge
 * handlers from injected dependencies. The Electron composition root
 * (index.ts) and the browser shell (web-shell/cli.ts; the e2e host runs it
 * too) both call `createCore`, so the tests drive the very handlers the app runs.
 */
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { DemoExamples, EventName, EventPayload, Handlers, Mode } from '../shared/ipc';
import { createAppHandlers, type AppIdentity } from './app/handlers';
import { createApiHandlers } from './api/handlers';
import { createArchiveHandlers } from './archive/handlers';
import { createExportFeature, type ChooseSavePath } from './export/handlers';
import { createIdsFeature } from './ids/handlers';
import { createSettingsHandlers } from './session/handlers';
import { createProjects, type Projects } from './archive/projects';
import { keepAsCollection } from './archive/collections';
import { startArchiveThread, type ArchiveThreadOptions } from './archive/thread';
import { createClientServices, type ClientServices } from './session/client-services';
import { systemClock } from './clock';
import { clientPageSource } from './export/client-source';
import { formatRegistry, type Format } from './formats';
import type { ExportPlatform } from './export/reporter';
import type { MediaPolicy } from './protocol/assets';
import type { Confirm } from './ports';
import type { SecretStorage } from './session/keys/secret-storage';
import type { Logger } from './session/logger';

/** The OS key store (Electron's safeStorage in the app, in-memory in tests). */
export type { SecretStorage };
export type { Confirm, ConfirmRequest } from './ports';

/** A running demo sandbox (see src/sandbox). */
export interface SandboxHandle {
  baseUrl: string;
  port: number;
  examples: DemoExamples;
  close: () => Promise<void>;
}
export type StartSandbox = (options: { port: number }) => Promise<SandboxHandle>;

export type { ChooseSavePath, SaveRequest } from './export/handlers';
/** What the core logs to: internal errors and warnings (the services' `Logger`, cut to what the core needs). */
export type CoreLog = Pick<Logger, 'error' | 'warn'>;

export interface CoreDeps {
  /** where settings, usage and caches live */
  userDataDir: string;
  secretStorage: SecretStorage;
  /** hands an http(s) URL to the system browser */
  openExternal: (url: string) => Promise<void>;
  app: AppIdentity;
  /** point Skein at any server speaking the API (e2e host, `--api-base-url`); live mode */
  apiBaseUrl?: string | undefined;
  apiKey?: string | undefined;
  /** starts the embedded demo sandbox; called lazily, at most once per core */
  startSandbox: StartSandbox;
  chooseSavePath: ChooseSavePath;
  /**
   * A confirmation the renderer cannot forge (a native dialog in the app, a test double in the e2e
   * host): moving the key to another origin, raising the pace or the hourly budget, resuming an
   * export with looser caps, keeping the key without a keyring. Absent: every such request is refused.
   */
  confirm?: Confirm;
  /** pushes an event to every renderer */
  emit: (name: EventName, payload: EventPayload<EventName>) => void;
  /** taskbar progress and "export finished" notifications (absent in tests and the e2e host) */
  exportPlatform?: ExportPlatform;
  fetch?: typeof fetch;
  now?: () => number;
  log?: CoreLog;
  /** the archive's worker thread (built: out/main/archive-worker.js); absent: the archive runs on main's thread */
  archiveWorker?: ArchiveThreadOptions;
  /** main's open dialog for a project file (absent in the browser shell: projects are picked from main's list) */
  chooseOpenPath?: (request: {
    title: string;
    filters: Array<{ name: string; extensions: string[] }>;
  }) => Promise<string | null>;
  /** the export formats, in the order the dialogs offer them (default: the built-in ones, `BUILT_IN_FORMATS`) */
  formats?: readonly Format[];
}

export interface Core {
  handlers: Handlers;
  /** settings, key store, usage meter and the API client (`client.fetchPage`, `client.loadedPages`) */
  client: ClientServices;
  /** the research projects (issue 24): where every answer is recorded */
  projects: Projects;
  /** a window closed or reloaded: cancel what it started */
  onSenderGone: (senderId: number) => void;
  /** the demo sandbox, started on first use; null when Skein points at another server */
  sandbox: () => Promise<SandboxHandle | null>;
  /** where the page may load images and media from (the app protocol's CSP): https unless turned off, and the sandbox's exact origin */
  mediaPolicy: () => Promise<MediaPolicy>;
  dispose: () => Promise<void>;
}

/** A value computed on first use, once, even under concurrent callers; a failure is retried next time. */
export function lazy<T>(start: () => Promise<T>): { get: () => Promise<T>; peek: () => Promise<T> | undefined } {
  let pending: Promise<T> | undefined;
  return {
    get() {
      pending ??= start().catch((error: unknown) => {
        pending = undefined;
        throw error;
      });
      return pending;
    },
    peek: () => pending,
  };
}

/** A free loopback port, known before the sandbox starts, so the page's CSP can name its exact origin. */
function reserveLoopbackPort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => done(port));
    });
  });
}

export function createCore(deps: CoreDeps): Core {
  const now = deps.now ?? Date.now;
  const doFetch = deps.fetch ?? globalThis.fetch.bind(globalThis);
  // the sandbox's port is chosen now and started on first use; if it was taken meanwhile, any port (media then needs a reload)
  const demoPort = deps.apiBaseUrl ? Promise.resolve(0) : reserveLoopbackPort().catch(() => 0);
  const demo = lazy(async () => {
    const port = await demoPort;
    return port === 0
      ? deps.startSandbox({ port: 0 })
      : deps.startSandbox({ port }).catch(() => deps.startSandbox({ port: 0 }));
  });
  const senderGone: Array<(senderId: number) => void> = [];
  const disposers: Array<() => Promise<void> | void> = [];

  let currentMode: () => Mode = () => 'demo';
  const archiveThread = startArchiveThread({
    ...deps.archiveWorker,
    onError: (error) => deps.log?.error('the archive failed', error),
  });
  const projectFilters = [{ name: 'Skein project', extensions: ['skein'] }];
  const chooseOpen = deps.chooseOpenPath;
  const projects = createProjects({
    userDataDir: deps.userDataDir,
    thread: archiveThread,
    mode: () => currentMode(),
    chooseNewPath: (suggested) =>
      deps.chooseSavePath({ title: 'New project', defaultPath: suggested, filters: projectFilters }),
    ...(chooseOpen ? { chooseExistingPath: () => chooseOpen({ title: 'Open project', filters: projectFilters }) } : {}),
    log: (message, error) => deps.log?.error(message, error),
  });
  disposers.push(async () => {
    await projects.dispose().catch(() => undefined);
    await (await archiveThread).close();
  });

  const client = createClientServices({
    archive: projects.link,
    userDataDir: deps.userDataDir,
    secretStorage: deps.secretStorage,
    demoBaseUrl: async () => (await demo.get()).baseUrl,
    fetch: doFetch,
    clock: { now, setTimer: systemClock.setTimer, sleep: systemClock.sleep },
    writeLog: (line, level) => (level === 'error' ? deps.log?.error(line) : deps.log?.warn(line)),
    initial: { baseUrl: deps.apiBaseUrl, key: deps.apiKey },
    ...(deps.confirm ? { confirm: deps.confirm } : {}),
  });
  senderGone.push((senderId) => client.onSenderGone(senderId));
  const mode = (): Mode => client.mode();
  currentMode = mode;

  const ids = createIdsFeature({ userDataDir: deps.userDataDir, now });
  const exportContext = async () => ({
    appName: deps.app.name,
    appVersion: deps.app.version,
    mode: mode(),
    baseUrl: mode() === 'demo' ? (await demo.get()).baseUrl : client.settings().baseUrl,
  });
  const exporter = createExportFeature({
    formats: formatRegistry(deps.formats),
    // the Archive view's export: an export whose source is the archive
    archive: () => archiveThread,
    importedIds: ids.importedIds,
    onMissing: ids.onMissing,
    // a hydration's ids the project (of the mode at the time) already holds are taken from it, not bought again
    project: {
      held: async (kind, list, withRaw) => {
        try {
          const handle = await projects.handleFor(mode() === 'demo' ? 'demo' : 'current');
          return await (await archiveThread).call('heldItems', handle, kind, list, withRaw);
        } catch (error) {
          // no project to take from (it could not be opened): the quote and the split count none held;
          // reading held items that were there at the start is an error (the job stops, resumable)
          if (withRaw) throw error;
          return [];
        }
      },
    },
    stateDir: join(deps.userDataDir, 'exports'),
    source: clientPageSource(client.client),
    clock: { now, setTimer: systemClock.setTimer, sleep: systemClock.sleep },
    context: exportContext,
    // every export written becomes a collection of the project holding its items (issue 24)
    onWritten: async (run) => {
      await keepAsCollection(await archiveThread, projects.handleFor, run);
    },
    prices: () => client.settings().prices,
    chooseSavePath: deps.chooseSavePath,
    ...(deps.confirm ? { confirm: deps.confirm } : {}),
    emit: (job) => deps.emit('export', job),
    ...(deps.exportPlatform ? { platform: deps.exportPlatform } : {}),
    onInternalError: (error) => deps.log?.error('export failed', error),
  });
  disposers.push(() => exporter.dispose());

  const handlers: Handlers = {
    ...createAppHandlers({
      identity: deps.app,
      mode,
      openExternal: deps.openExternal,
      demoExamples: async () => (await demo.get()).examples,
      ...(deps.confirm ? { confirm: deps.confirm } : {}),
    }),
    ...createApiHandlers(client),
    ...createSettingsHandlers(client),
    ...exporter.handlers,
    ...ids.handlers,
    ...createArchiveHandlers({ projects, thread: archiveThread, mode, exportQuery: exporter.fromArchive }),
  };

  return {
    handlers,
    client,
    projects,
    onSenderGone: (senderId) => {
      for (const listener of senderGone) listener(senderId);
    },
    sandbox: async () => (deps.apiBaseUrl ? null : demo.get()),
    mediaPolicy: async () => {
      await client.ready;
      const started = demo.peek();
      const running = started ? await started.catch(() => null) : null;
      const port = running?.port ?? (await demoPort);
      return { remote: client.settings().loadRemoteMedia, localOrigins: port > 0 ? [`http://127.0.0.1:${port}`] : [] };
    },
    dispose: async () => {
      for (const dispose of disposers.splice(0).reverse()) await dispose();
      const running = demo.peek();
      if (running) await (await running.catch(() => null))?.close();
    },
  };
}
