/**
 * Research projects (issue 24): which project file live answers go to, the separate demo project,
 * and the list the user switches between. Paths come only from main (the user data folder, or
 * main's own save/open dialogs); the page names a project by main's id. A project that cannot be
 * opened (damaged, from a newer Skein) is reported, never overwritten, and records nothing.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { STALE_TIME_MS } from '../../shared/api/cache-policy';
import type { OperationId } from '../../shared/api/catalog';
import { SkeinError } from '../../shared/errors';
import type { Mode } from '../../shared/ipc/app';
import type { ProjectInfo, ProjectsState } from '../../shared/ipc/archive';
import { openJsonStore } from '../files/json-store';
import type { Handle } from './host';
import type { IngestRecord } from './ingest';
import type { HeldAnswer } from './query';
import type { ArchiveThread } from './thread';

const PROJECT_EXTENSION = 'skein';

/** What the API client needs: record every answer, and find one the project already holds. */
export interface ArchiveLink {
  record: (record: IngestRecord) => void;
  /** an answer a paging guard stopped on: never served again */
  forget: (key: { operation: OperationId; params: string; cursor: string | null }) => void;
  held: (key: {
    operation: OperationId;
    params: string;
    cursor: string | null;
    baseUrl: string;
    /** any age (a page a windowed view let go) */
    anyAge: boolean;
    now: number;
    /** answers received before this are not served (the cache was cleared, the mode or address changed) */
    notBefore: number;
  }) => Promise<HeldAnswer | null>;
}

export interface ProjectsDeps {
  userDataDir: string;
  thread: Promise<ArchiveThread>;
  mode: () => Mode;
  /** main's save dialog (a new project's file); null when cancelled */
  chooseNewPath: (suggested: string) => Promise<string | null>;
  /** main's open dialog (an existing project); absent where none exists (the browser shell) */
  chooseExistingPath?: () => Promise<string | null>;
  log?: (message: string, error?: unknown) => void;
  /** this project file only (the headless runner): never another, and the list of projects is left as it is */
  fixedPath?: string;
  /** the current project is about to be closed for another (the watches' runner lets go of it first) */
  beforeSwitch?: () => Promise<void>;
}

interface Registry extends Record<string, unknown> {
  current: string;
  known: string[];
}

/** a project's name as a file name suggestion: no separators, reserved or control characters */
function safeFileName(name: string): string {
  return [...name].map((ch) => (ch < ' ' || '\\/:*?"<>|'.includes(ch) ? '_' : ch)).join('');
}

const projectId = (path: string) => createHash('sha256').update(path).digest('hex').slice(0, 16);

export interface Projects {
  link: ArchiveLink;
  state: () => Promise<ProjectsState>;
  create: (name: string) => Promise<ProjectsState>;
  open: () => Promise<ProjectsState>;
  rename: (name: string) => Promise<ProjectsState>;
  switchTo: (id: string) => Promise<ProjectsState>;
  /** the handle reads go to: the demo project in demo mode */
  handleFor: (which: 'current' | 'demo') => Promise<Handle>;
  /** which file a handle is now, without opening it: main's id, its name and path, its kind */
  ref: (which: 'current' | 'demo') => { id: string; name: string; location: string; kind: 'live' | 'demo' };
  dispose: () => Promise<void>;
}

