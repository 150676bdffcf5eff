/**
 * The core: builds every area and the bridge's handlers from what the shell provides (the ports,
 * `ports.ts`). The Electron root (src/shells/electron) and the browser shell (src/shells/web; the e2e host
 * runs it too) both call `createCore`, so the tests drive the very handlers the app runs. This file is also
 * the core's one public surface for the shells: they import nothing else of it.
 */
import { createServer } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Handlers, Mode } from '../shared/ipc';
import { SAVE_PACE_FLOOR_SECONDS } from '../shared/ipc/settings';
import { SkeinError } from '../shared/errors';
import { createApiHandlers } from './api';
import { createAppHandlers } from './app';
import { PARTS } from './compose/parts';
import { createArchiveHandlers, createProjects, keepAsCollection, startArchiveThread, type Projects } from './archive';
import { systemClock } from './clock';
import { createCodingFeature } from './coding';
import { clientPageSource } from './compose/client-page-source';
import { archiveSource } from './compose/archive-reader';
import { codingStores } from './compose/coding-store';
import { watchProject } from './compose/watch-store';
import { savedJobs, type SavedJobs } from './compose/saved-jobs';
import { createExportFeature, liveInWorker, suggestedFileName, writeFromJournalInWorker } from './export';
import { formatRegistry, type Format } from './formats';
import { createIdsFeature } from './ids';
import type {
  AppIdentity,
  ChooseOpenPath,
  ChooseSavePath,
  Confirm,
  Emit,
  ExportPlatform,
  Log,
  OpenExternal,
  SandboxHandle,
  SecretStorage,
  ShowInFolder,
  StartSandbox,
  WorkerEntries,
} from './ports';
import type { MediaPolicy } from './protocol';
import { createClientServices, createKeyStore, createSettingsHandlers, type ClientServices } from './session';
import { createWatchFeature, type WatchFeature } from './watch';
import { mediaFeature, type MediaFeature } from './compose/media';
import { createMediaHandlers, type MediaJobs } from './media';
import { pagesFeature, type PagesFeature } from './compose/pages';
import { projectFolder } from './compose/folders';
import { createPagesHandlers } from './pages';

// The core's public surface for the shells: createCore and the ports (below), and what both shells serve
// with — the bridge's handle(), the app protocol's assets and CSP, the menu.
export type * from './ports';
export { createDispatcher, guarded, isTrustedFrame, originOf, type DispatcherOptions, type FrameLike } from './bridge';
export {
  APP_ENTRY_URL,
  APP_HOST,
  APP_ORIGIN,
  APP_SCHEME,
  SECURITY_HEADERS,
  serveAsset,
  type MediaPolicy,
} from './protocol';
export { menuTemplate, type MenuItem } from './app';
export { RunnerBusy, type WatchFeature } from './watch';
export { holdYoungGeneration } from './workers';

