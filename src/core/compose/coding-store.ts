/**
 * The coding area's `CodingStore` over the archive's thread: one proxy for its tables' calls (every method of
 * the coding part, by name, on the project of a handle: a new table method needs no edit here), answering itself
 * only the few reads of the archive's items coding needs.
 */
import { partProxy, type ArchiveThread } from '../archive';
import { CODING_PART, type CodingStore, type CodingTables, type Handle, type ProjectItems } from '../coding';

export function codingStore(thread: ArchiveThread, handle: Handle): CodingStore {
  const c = thread.call;
  const items: ProjectItems = {
    groupCounts: (q, by, limit) => c('groupCounts', handle, q, by, limit),
    grouped: async function* (q, by, chunk) {
      const reader = await c('groupedOpen', handle, q, by);
      try {
        for (;;) {
          const rows = await c('groupedNext', reader, chunk);
          if (rows.length > 0) yield rows;
          if (rows.length < chunk) return;
        }
      } finally {
        await c('groupedClose', reader);
      }
    },
    lowestRanked: (q, by, prefix, quotas) => c('lowestRanked', handle, q, by, prefix, quotas),
    itemCards: (refs) => c('itemCards', handle, refs),
    heldItems: (kind, ids, withRaw) => c('heldItems', handle, kind, ids, withRaw),
    keptItems: (kind, ids, withRaw) => c('keptItems', handle, kind, ids, withRaw),
    accountOf: (ref) => c('accountOf', handle, ref),
    collections: () => c('collections', handle),
    meta: (key) => c('meta', handle, key),
    setMeta: (key, value) => c('setMeta', handle, key, value),
  };
  const tables = partProxy<CodingTables>(thread, handle, CODING_PART.name);
  // a proxy's methods are answered when asked for, never copied: the archive's reads first, then the tables'
  return new Proxy(tables, {
    get: (target, name, receiver) =>
      typeof name === 'string' && Object.hasOwn(items, name)
        ? items[name as keyof ProjectItems]
        : (Reflect.get(target, name, receiver) as unknown),
  }) as CodingStore;
}

/** The coding store of a project by handle, over the archive's thread once it has started. */
export const codingStores =
  (thread: Promise<ArchiveThread>) =>
  async (handle: Handle): Promise<CodingStore> =>
    codingStore(await thread, handle);
