/**
 * The pages area over the archive's thread: its tables through one proxy (`partProxy`, every method by name),
 * a collection's posts read from the project in chunks, and the project's pages folder (beside a project file;
 * for a team project, in this machine's data folder, under the project's id). In demo mode a linked URL is
 * fetched from the sandbox's small web (`sandboxWebRoute`), the URL recorded still the post's. A run's WACZ is
 * timestamped by the authorities media's runs use (the sandbox's stand-in in demo mode, Settings' otherwise).
 */
import { partProxy, type ArchiveThread, type Projects } from '../archive';
import { DEFAULT_FETCH_POLICY } from '../net';
import type { Clock } from '../ports';
import {
  capturePages,
  distinctUrls,
  linksOf,
  PAGE_LIMITS,
  PAGES_PART_NAME,
  saveToArchive,
  type PageLink,
  type PageRoute,
  type PagesProjectPort,
  type PagesStore,
  type PageTables,
  type SaveProgress,
  verifyPages,
} from '../pages';
import type { LinkedPages } from '../media';
import { ArchiveQuery } from '../../shared/ipc/archive';
import type { Mode } from '../../shared/ipc/app';
import { projectFolder } from './folders';
import type { PagesCheck } from '../../shared/ipc/pages';

/**
 * The sandbox's small web (`GET /web/<host>/<path>`) standing in for the web in demo mode: an https link is
 * fetched from there, and an address there is read back as the link it stands for. Anything else (plain http)
 * is left as it is, so it is refused as it would be outside the demo.
 */
export function sandboxWebRoute(sandboxBaseUrl: string): PageRoute {
  const web = `${sandboxBaseUrl}/web/`;
  return {
    to: (url) => {
      const u = new URL(url);
      return u.protocol === 'https:' ? `${web}${u.host}${u.pathname}${u.search}` : url;
    },
    back: (fetched) => (fetched.startsWith(web) ? `https://${fetched.slice(web.length)}` : fetched),
  };
}

/** The handlers' port, with what the composition and the evidence package read of the project's pages. */
export interface PagesFeature extends PagesProjectPort {
  folder: () => Promise<string>;
  /** the project's linked pages as an evidence package reads them: the links of a post, the outcomes, the folder */
  linked: () => Promise<LinkedPages>;
  /** every file of captured pages (WACZ) re-hashed, the check `skein verify` and "Check kept files" make */
  verify: (onProgress?: (checked: number, total: number) => void) => Promise<PagesCheck>;
}

export interface PagesFeatureDeps {
  projects: Projects;
  thread: Promise<ArchiveThread>;
  mode: () => Mode;
  userDataDir: string;
  /** the demo sandbox's base URL, when Skein uses it */
  sandboxBaseUrl: () => Promise<string | null>;
  now: () => number;
  /** waits between requests to a save service */
  clock: Pick<Clock, 'now' | 'sleep'>;
  /** the web archive save service to send each linked URL to (demo mode: the sandbox's stand-in), or null: none */
  saveService: () => Promise<{ service: string; paceMs: number } | null>;
  software: string;
  /** the timestamp authorities of the mode in use, in order, or why none is asked (media's, the same settings) */
  authorities: () => Promise<{ authorities: string[]; noneReason: string }>;
}

const READ_CHUNK = 500;

