/**
 * The watch area's `WatchStore` over the archive's worker: every table method is the watch part's, called by
 * name on the project of the mode in use (one proxy, so a new method needs no line here), and `flush` writes
 * the answers the client has queued.
 */
import { partProxy, type ArchiveThread, type Projects } from '../archive';
import type { Mode } from '../../shared/ipc/app';
import { WATCH_PART_NAME, type WatchProject, type WatchStore, type WatchTables } from '../watch';

function storeOver(thread: ArchiveThread, handle: 'current' | 'demo'): WatchStore {
  const tables = partProxy<WatchTables>(thread, handle, WATCH_PART_NAME);
  // the client posts each answer after a hop of promises: let them run, then write the queue
  const flush = async (): Promise<void> => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    await thread.call('flush');
  };
  // a proxy's methods are answered as they are asked for (spreading it would copy none): `flush` is this one's
  return new Proxy(tables, {
    get: (target, method, receiver): unknown => (method === 'flush' ? flush : Reflect.get(target, method, receiver)),
  }) as WatchStore;
}

/** The project the mode in use keeps its watches in, or null when it cannot be opened. */
export function watchProject(
  projects: Projects,
  thread: Promise<ArchiveThread>,
  mode: () => Mode,
): () => Promise<WatchProject | null> {
  return async () => {
    const which = mode() === 'demo' ? 'demo' : 'current';
    try {
      const handle = await projects.handleFor(which);
      const ref = projects.ref(which);
      const archive = await thread;
      return {
        ...ref,
        store: storeOver(archive, handle),
        keepCollection: async ({ name, manifest, ids }) => {
          const same = await archive.call('collectionWith', handle, 'watch', manifest);
          if (same !== null) return same;
          const id = await archive.call('createCollection', handle, { name, kind: 'watch', manifest });
          let position = 0;
          for await (const chunk of ids) {
            if (chunk.length === 0) continue;
            const items = chunk.map((item) => ({ kind: 'post', id: item, depth: null, place: null }));
            await archive.call('appendCollection', handle, id, position, items);
            position += chunk.length;
          }
          return id;
        },
        notes: {
          read: async (key) => archive.call('meta', handle, key),
          write: async (key, value) => archive.call('setMeta', handle, key, value),
        },
      };
    } catch {
      return null;
    }
  };
}
