/**
 * The `coding` namespace of the bridge, over the coding service, its files, its imports and model runs, and the
 * two keys it keeps like the API key (the pseudonymisation key, a model endpoint's key): the page learns only
 * whether they are set, where they are kept, and a pseudonymisation key's fingerprint.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { SkeinError } from '../../shared/errors';
import type { Handlers } from '../../shared/ipc';
import type { CoderHere, ModelEndpoint, PseudonymKey } from '../../shared/ipc/coding';
import { baseUrlOrigin, type CredentialsStatus } from '../../shared/ipc/settings';
import type { JsonStore } from '../files/json-store';
import { recordFields } from '../files/unread-record';
import { refuseAll, type Confirm, type ShowInFolder } from '../ports';
import type { CodingExports } from './exports';
import type { CodingImports } from './imports';
import type { ModelRuns, ModelTarget } from './model';
import type { CodingService } from './service';

/**
 * A secret kept like the API key (the session's key store fits: OS key store, bound to an origin, never in a
 * file in clear, never sent to the page).
 */
export interface KeySlot {
  load: () => Promise<void>;
  key: () => string | null;
  origin: () => string | null;
  status: () => Promise<CredentialsStatus>;
  set: (key: string, origin?: string | null) => Promise<CredentialsStatus>;
  rebind: (origin: string) => Promise<void>;
  clear: () => Promise<CredentialsStatus>;
}

export interface CodingSettings extends Record<string, unknown> {
  modelKind: 'none' | 'demo' | 'custom';
  modelBaseUrl: string | null;
  /** who codes at this computer, per project (by main's handle for it): a person, not a page's choice */
  coderHere?: Record<string, number>;
}

export interface CodingHandlerDeps {
  service: CodingService;
  exports: CodingExports;
  imports: CodingImports;
  models: ModelRuns;
  settings: JsonStore<CodingSettings>;
  pseudonymKey: KeySlot;
  modelKey: KeySlot;
  /** the keys are read from disk once; every handler that needs one waits for it */
  ready: Promise<void>;
  confirm?: Confirm;
  /** absent (a browser, the CLI): the page is told where the file is instead */
  showInFolder?: ShowInFolder;
  /** main's handle for the project of the mode Skein is in, and the name this Skein records answers as */
  projectId: () => Promise<string>;
  researcher: () => Promise<string>;
}

/** A key's fingerprint: the same HMAC the share package's manifest names it by. */
function keyFingerprint(key: string): string {
  return createHmac('sha256', key).update('fingerprint\u0000skein pseudonymisation key').digest('hex').slice(0, 16);
}

/**
 * The model endpoint the settings name, as this Skein can use it: a kind it has no word for (a newer Skein's), or an
 * address it cannot read, is off here, and `unreadKind` says which kind was written (the file keeps it until an
 * endpoint is chosen here).
 */
function endpointOf(s: Partial<CodingSettings>): {
  kind: CodingSettings['modelKind'];
  baseUrl: string | null;
  unreadKind: string | null;
} {
  const kind: unknown = s.modelKind;
  const baseUrl: unknown = s.modelBaseUrl;
  const url = typeof baseUrl === 'string' && baseUrl.length <= 2048 ? baseUrl : null;
  if (kind === undefined || kind === 'none' || kind === 'demo')
    return { kind: kind ?? 'none', baseUrl: url, unreadKind: null };
  if (kind === 'custom' && url !== null && baseUrlOrigin(url) !== null) return { kind, baseUrl: url, unreadKind: null };
  return {
    kind: 'none',
    baseUrl: null,
    unreadKind: typeof kind === 'string' ? kind.slice(0, 100) : 'of another shape',
  };
}

/** who codes at this computer, per project, as written (a list or a text of a newer Skein's: nobody here) */
function coderHereOf(s: Partial<CodingSettings>): Readonly<Record<string, unknown>> {
  return recordFields(s.coderHere);
}

/** Where a model coder's calls go now, or null (off). */
export function modelTarget(
  settings: JsonStore<CodingSettings>,
  modelKey: KeySlot,
  demoBaseUrl: () => Promise<string | null>,
): () => Promise<ModelTarget | null> {
  return async () => {
    const s = endpointOf(settings.read());
    if (s.kind === 'demo') {
      const base = await demoBaseUrl();
      return base ? { baseUrl: `${base}/v1`, key: null } : null;
    }
    if (s.kind !== 'custom' || !s.baseUrl) return null;
    const origin = baseUrlOrigin(s.baseUrl);
    if (origin === null) return null;
    // the key goes only to the origin it was entered for
    return { baseUrl: s.baseUrl, key: modelKey.origin() === origin ? modelKey.key() : null };
  };
}

