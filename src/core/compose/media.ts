/**
 * The media area over the archive's thread: its tables through one proxy (`partProxy`, every method by name),
 * a collection's posts read from the project in chunks, and the project's media folder (beside a project
 * file; for a team project, in this machine's data folder, under the project's id: its files are this
 * machine's). Videos and GIFs are kept at the best variant, or the best under Settings' chosen maximum (the
 * estimate reads the same choice). The demo sandbox's own origin is the one address fetched over plain http. Each run's trusted
 * time is asked of the authorities the mode names (the sandbox's stand-in in demo mode, Settings' otherwise).
 */
import { extname } from 'node:path';
import { partProxy, type ArchiveThread, type Projects } from '../archive';
import {
  candidatesOf,
  DEFAULT_FETCH_POLICY,
  estimate,
  keepMedia,
  readKept,
  MEDIA_PART_NAME,
  uniqueByUrl,
  verifyMedia,
  writeEvidencePackage,
  type Candidate,
  type Estimate,
  type KeepProgress,
  type KeptBytes,
  type KeepResult,
  type KeptMedia,
  type MediaStore,
  type MediaTables,
  type VerifyReport,
  type EvidenceStore,
  type EvidenceSummary,
  type LinkedPages,
} from '../media';
import type { ChooseSavePath } from '../ports';
import { SkeinError } from '../../shared/errors';
import { ArchiveQuery } from '../../shared/ipc/archive';
import type { Mode } from '../../shared/ipc/app';
import type { PagesCheck } from '../../shared/ipc/pages';
import type { ExportScope, ViewDescriptor } from '../../shared/ipc/export';
import type { ViewMediaEstimate } from '../../shared/ipc/media';
import { projectFolder } from './folders';

export interface MediaFeature {
  /** what keeping a collection's media would fetch, and take */
  estimate: (collection: number) => Promise<Estimate>;
  /** the same for the posts a view has loaded: what an export of it that keeps its media would take */
  estimateView: (view: ViewDescriptor, scope: ExportScope) => Promise<ViewMediaEstimate>;
  keep: (collection: number, signal?: AbortSignal, onProgress?: (p: KeepProgress) => void) => Promise<KeepResult>;
  /** the files kept for these posts */
  kept: (postIds: readonly string[]) => Promise<KeptMedia[]>;
  /** the files kept for a collection's posts (its first 500) */
  keptIn: (collection: number) => Promise<KeptMedia[]>;
  /** one kept file's bytes (for the viewer, offline), checked against its hash */
  read: (sha256: string) => Promise<KeptBytes | null>;
  /** every kept file re-hashed, and every file of captured pages (through `checkPages`) */
  verify: (
    onProgress?: (checked: number, total: number) => void,
  ) => Promise<VerifyReport & { folder: string; pages: PagesCheck }>;
  /** the media folder of the project of the mode in use */
  folder: () => Promise<string>;
  /** asks where, then writes a collection's evidence package; null when the person closed the dialog */
  evidence: (collection: number) => Promise<EvidenceSummary | null>;
}

export interface MediaFeatureDeps {
  projects: Projects;
  thread: Promise<ArchiveThread>;
  mode: () => Mode;
  userDataDir: string;
  /** the demo sandbox's origin, when Skein uses it */
  sandboxOrigin: () => Promise<string | null>;
  /** the linked pages of the project in use, for its evidence packages */
  linked: () => Promise<LinkedPages>;
  /** the raw items of the pages a view has loaded, in paging order (main's store: no call, no credit) */
  loadedItems: (view: ViewDescriptor) => unknown[][];
  /** the project's files of captured pages re-hashed (the pages area's check), after the media's */
  checkPages: (onProgress?: (checked: number, total: number) => void) => Promise<PagesCheck>;
  /** main's save dialog (an evidence package is written where the person chooses) */
  chooseSavePath: ChooseSavePath;
  /** "Skein 1.2.3", written into an evidence package */
  madeBy: string;
  /** the timestamp authorities of the mode in use, in order, or why none is asked (in plain words) */
  authorities: () => Promise<{ authorities: string[]; noneReason: string }>;
  /** Settings' largest video to keep (bits a second), read at each estimate and keeping; null: the best */
  maxVideoBitrate: () => number | null;
  now: () => number;
}

const READ_CHUNK = 500;
/** an evidence package's manifest names every damaged post it leaves out, up to this many */
const EVIDENCE_DAMAGED_LISTED = 100_000;

