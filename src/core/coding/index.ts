/**
 * The coding workbench's public surface: `createCodingFeature` builds the service, its files, imports and model
 * runs over a project's coding store (store.ts) and the keys it is given, and returns the `coding` handlers and the
 * codes an export writes as extra columns (`exportPolicy`).
 */
import { openJsonStore } from '../files/json-store';
import type { ChooseSavePath, Confirm, ShowInFolder } from '../ports';
import { createCodingExports } from './exports';
import { createCodingHandlers, modelTarget, type CodingSettings, type KeySlot } from './handlers';
import { packInWorker } from './files/packager';
import { readInWorker, readOnThisThread } from './files/reader';
import { createCodingImports } from './imports';
import { createModelRuns } from './model';
import { exportPolicy } from './policy';
import { createCodingService, type Handle } from './service';
import type { StoreOf } from './store';

export type { KeySlot } from './handlers';
export type { CodingStore, Handle, ProjectItems, StoreOf } from './store';
export type { CodingTables } from './tables/tables';
export { CODING_PART } from './tables/part';

export interface CodingFeatureDeps {
  /** a project's coding tables and the archive's items coding reads (fitted by the composition) */
  store: StoreOf;
  /** the project of the mode Skein is in */
  handle: () => Promise<Handle>;
  projectName: () => Promise<string>;
  /** main's handle for the project of the mode Skein is in (who codes at this computer is kept per project) */
  projectId: () => Promise<string>;
  /** the name this Skein records answers as (a switch of coder is recorded with it) */
  researcher: () => Promise<string>;
  userDataDir: string;
  now: () => number;
  app: { name: string; version: string };
  chooseSavePath: ChooseSavePath;
  showInFolder?: ShowInFolder;
  confirm?: Confirm;
  fetch: typeof fetch;
  /** the pseudonymisation key and a model endpoint's key, kept like the API key */
  pseudonymKey: KeySlot;
  modelKey: KeySlot;
  /** the demo sandbox's base URL (its deterministic model stand-in is at /v1); null when there is none */
  sandboxBaseUrl: () => Promise<string | null>;
  /**
   * the worker that reads files another person made (a .qdpx, a .qdc) and makes the share packages, each with a
   * memory limit; absent: this thread
   */
  filesWorker?: { entry: URL; execArgv?: string[] };
  onError?: (error: unknown) => void;
}

export function createCodingFeature(deps: CodingFeatureDeps) {
  const service = createCodingService({ store: deps.store, handle: deps.handle, now: deps.now });
  const settings = openJsonStore<CodingSettings>(deps.userDataDir, 'coding', {
    owns: ['modelKind', 'modelBaseUrl', 'coderHere'],
  });
  const ready = Promise.all([deps.pseudonymKey.load(), deps.modelKey.load()]).then(
    () => undefined,
    (error: unknown) => deps.onError?.(error),
  );
  const exports = createCodingExports({
    service,
    chooseSavePath: deps.chooseSavePath,
    now: deps.now,
    app: deps.app,
    projectName: deps.projectName,
    pseudonymKey: () => deps.pseudonymKey.key(),
    ...(deps.filesWorker ? { pack: packInWorker(deps.filesWorker.entry, deps.filesWorker.execArgv) } : {}),
  });
  const imports = createCodingImports({
    service,
    now: deps.now,
    read: deps.filesWorker ? readInWorker(deps.filesWorker.entry, deps.filesWorker.execArgv) : readOnThisThread,
  });
  const models = createModelRuns({
    service,
    now: deps.now,
    fetch: deps.fetch,
    target: modelTarget(settings, deps.modelKey, deps.sandboxBaseUrl),
    ...(deps.onError ? { onError: deps.onError } : {}),
  });
  const handlers = createCodingHandlers({
    service,
    exports,
    imports,
    models,
    settings,
    pseudonymKey: deps.pseudonymKey,
    modelKey: deps.modelKey,
    ready,
    projectId: deps.projectId,
    researcher: deps.researcher,
    ...(deps.confirm ? { confirm: deps.confirm } : {}),
    ...(deps.showInFolder ? { showInFolder: deps.showInFolder } : {}),
  });
  return {
    handlers,
    /** what an export of these items adds (code columns) and leaves out (opted-out accounts) */
    exportPolicy: exportPolicy({ store: deps.store }),
    /** secrets the logs must never show */
    secrets: (): string[] => [deps.pseudonymKey.key(), deps.modelKey.key()].filter((k): k is string => k !== null),
    dispose: () => models.dispose(),
  };
}