export function pagesFeature(deps: PagesFeatureDeps): PagesFeature {
  const which = () => (deps.mode() === 'demo' ? 'demo' : 'current');
  const open = async () => {
    const handle = await deps.projects.handleFor(which());
    const thread = await deps.thread;
    const store: PagesStore = partProxy<PageTables>(thread, handle, PAGES_PART_NAME);
    const folder = projectFolder(deps.projects.ref(which()).location, deps.userDataDir, 'pages');
    return { handle, thread, store, folder };
  };
  /** a collection's posts' links, read from the project in chunks */
  const postsOf = (collection: number) => ArchiveQuery.parse({ project: which(), collection, kind: 'post' });
  const links = async (collection: number): Promise<PageLink[]> => {
    const { handle, thread } = await open();
    const reader = await thread.call('readOpen', handle, postsOf(collection));
    const out: PageLink[] = [];
    try {
      for (;;) {
        const rows = await thread.call('readNext', reader, READ_CHUNK);
        for (const r of rows) {
          try {
            out.push(...linksOf(JSON.parse(r.raw)));
          } catch {
            /* an item whose raw text is not JSON links to nothing */
          }
        }
        if (rows.length < READ_CHUNK) break;
      }
    } finally {
      await thread.call('readClose', reader);
    }
    return out;
  };
  return {
    linked: async () => {
      const { store, folder } = await open();
      return {
        folder,
        urlsOf: (raw) => {
          try {
            return distinctUrls(linksOf(JSON.parse(raw)));
          } catch {
            return [];
          }
        },
        outcomes: (urls) => store.outcomes(urls),
        tokens: () => store.tokens(),
      };
    },
    estimate: async (collection) => {
      const { store, handle, thread } = await open();
      const list = await links(collection);
      const urls = distinctUrls(list);
      const captured = (await store.capturedUrls(urls)).length;
      const saving = await deps.saveService();
      const damaged = (await thread.call('damagedItems', handle, postsOf(collection), 1)).count;
      return {
        ...(damaged > 0 ? { damagedPosts: damaged } : {}),
        urls: urls.length - captured,
        alreadyCaptured: captured,
        posts: new Set(list.map((l) => l.postId)).size,
        save: saving
          ? { urls: urls.length - (await store.savedUrls(urls)).length, paceSeconds: saving.paceMs / 1000 }
          : null,
      };
    },
    capture: async (collection, signal, onProgress) => {
      const { store, folder } = await open();
      const list = await links(collection);
      const base = await deps.sandboxBaseUrl();
      const policy = {
        ...DEFAULT_FETCH_POLICY,
        ...PAGE_LIMITS,
        trustedOrigins: base ? [new URL(base).origin] : [],
      };
      const route = base && deps.mode() === 'demo' ? sandboxWebRoute(base) : undefined;
      const saving = await deps.saveService();
      const timestamp = { ...(await deps.authorities()), project: deps.projects.ref(which()).name, policy };
      // the local capture and the save service run side by side: the service's pace is the slow part
      let save: SaveProgress | null = null;
      let captured: Parameters<NonNullable<typeof onProgress>>[0] | null = null;
      const report = () => {
        if (captured) onProgress?.({ ...captured, save });
      };
      const [result, saved] = await Promise.all([
        capturePages(
          list,
          { store, folder, policy, now: deps.now, software: deps.software, timestamp, ...(route ? { route } : {}) },
          signal,
          (p) => {
            captured = { ...p, save };
            report();
          },
        ),
        saving
          ? saveToArchive(
              distinctUrls(list),
              { store, service: saving.service, paceMs: saving.paceMs, policy, clock: deps.clock },
              signal,
              (p) => {
                save = p;
                report();
              },
            )
          : Promise.resolve(null),
      ]);
      return { ...result, folder, save: saved };
    },
    list: async (collection) => {
      const { store } = await open();
      const rows = await store.outcomes(distinctUrls(await links(collection)));
      return rows.map((r) => ({
        url: r.url,
        state: r.state,
        at: r.at,
        reason: r.reason,
        message: r.message,
        save: r.save
          ? {
              state: r.save.state,
              at: r.save.at,
              captureUrl: r.save.captureUrl,
              reason: r.save.reason,
              message: r.save.message,
            }
          : null,
      }));
    },
    folder: async () => (await open()).folder,
    verify: async (onProgress) => {
      const { store, folder } = await open();
      return verifyPages(store, folder, onProgress);
    },
  };
}