export function mediaFeature(deps: MediaFeatureDeps): MediaFeature {
  const which = () => (deps.mode() === 'demo' ? 'demo' : 'current');
  const open = async () => {
    const handle = await deps.projects.handleFor(which());
    const thread = await deps.thread;
    const store: MediaStore & EvidenceStore = partProxy<MediaTables>(thread, handle, MEDIA_PART_NAME);
    const folder = projectFolder(deps.projects.ref(which()).location, deps.userDataDir, 'media');
    return { handle, thread, store, folder };
  };
  const postsOf = (collection: number) => ArchiveQuery.parse({ project: which(), collection, kind: 'post' });
  /** a collection's posts, in chunks read from the project: each one's id and the media it carries */
  const read = async (collection: number, each: (id: string, raw: string) => void | Promise<void>): Promise<void> => {
    const { handle, thread } = await open();
    const reader = await thread.call('readOpen', handle, postsOf(collection));
    try {
      for (;;) {
        const rows = await thread.call('readNext', reader, READ_CHUNK);
        for (const r of rows) await each(r.id, r.raw);
        if (rows.length < READ_CHUNK) break;
      }
    } finally {
      await thread.call('readClose', reader);
    }
  };
  const candidates = async (collection: number): Promise<Candidate[]> => {
    const out: Candidate[] = [];
    const max = deps.maxVideoBitrate() ?? undefined;
    await read(collection, (_id, raw) => {
      try {
        out.push(...candidatesOf(JSON.parse(raw), max));
      } catch {
        /* an item whose raw text is not JSON has no media to keep */
      }
    });
    return uniqueByUrl(out);
  };
  return {
    estimate: async (collection) => {
      const { store, handle, thread } = await open();
      const list = await candidates(collection);
      const damaged = (await thread.call('damagedItems', handle, postsOf(collection), 1)).count;
      return {
        ...estimate(list, new Set(await store.keptUrls(list.map((c) => c.url)))),
        ...(damaged > 0 ? { damagedPosts: damaged } : {}),
      };
    },
    keep: async (collection, signal, onProgress) => {
      const { store, folder } = await open();
      const list = await candidates(collection);
      const origin = await deps.sandboxOrigin();
      const policy = { ...DEFAULT_FETCH_POLICY, trustedOrigins: origin ? [origin] : [] };
      const timestamp = { ...(await deps.authorities()), project: deps.projects.ref(which()).name, policy };
      return keepMedia(list, { store, folder, policy, now: deps.now, timestamp }, signal, onProgress);
    },
    estimateView: async (view, scope) => {
      const { store } = await open();
      const pages = deps.loadedItems(view);
      // "what is loaded" is the pages the view shows; fetching everything goes on past them
      const shown = scope === 'loaded' ? pages.slice(0, Math.max(1, view.loadedPages ?? 1)) : pages;
      const max = deps.maxVideoBitrate() ?? undefined;
      const items = shown.flat();
      const list = uniqueByUrl(items.flatMap((item) => candidatesOf(item, max)));
      const e = estimate(list, new Set(await store.keptUrls(list.map((c) => c.url))));
      return { ...e, posts: items.length, partial: scope === 'all' && view.reachedEnd !== true };
    },
    kept: async (postIds) => (await open()).store.keptFor(postIds),
    keptIn: async (collection) => {
      const ids: string[] = [];
      await read(collection, (id) => {
        if (ids.length < READ_CHUNK) ids.push(id);
      });
      return (await open()).store.keptFor(ids);
    },
    read: async (sha256) => {
      const { store, folder } = await open();
      return readKept(store, folder, sha256);
    },
    verify: async (onProgress) => {
      const { store, folder } = await open();
      const media = await verifyMedia(store, folder, onProgress);
      // the pages' files counted after the media's, so one bar runs to the end of both
      const pages = await deps.checkPages((checked, total) =>
        onProgress?.(media.checked + checked, media.checked + total),
      );
      return { ...media, folder, pages };
    },
    folder: async () => (await open()).folder,
    evidence: async (collection) => {
      const { store, folder, handle, thread } = await open();
      const named = (await thread.call('collections', handle)).find((c) => c.id === collection);
      if (!named) throw new SkeinError('not-found', 'That collection is no longer in the project.');
      const project = deps.projects.ref(which()).name;
      const stem = `${project}-${named.name}`
        .replace(/[^\p{L}\p{N}]+/gu, '-')
        .replace(/^-|-$/g, '')
        .slice(0, 80);
      const chosen = await deps.chooseSavePath({
        title: 'Save the evidence package',
        defaultPath: `${stem || 'collection'}.evidence.zip`,
        filters: [{ name: 'Zip archive', extensions: ['zip'] }],
      });
      if (chosen === null) return null;
      const origin = await deps.sandboxOrigin();
      const policy = { ...DEFAULT_FETCH_POLICY, trustedOrigins: origin ? [origin] : [] };
      return writeEvidencePackage(extname(chosen) ? chosen : `${chosen}.zip`, {
        posts: (each) => read(collection, each),
        damaged: await thread.call('damagedItems', handle, postsOf(collection), EVIDENCE_DAMAGED_LISTED),
        store,
        folder,
        pages: await deps.linked(),
        timestamp: { ...(await deps.authorities()), project, policy },
        about: { project, collection: { id: collection, name: named.name }, madeBy: deps.madeBy },
        now: deps.now,
      });
    },
  };
}
