/**
 * Bridge handlers of the `ids` namespace (id imports for hydration) and the two hooks the export feature
 * takes from them: a hydration's ids, and where its missing ids are kept.
 */
import { join } from 'node:path';
import { SkeinError } from '../../shared/errors';
import type { HandlersOf } from '../../shared/ipc/define';
import type { ExportJob } from '../../shared/ipc/export';
import type { idsContract } from '../../shared/ipc/ids';
import { MAX_IDS_PER_CALL } from '../../shared/api/catalog';
import { previewIdFile } from './id-import';
import type { IdList, MissingList } from './id-list';
import { ImportStore } from './import-store';

export type IdsHandlers = HandlersOf<typeof idsContract>;

export interface IdsFeature {
  handlers: IdsHandlers;
  store: ImportStore;
  /** for the export feature: the ids of a hydration's import */
  importedIds: (importId: string) => Promise<IdList>;
  /** for the export feature: keeps what a hydration did not get */
  onMissing: (job: ExportJob, missing: MissingList) => Promise<void>;
}

export function createIdsFeature(deps: { userDataDir: string; now: () => number }): IdsFeature {
  const store = new ImportStore({ dir: join(deps.userDataDir, 'imports'), now: deps.now });
  const handlers: IdsHandlers = {
    ids: {
      preview: ({ entity, head }) => previewIdFile(head, entity),
      create: ({ entity, label, source }) => store.create(entity, label, source),
      extend: ({ importId, label }) => store.extend(importId, label),
      append: ({ importId, text }) => store.append(importId, text),
      seal: ({ importId }) => store.seal(importId),
      list: () => store.list(),
      unread: async () => ({ folder: store.folder, lists: await store.unread() }),
      discard: async ({ importId }) => ({ discarded: await store.discard(importId) }),
      hydrations: ({ importId }) => store.hydrations(importId),
      missing: async ({ jobId, offset, limit }) => {
        const slice = await store.missing(jobId, offset, limit);
        if (!slice) throw new SkeinError('not-found', 'This export is not a hydration, or it has not stopped yet.');
        return slice;
      },
      retryMissing: ({ jobId }) => store.retryMissing(jobId),
    },
  };
  return {
    handlers,
    store,
    importedIds: (importId) => store.idList(importId, MAX_IDS_PER_CALL),
    onMissing: async (job, missing) => {
      const from = job.view.idsFrom === undefined ? null : await store.meta(job.view.idsFrom);
      if (from) await store.saveMissing(job.id, from, missing);
    },
  };
}