export interface CoreDeps {
  /** where settings, usage and caches live */
  userDataDir: string;
  secretStorage: SecretStorage;
  /** hands an http(s) URL to the system browser */
  openExternal: OpenExternal;
  app: AppIdentity;
  /** point Skein at any server speaking the API (e2e host, `--api-base-url`); live mode */
  apiBaseUrl?: string | undefined;
  apiKey?: string | undefined;
  /** starts the embedded demo sandbox; called lazily, at most once per core */
  startSandbox: StartSandbox;
  chooseSavePath: ChooseSavePath;
  /** reveals a file the core wrote in the system's file manager; absent (a browser, the CLI): says where it is */
  showInFolder?: ShowInFolder;
  /**
   * A confirmation the renderer cannot forge (a native dialog in the app, a test double in the e2e
   * host): moving the key to another origin, raising the pace or the hourly budget, resuming an
   * export with looser caps, keeping the key without a keyring. Absent: every such request is refused.
   */
  confirm?: Confirm;
  /** pushes an event to every renderer */
  emit: Emit;
  /** taskbar progress and "export finished" notifications (absent in tests and the e2e host) */
  exportPlatform?: ExportPlatform;
  fetch?: typeof fetch;
  now?: () => number;
  log?: Log;
  /** the worker modules the shell can run (the archive's, a re-export's); absent: that work runs on main's thread */
  workers?: WorkerEntries;
  /** main's open dialog for a project file (absent in the browser shell: projects are picked from main's list) */
  chooseOpenPath?: ChooseOpenPath;
  /** the export formats, in the order the dialogs offer them (default: the built-in ones, `BUILT_IN_FORMATS`) */
  formats?: readonly Format[];
  /**
   * One project only (the headless runner): a file's path, or a team project's address (as Manage projects
   * shows it). Every answer and every watch goes there, whatever the list of projects says, and that list is
   * left as it is.
   */
  projectPath?: string;
  /** the team project's password, for `projectPath` (the headless runner reads it from its environment) */
  projectPassword?: string | null;
  /** the name this Skein's answers are recorded with, for this run only (the headless runner's `--researcher`) */
  researcher?: string;
  /** the API's pace for this run only (requests per second; the headless runner's `--rate`), not saved */
  requestsPerSecond?: number;
  /**
   * The watches' runner: who runs them here (the app, or the headless runner), how often it looks
   * for due ones (default 30 s), whether it starts with the core (default: yes), and its progress lines.
   */
  watches?: {
    who?: 'app' | 'headless';
    tickMs?: number;
    start?: boolean;
    progress?: (line: string) => void;
    verbose?: boolean;
  };
}