export function createCodingHandlers(deps: CodingHandlerDeps): Pick<Handlers, 'coding'> {
  const { service } = deps;

  const endpoint = async (): Promise<ModelEndpoint> => {
    await deps.ready;
    const { kind, baseUrl, unreadKind } = endpointOf(deps.settings.read());
    return { kind, baseUrl, key: await deps.modelKey.status(), unreadKind };
  };

  const pseudonym = async (): Promise<PseudonymKey> => {
    await deps.ready;
    const key = deps.pseudonymKey.key();
    return { status: await deps.pseudonymKey.status(), fingerprint: key === null ? null : keyFingerprint(key) };
  };

  const coderHere = async (): Promise<CoderHere> => {
    const store = await service.store();
    const id = coderHereOf(deps.settings.read())[await deps.projectId()];

    // a coder the project no longer has (another copy of it, a new demo) is nobody
    const coder = typeof id === 'number' ? await store.coder(id) : null;
    return { coder: coder?.kind === 'person' ? coder.id : null, switches: await store.switches(20) };
  };

  return {
    coding: {
      codebooks: () => service.codebooks(),
      codebook: ({ id }) => service.codebook(id),
      saveCodebook: (input) => service.saveCodebook(input),
      coders: () => service.coders(),
      addCoder: (input) => service.addCoder(input),
      updateCoder: (input) => service.updateCoder(input),
      reveal: ({ coder }) => service.reveal(coder),
      coderHere: () => coderHere(),
      setCoderHere: async ({ coder }) => {
        const store = await service.store();
        const person = await store.coder(coder);
        if (person?.kind !== 'person')
          throw new SkeinError(
            'bad-input',
            'Only a person codes at a computer: choose one of the people under Coders.',
          );
        const before = (await coderHere()).coder;
        if (before !== coder) {
          const project = await deps.projectId();
          const s = deps.settings.read();
          // the type is this Skein's entries; the file keeps those of other projects as they were
          const others = coderHereOf(s) as Record<string, number>;
          deps.settings.write({ ...s, coderHere: { ...others, [project]: coder } });
          await store.recordSwitch(before, coder, await deps.researcher());
        }
        return coderHere();
      },
      population: (input) => service.population(input),
      drawSample: (input) => service.drawSample(input),
      samples: ({ codebook }) => service.samples(codebook),
      queue: (input) => service.queue(input),
      values: (input) => service.values(input),
      code: (input) => service.code(input),
      agreement: (input) => service.agreement(input),
      disagreements: (input) => service.disagreements(input),
      adjudicate: (input) => service.adjudicate(input),
      optOuts: () => service.optOuts(),
      optOut: ({ account, note }) => service.optOut(account, note),
      optIn: ({ account }) => service.optIn(account),

      exportAnnotations: (input) => deps.exports.annotations(input),
      exportRecal: (input) => deps.exports.recal(input),
      exportQdpx: (input) => deps.exports.qdpx(input),
      exportCodebook: (input) => deps.exports.codebook(input),
      sharePackage: async (input) => {
        await deps.ready;
        return deps.exports.share(input);
      },
      shareCollection: async (input) => {
        await deps.ready;
        return deps.exports.shareCollection(input);
      },
      citation: () => deps.exports.citation(),
      showInFolder: async ({ file }) => {
        // the page may point only at what Skein itself just wrote, never at a path of its choosing
        if (!deps.exports.wrote(file))
          throw new SkeinError('forbidden', 'Skein shows only the files it wrote since it started.');
        if (!deps.showInFolder) return { shown: false, note: `This window cannot open a folder. The file is ${file}` };
        await deps.showInFolder(file);
        return { shown: true, note: 'Shown in your file manager.' };
      },

      uploadBegin: (input) => deps.imports.begin(input),
      uploadAppend: (input) => deps.imports.append(input),
      uploadFinish: (input) => deps.imports.finish(input),

      modelEndpoint: () => endpoint(),
      setModelEndpoint: async ({ kind, baseUrl, key }) => {
        await deps.ready;
        if (kind !== 'custom') {
          deps.settings.write({ ...deps.settings.read(), modelKind: kind });
          return endpoint();
        }
        const origin = baseUrl ? baseUrlOrigin(baseUrl) : null;
        if (!baseUrl || origin === null)
          throw new SkeinError(
            'bad-input',
            'The endpoint must be https:// (http:// only on this computer), without user:password@.',
            {
              fields: [{ field: 'baseUrl', message: 'https://…/v1, or http://localhost:11434/v1' }],
            },
          );
        if (key !== undefined && key.trim() !== '') await deps.modelKey.set(key.trim(), origin);
        else if (deps.modelKey.key() !== null && deps.modelKey.origin() !== origin) {
          // moving the key to another origin: only the person at the screen can say yes
          const yes = await (deps.confirm ?? refuseAll)({
            title: `Send your model key to ${origin}?`,
            detail: `The key was entered for ${deps.modelKey.origin() ?? 'another address'}. Saying yes sends it to ${origin} with every model call.`,
            confirmLabel: 'Send the key there',
          });
          if (!yes)
            throw new SkeinError('unauthorized', 'The model key stays with the address it was entered for.', {
              action: 'Enter the key again for this address.',
            });
          await deps.modelKey.rebind(origin);
        }
        deps.settings.write({ ...deps.settings.read(), modelKind: 'custom', modelBaseUrl: baseUrl });
        return endpoint();
      },
      clearModelKey: async () => {
        await deps.ready;
        await deps.modelKey.clear();
        return endpoint();
      },
      runModel: async (input) => {
        await deps.ready;
        return deps.models.start(input);
      },
      modelRuns: () => deps.models.list(),
      cancelModelRun: ({ id }) => deps.models.cancel(id),

      pseudonymKey: () => pseudonym(),
      setPseudonymKey: async ({ key }) => {
        await deps.ready;
        await deps.pseudonymKey.set(key?.trim() || randomBytes(32).toString('base64url'));
        return pseudonym();
      },
      clearPseudonymKey: async () => {
        await deps.ready;
        await deps.pseudonymKey.clear();
        return pseudonym();
      },
    },
  };
}