export function createProjects(deps: ProjectsDeps): Projects {
  const folder = join(deps.userDataDir, 'projects');
  const defaultPath = deps.fixedPath ?? join(folder, `Default.${PROJECT_EXTENSION}`);
  const demoPath = deps.fixedPath ?? join(folder, `Demo.${PROJECT_EXTENSION}`);
  const registry = openJsonStore<Registry>(deps.userDataDir, 'projects');
  const saved = deps.fixedPath ? {} : registry.read();
  let current = typeof saved.current === 'string' ? saved.current : defaultPath;
  const known = new Set<string>(Array.isArray(saved.known) ? saved.known.filter((k) => typeof k === 'string') : []);
  known.add(current);
  known.add(defaultPath);
  const opened = new Map<Handle, Promise<boolean>>();
  let problem: string | null = null;

  const persist = () => {
    if (!deps.fixedPath) registry.write({ current, known: [...known] });
  };

  function openHandle(handle: Handle): Promise<boolean> {
    let p = opened.get(handle);
    if (!p) {
      const path = handle === 'demo' ? demoPath : current;
      p = (async () => {
        const thread = await deps.thread;
        try {
          mkdirSync(dirname(path), { recursive: true });
          const init =
            handle === 'demo'
              ? { path, name: 'Demo data', kind: 'demo' as const }
              : { path, name: basename(path).replace(/\.skein$/, ''), kind: 'live' as const };
          await thread.call('open', handle, init);
          if (handle === 'current') problem = null;
          return true;
        } catch (e) {
          const message = e instanceof Error ? e.message : String(e);
          if (handle === 'current') problem = message;
          deps.log?.(`project ${path} not opened`, e);
          return false;
        }
      })();
      opened.set(handle, p);
    }
    return p;
  }

  const handleOf = (mode: Mode): Handle => (mode === 'demo' ? 'demo' : 'current');

  const link: ArchiveLink = {
    record: (record) => {
      const handle = handleOf(deps.mode());
      void openHandle(handle).then(async (ok) => {
        if (ok) (await deps.thread).ingest(handle, record);
      });
    },
    forget: (key) => {
      const handle = handleOf(deps.mode());
      void openHandle(handle).then(async (ok) => {
        if (ok) await (await deps.thread).call('forget', handle, key).catch(() => undefined);
      });
    },
    held: async (key) => {
      const handle = handleOf(deps.mode());
      if (!(await openHandle(handle))) return null;
      return (await deps.thread).call('held', handle, {
        operation: key.operation,
        params: key.params,
        cursor: key.cursor,
        // demo's sandbox listens on a new port each run: its answers match whatever the port
        baseUrl: handle === 'demo' ? null : key.baseUrl,
        freshSince: Math.max(key.notBefore, key.anyAge ? 0 : key.now - STALE_TIME_MS[key.operation]),
        notBefore: key.notBefore,
      });
    },
  };

  async function info(handle: Handle): Promise<ProjectInfo | null> {
    if (!(await openHandle(handle))) return null;
    const path = handle === 'demo' ? demoPath : current;
    const s = await (await deps.thread).call('summary', handle);
    return { id: projectId(path), name: s.name, location: path, kind: s.kind, items: s.items, requests: s.requests };
  }

  async function state(): Promise<ProjectsState> {
    const [cur, demo] = await Promise.all([info('current'), info('demo')]);
    const names = new Map<string, string>();
    if (cur) names.set(current, cur.name);
    return {
      current: cur,
      demo,
      known: [...known].map((path) => ({
        id: projectId(path),
        name: names.get(path) ?? basename(path).replace(/\.skein$/, ''),
        location: path,
      })),
      problem,
    };
  }

  async function use(path: string): Promise<ProjectsState> {
    if (deps.fixedPath)
      throw new SkeinError('not-available', `This Skein works on ${deps.fixedPath} only (it was started for it).`);
    await deps.beforeSwitch?.().catch(() => undefined);
    current = path;
    known.add(path);
    persist();
    opened.delete('current');
    await (await deps.thread).call('close', 'current');
    await openHandle('current');
    return state();
  }

  return {
    link,
    state,
    ref: (which) => {
      const path = which === 'demo' ? demoPath : current;
      return {
        id: projectId(path),
        name: basename(path).replace(/\.skein$/, ''),
        location: path,
        kind: which === 'demo' ? 'demo' : 'live',
      };
    },
    handleFor: async (which) => {
      const handle: Handle = which === 'demo' ? 'demo' : 'current';
      if (!(await openHandle(handle)))
        throw new SkeinError('write-failed', problem ?? 'The project could not be opened.', {
          action: 'Open another project, or create a new one.',
        });
      return handle;
    },
    create: async (name) => {
      const chosen = await deps.chooseNewPath(`${safeFileName(name)}.${PROJECT_EXTENSION}`);
      if (chosen === null) return state();
      const path = chosen.endsWith(`.${PROJECT_EXTENSION}`) ? chosen : `${chosen}.${PROJECT_EXTENSION}`;
      const result = await use(path);
      if (result.current) await (await deps.thread).call('rename', 'current', name);
      return state();
    },
    open: async () => {
      if (!deps.chooseExistingPath)
        throw new SkeinError('not-available', 'Opening a project file needs the desktop app’s file dialog.', {
          action: 'Pick the project from the list of known projects, or create a new one.',
        });
      const chosen = await deps.chooseExistingPath();
      return chosen === null ? state() : use(chosen);
    },
    rename: async (name) => {
      if (!(await openHandle('current'))) throw new SkeinError('write-failed', problem ?? 'No project is open.');
      await (await deps.thread).call('rename', 'current', name);
      return state();
    },
    switchTo: async (id) => {
      const path = [...known].find((p) => projectId(p) === id);
      if (!path) throw new SkeinError('not-found', 'Skein does not know that project.');
      return use(path);
    },
    dispose: async () => {
      await (await deps.thread).call('flush');
    },
  };
}