export interface Core {
  handlers: Handlers;
  /** settings, key store, usage meter and the API client (`client.fetchPage`, `client.loadedPages`) */
  client: ClientServices;
  /** the research projects: where every answer is recorded */
  projects: Projects;
  /** the watches: their scheduler, which the headless runner drives */
  watches: WatchFeature;
  /** saved jobs: the headless runner's `skein run` (the app's "Save as job…" is the `jobs` handlers) */
  jobs: SavedJobs;
  /** the media of the project's posts: keep a collection's, verify what was kept */
  media: MediaFeature;
  /** keepings of media as jobs (the bridge's, an export's, a watch's): how one ended, for the headless runner */
  mediaJobs: Pick<MediaJobs, 'start' | 'settled'>;
  /** the pages the project's posts link to: capture a collection's */
  pages: PagesFeature;
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

/** A report's words as a sentence for the status bar: its first letter capital, at most 2,000 characters. */
function asSentence(text: string): string {
  const cut = text.length > 2_000 ? `${text.slice(0, 1_999)}…` : text;
  return cut.charAt(0).toUpperCase() + cut.slice(1);
}

/** An export's file written off main's event loop: while it collects, or from its journal at its end. */
const exportFileWorkers = (offMain: { entry: URL; execArgv?: string[] }) => ({
  openLive: liveInWorker(offMain),
  writeFromJournal: writeFromJournalInWorker(offMain),
});

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
    entry: deps.workers?.archive,
    reexportEntry: deps.workers?.reexport,
    execArgv: deps.workers?.execArgv,
    // said in the window too: nobody waits for an ingest, so this is the only word a person gets
    onError: (error) => {
      deps.log?.error('the archive failed', error);
      deps.emit('archive', { text: asSentence(error.message), at: now() });
    },
    parts: PARTS,
  });
  const projectFilters = [{ name: 'Skein project', extensions: ['skein'] }];
  const chooseOpen = deps.chooseOpenPath;
  let beforeSwitch: () => Promise<void> = async () => undefined;
  const projects = createProjects({
    ...(deps.projectPath ? { fixedPath: deps.projectPath } : {}),
    ...(deps.projectPassword !== undefined ? { fixedPassword: deps.projectPassword } : {}),
    ...(deps.researcher !== undefined ? { fixedResearcher: deps.researcher } : {}),
    beforeSwitch: () => beforeSwitch(),
    userDataDir: deps.userDataDir,
    thread: archiveThread,
    mode: () => currentMode(),
    chooseNewPath: (suggested) =>
      deps.chooseSavePath({ title: 'New project', defaultPath: suggested, filters: projectFilters }),
    ...(chooseOpen ? { chooseExistingPath: () => chooseOpen({ title: 'Open project', filters: projectFilters }) } : {}),
    secretStorage: deps.secretStorage,
    ...(deps.confirm ? { confirm: deps.confirm } : {}),
    log: (message, error) => deps.log?.error(message, error),
  });
  disposers.push(async () => {
    await projects.dispose().catch(() => undefined);
    await (await archiveThread).close();
  });

  // the coding workbench's keys, for the logger to cut out (bound once the workbench exists, below)
  let codingSecrets: () => string[] = () => [];
  const client = createClientServices({
    // the coding workbench's keys and the team projects' passwords
    otherSecrets: () => [...codingSecrets(), ...projects.secrets()],
    archive: projects.link,
    userDataDir: deps.userDataDir,
    secretStorage: deps.secretStorage,
    demoBaseUrl: async () => (await demo.get()).baseUrl,
    fetch: doFetch,
    clock: { now, setTimer: systemClock.setTimer, sleep: systemClock.sleep },
    writeLog: (line, level) => (level === 'error' ? deps.log?.error(line) : deps.log?.warn(line)),
    initial: { baseUrl: deps.apiBaseUrl, key: deps.apiKey, requestsPerSecond: deps.requestsPerSecond },
    ...(deps.confirm ? { confirm: deps.confirm } : {}),
  });
  senderGone.push((senderId) => client.onSenderGone(senderId));
  const mode = (): Mode => client.mode();
  currentMode = mode;

  const ids = createIdsFeature({ userDataDir: deps.userDataDir, now });
  // the coding workbench: its values live in the project of the mode, its keys like the API key
  const projectOfMode = () => projects.handleFor(mode() === 'demo' ? 'demo' : 'current');
  const keptLikeTheApiKey = (name: string) =>
    createKeyStore({
      secrets: deps.secretStorage,
      file: join(deps.userDataDir, name),
      persistWithoutKeyring: () => client.settings().persistKeyWithoutKeyring,
    });
  const coding = createCodingFeature({
    store: codingStores(archiveThread),
    handle: projectOfMode,
    // from the registry, not `projects.state()`: that opens both projects and counts their items, and the coding
    // view asks for these on every load
    projectName: async () => projects.ref(mode() === 'demo' ? 'demo' : 'current').name,
    projectId: async () => {
      const ref = projects.ref(mode() === 'demo' ? 'demo' : 'current');
      return `${ref.kind}:${ref.id}`;
    },
    researcher: async () => projects.researcher(),
    userDataDir: deps.userDataDir,
    now,
    app: deps.app,
    chooseSavePath: deps.chooseSavePath,
    ...(deps.showInFolder ? { showInFolder: deps.showInFolder } : {}),
    ...(deps.confirm ? { confirm: deps.confirm } : {}),
    fetch: doFetch,
    pseudonymKey: keptLikeTheApiKey('pseudonym-key.json'),
    modelKey: keptLikeTheApiKey('model-key.json'),
    sandboxBaseUrl: async () => (deps.apiBaseUrl ? null : (await demo.get()).baseUrl),
    ...(deps.workers?.files ? { filesWorker: { entry: deps.workers.files, execArgv: deps.workers.execArgv } } : {}),
    onError: (error) => deps.log?.error('coding failed', error),
  });
  codingSecrets = coding.secrets;
  disposers.push(() => coding.dispose());
  const exportContext = async () => ({
    appName: deps.app.name,
    appVersion: deps.app.version,
    mode: mode(),
    baseUrl: mode() === 'demo' ? (await demo.get()).baseUrl : client.settings().baseUrl,
  });
  const formats = formatRegistry(deps.formats);
  const exporter = createExportFeature({
    formats,
    // the Archive view's export: an export whose source is the archive
    archive: async () => archiveSource(await archiveThread),
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
      // a thread's estimate reads the listings of its conversation the project holds (no call)
      conversation: async (rootId) => {
        try {
          const handle = await projects.handleFor(mode() === 'demo' ? 'demo' : 'current');
          return await (await archiveThread).call('conversation', handle, rootId);
        } catch {
          return [];
        }
      },
    },
    stateDir: join(deps.userDataDir, 'exports'),
    // an export's file written off main's event loop (while it collects, or from its journal), under a heap's limit
    ...(deps.workers?.live ? exportFileWorkers({ entry: deps.workers.live, execArgv: deps.workers.execArgv }) : {}),
    source: clientPageSource(client.client),
    clock: { now, setTimer: systemClock.setTimer, sleep: systemClock.sleep },
    context: exportContext,
    // every export written becomes a collection of the project holding its items (to export again, no call);
    // an export that asked for its posts' media starts keeping that collection's, as the Archive's button does
    // (only in the project of the mode in use, where the media feature keeps them)
    onWritten: async (run) => {
      // the project that holds the items (of the mode they were collected in); a later try keeps them only there
      const held = projects.ref(run.manifest.mode === 'demo' ? 'demo' : 'current');
      if (run.project && run.project.id !== held.id)
        throw new SkeinError(
          'bad-input',
          `This export's items went into the project “${run.project.name}”, not the one open now (“${held.name}”).`,
          { action: `Open “${run.project.name}” (Archive, Manage projects), then keep the export in it.` },
        );
      run.into({ id: held.id, name: held.name });
      const collection = await keepAsCollection(await archiveThread, projects.handleFor, run);
      const sameProject = (run.manifest.mode === 'demo') === (mode() === 'demo');
      if (!run.job.keepMedia || !sameProject) return { collection };
      return { collection, mediaJob: mediaJobs.start(collection, { estimate: true }).id };
    },
    prices: () => client.settings().prices,
    chooseSavePath: deps.chooseSavePath,
    ...(deps.confirm ? { confirm: deps.confirm } : {}),
    emit: (job) => deps.emit('export', job),
    ...(deps.exportPlatform ? { platform: deps.exportPlatform } : {}),
    onInternalError: (error) => deps.log?.error('export failed', error),
    // every export of a project's items: its codes as extra columns, opted-out accounts left out (of every file)
    policy: (handle, itemKind) => coding.exportPolicy(handle, itemKind),
    projectHandle: projectOfMode,
  });
  disposers.push(() => exporter.dispose());
  const jobs = savedJobs({
    service: exporter.service,
    ids,
    formats,
    chooseSavePath: deps.chooseSavePath,
    createdBy: `${deps.app.name} ${deps.app.version}`,
    now,
    suggestedFileName: (start, extension) => suggestedFileName(start.view, extension, now()),
    // the project of the mode, as the export's collections: the runner's fixed project, the app's open one
    records: {
      read: async (key) => (await archiveThread).call('meta', await projectOfMode(), key),
      write: async (key, value) => (await archiveThread).call('setMeta', await projectOfMode(), key, value),
    },
    host: hostname(),
    ...(deps.showInFolder ? { showInFolder: deps.showInFolder } : {}),
    watch: () => watches.handlers.watch,
  });

  // watchlists: run here while the core is up (the app), or driven by the headless runner
  const watchClock = { now, setTimer: systemClock.setTimer, sleep: systemClock.sleep };
  const watches = createWatchFeature({
    project: watchProject(projects, archiveThread, mode),
    source: clientPageSource(client.client),
    clock: watchClock,
    prices: () => client.settings().prices,
    mode,
    identity: { who: deps.watches?.who ?? 'app', host: hostname(), pid: process.pid },
    tickMs: deps.watches?.tickMs ?? 30_000,
    ...(deps.confirm ? { confirm: deps.confirm } : {}),
    chooseSavePath: deps.chooseSavePath,
    emit: (event) => deps.emit('watch', event),
    ...(deps.watches?.progress ? { progress: deps.watches.progress } : {}),
    verbose: deps.watches?.verbose ?? false,
    warn: (message, error) => deps.log?.error(message, error),
    appName: `${deps.app.name} ${deps.app.version}`,
    // a watch that keeps its media: the same keeping job as the Archive's, awaited (a stop cancels it)
    keepMedia: async (collection, signal) => {
      const started = mediaJobs.start(collection);
      const stop = () => mediaJobs.cancel(started.id);
      signal.addEventListener('abort', stop, { once: true });
      try {
        const m = await mediaJobs.settled(started.id);
        if (!m) return { kept: 0, failed: 0, message: 'the keeping of the media was lost' };
        const message =
          m.state === 'failed' ? m.message : m.state === 'cancelled' ? 'stopped before every file was kept' : null;
        return { kept: m.kept, failed: m.failed, message };
      } finally {
        signal.removeEventListener('abort', stop);
      }
    },
  });
  beforeSwitch = () => watches.scheduler.stop().then(() => watches.scheduler.restart());
  if (deps.watches?.start !== false) watches.scheduler.start();
  // the watches let go of their project first: a run under way ends cleanly, before the archive closes
  disposers.push(() => watches.dispose());

  // trusted time for media's keeping runs and pages' capture runs alike: the sandbox's stand-in in demo mode
  const authorities = async () => {
    if (mode() === 'demo' && !deps.apiBaseUrl)
      return { authorities: [`${(await demo.get()).baseUrl}/tsa`], noneReason: '' };
    const { timestampAuthority, timestampFallback } = client.settings();
    return {
      authorities: [timestampAuthority, timestampFallback].filter((u): u is string => u !== null),
      noneReason: 'no timestamp authority is set in Settings, so no trusted time was asked for',
    };
  };

  const media = mediaFeature({
    projects,
    thread: archiveThread,
    mode,
    userDataDir: deps.userDataDir,
    chooseSavePath: deps.chooseSavePath,
    madeBy: `${deps.app.name} ${deps.app.version}`,
    // made below: read only when a package is made
    linked: () => pages.linked(),
    checkPages: (onProgress) => pages.verify(onProgress),
    loadedItems: (view) =>
      client.client.loadedPages({ operation: view.operation, params: view.params }).map((p) => p.raw.items),
    sandboxOrigin: async () => (deps.apiBaseUrl ? null : new URL((await demo.get()).baseUrl).origin),
    authorities,
    maxVideoBitrate: () => client.settings().maxVideoBitrate,
    now,
  });

  const mediaJobs = createMediaHandlers(media);
  disposers.push(mediaJobs.dispose);

  // the pages the posts link to; in demo mode fetched from the sandbox's small web
  const pages = pagesFeature({
    projects,
    thread: archiveThread,
    mode,
    userDataDir: deps.userDataDir,
    sandboxBaseUrl: async () => (mode() === 'demo' && !deps.apiBaseUrl ? (await demo.get()).baseUrl : null),
    now,
    clock: { now, sleep: systemClock.sleep },
    // off unless the researcher turned it on; demo mode sends to the sandbox's stand-in, never to a real archive
    saveService: async () => {
      const s = client.settings();
      if (!s.saveService) return null;
      const service = mode() === 'demo' && !deps.apiBaseUrl ? `${(await demo.get()).baseUrl}/save/` : s.saveServiceUrl;
      // the floor again here: a settings file edited by hand is read through the same schema, but the pace is
      // what keeps a public archive from being flooded
      return { service, paceMs: Math.max(SAVE_PACE_FLOOR_SECONDS, s.saveServicePaceSeconds) * 1000 };
    },
    software: `${deps.app.name} ${deps.app.version}`,
    authorities,
  });
  const pageJobs = createPagesHandlers(pages);
  disposers.push(pageJobs.dispose);

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
    ...jobs.handlers,
    ...createArchiveHandlers({
      projects,
      thread: archiveThread,
      mode,
      exportQuery: exporter.fromArchive,
      version: deps.app.version,
      now,
      datasetFolder: (location) => projectFolder(location, deps.userDataDir, 'dataset'),
    }),
    ...coding.handlers,
    ...watches.handlers,
    ...mediaJobs.handlers,
    ...pageJobs.handlers,
  };

  return {
    handlers,
    client,
    projects,
    watches,
    jobs,
    media,
    mediaJobs: { start: mediaJobs.start, settled: mediaJobs.settled },
    pages,
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
