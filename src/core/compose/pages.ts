/**
 * The pages area over the archive's thread: its tables through one proxy (`partProxy`, every method by name),
 * a collection's posts read from the project in chunks, and the project's pages folder (beside a project file;
 * for a team project, in this machine's data folder, under the project's id). In demo mode a linked URL is
 * fetched from the sandbox's small web (`sandboxWebRoute`), the URL recorded still the post's.
 */
import { partProxy, type ArchiveThread, type Projects } from '../archive';
import { DEFAULT_FETCH_POLICY } from '../net';
import {
  capturePages,
  distinctUrls,
  linksOf,
  PAGE_LIMITS,
  PAGES_PART_NAME,
  type CaptureProgress,
  type CaptureResult,
  type PageLink,
  type PageRoute,
  type PagesStore,
  type PageTables,
} from '../pages';
import type { LinkedPages } from '../media';
import { ArchiveQuery } from '../../shared/ipc/archive';
import type { Mode } from '../../shared/ipc/app';
import { projectFolder } from './folders';

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

export interface PagesEstimate {
  /** distinct linked URLs not captured yet */
  urls: number;
  alreadyCaptured: number;
  /** posts of the collection that link to a page */
  posts: number;
}

export interface PagesFeature {
  estimate: (collection: number) => Promise<PagesEstimate>;
  capture: (
    collection: number,
    signal?: AbortSignal,
    onProgress?: (p: CaptureProgress) => void,
  ) => Promise<CaptureResult & { folder: string }>;
  folder: () => Promise<string>;
  /** the project's linked pages as an evidence package reads them: the links of a post, the outcomes, the folder */
  linked: () => Promise<LinkedPages>;
}

export interface PagesFeatureDeps {
  projects: Projects;
  thread: Promise<ArchiveThread>;
  mode: () => Mode;
  userDataDir: string;
  /** the demo sandbox's base URL, when Skein uses it */
  sandboxBaseUrl: () => Promise<string | null>;
  now: () => number;
  software: string;
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
  const links = async (collection: number): Promise<PageLink[]> => {
    const { handle, thread } = await open();
    const query = ArchiveQuery.parse({ project: which(), collection, kind: 'post' });
    const reader = await thread.call('readOpen', handle, query);
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
      };
    },
    estimate: async (collection) => {
      const { store } = await open();
      const list = await links(collection);
      const urls = distinctUrls(list);
      const captured = (await store.capturedUrls(urls)).length;
      return {
        urls: urls.length - captured,
        alreadyCaptured: captured,
        posts: new Set(list.map((l) => l.postId)).size,
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
      const result = await capturePages(
        list,
        { store, folder, policy, now: deps.now, software: deps.software, ...(route ? { route } : {}) },
        signal,
        onProgress,
      );
      return { ...result, folder };
    },
    folder: async () => (await open()).folder,
  };
}
