/**
 * Research projects: which project live answers go to — a project file, or a team's project in
 * a PostgreSQL database —, the separate demo project, the list the user switches between, the name this Skein
 * records with what it collects, and a project's copy into another store. Paths come only from main (the user
 * data folder, or main's own save/open dialogs); the page names a project by main's id. A project that cannot be
 * opened (damaged, from a newer Skein, a server that does not answer) is reported, never overwritten, and
 * records nothing. A team project's password is kept apart (passwords.ts), never with its address.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { STALE_TIME_MS } from '../../shared/api/cache-policy';
import type { OperationId } from '../../shared/api/catalog';
import { SkeinError } from '../../shared/errors';
import type { Mode } from '../../shared/ipc/app';
import { ConnectInput, type CopyResult, type ProjectInfo, type ProjectsState } from '../../shared/ipc/archive';
import { openJsonStore } from '../files/json-store';
import { recordFields } from '../files/unread-record';
import type { Confirm, SecretStorage } from '../ports';
import type { IngestRecord } from './answer';
import type { Handle, OpenInit } from './host';
import { createPasswordStore } from './passwords';
import { addressFrom, addressText, isLoopbackHost, parseConnection, tlsState, type PgAddress } from '../db';
import type { HeldAnswer } from './store';
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
  /** why what is collected now could not be kept (a team project this role may only read); null: it can */
  refusal: () => string | null;
}

export interface ProjectsDeps {
  userDataDir: string;
  thread: Promise<ArchiveThread>;
  mode: () => Mode;
  /** main's save dialog (a new project's file); null when cancelled */
  chooseNewPath: (suggested: string) => Promise<string | null>;
  /** main's open dialog (an existing project); absent where none exists (the browser shell) */
  chooseExistingPath?: () => Promise<string | null>;
  /** the OS key store: a team project's password is kept like the API key */
  secretStorage: SecretStorage;
  /** a question the page cannot answer for the person: connecting to a server on the network without TLS */
  confirm?: Confirm;
  log?: (message: string, error?: unknown) => void;
  /**
   * this project only (the headless runner): a file's path or a team project's address; never another, and the
   * list of projects is left as it is
   */
  fixedPath?: string;
  /** the team project's password, for `fixedPath` (instead of the OS key store's) */
  fixedPassword?: string | null;
  /** the name recorded with this Skein's answers, for this run only (not saved) */
  fixedResearcher?: string;
  /** the current project is about to be closed for another (the watches' runner lets go of it first) */
  beforeSwitch?: () => Promise<void>;
}

interface Registry extends Record<string, unknown> {
  current: string;
  known: string[];
  researcher: string;
  /** each known project's name as it last said it: one name everywhere, opened or not */
  names?: Record<string, string>;
}

/** a project's name as a file name suggestion: no separators, reserved or control characters */
function safeFileName(name: string): string {
  return [...name].map((ch) => (ch < ' ' || '\\/:*?"<>|'.includes(ch) ? '_' : ch)).join('');
}

const projectId = (location: string) => createHash('sha256').update(location).digest('hex').slice(0, 16);

/** Where a project lives: a file (its path), or a team's schema (its address, never a password). */
type Place = { store: 'sqlite'; path: string } | { store: 'postgres'; address: PgAddress };

function placeOf(location: string): Place {
  const address = addressFrom(location);
  return address ? { store: 'postgres', address } : { store: 'sqlite', path: location };
}

const fileName = (path: string) => basename(path).replace(/\.skein$/, '');

/** a path chosen in a dialog, as a project file's */
const withExtension = (path: string) =>
  path.endsWith(`.${PROJECT_EXTENSION}`) ? path : `${path}.${PROJECT_EXTENSION}`;

export interface Projects {
  link: ArchiveLink;
  state: () => Promise<ProjectsState>;
  create: (name: string) => Promise<ProjectsState>;
  open: () => Promise<ProjectsState>;
  rename: (name: string) => Promise<ProjectsState>;
  switchTo: (id: string) => Promise<ProjectsState>;
  /** a team project (a PostgreSQL schema) becomes current; its password is kept by the OS key store */
  connect: (input: ConnectInput) => Promise<ProjectsState>;
  /** the name recorded with every answer this Skein collects */
  setResearcher: (name: string) => Promise<ProjectsState>;
  /**
   * copies the current project into an empty one (a new file, or a known project); null: the dialog was closed.
   * `move`: the copy, its counts checked, then becomes current
   */
  copy: (to: { file: true } | { id: string }, move?: boolean) => Promise<CopyResult | null>;
  /** the handle reads go to: the demo project in demo mode */
  handleFor: (which: 'current' | 'demo') => Promise<Handle>;
  /** which project a handle is now, without opening it: main's id, its name, where its watches' run journals go, its kind */
  ref: (which: 'current' | 'demo') => { id: string; name: string; location: string; kind: 'live' | 'demo' };
  /** the name recorded with every answer this Skein collects ('' when none was given), without opening a project */
  researcher: () => string;
  /** team projects' passwords, for the logger's redaction */
  secrets: () => string[];
  dispose: () => Promise<void>;
}

/** how long a project that could not be opened stays unopened before the next use tries again */
const REOPEN_MS = 3_000;

export function createProjects(deps: ProjectsDeps): Projects {
  const folder = join(deps.userDataDir, 'projects');
  const defaultPath = deps.fixedPath ?? join(folder, `Default.${PROJECT_EXTENSION}`);
  const demoPath = deps.fixedPath ?? join(folder, `Demo.${PROJECT_EXTENSION}`);
  const registry = openJsonStore<Registry>(deps.userDataDir, 'projects', {
    owns: ['current', 'known', 'researcher', 'names'],
  });
  const passwords = createPasswordStore(deps.secretStorage, join(deps.userDataDir, 'project-passwords.json'));
  if (deps.fixedPath && /^postgres(ql)?:\/\//i.test(deps.fixedPath) && !addressFrom(deps.fixedPath))
    throw new SkeinError(
      'bad-input',
      `${deps.fixedPath} is not a team project's address Skein can read: copy it from Archive → Manage projects (postgresql://user@host:5432/database?schema=name).`,
    );
  const saved: Partial<Registry> = deps.fixedPath ? {} : registry.read();
  let current = typeof saved.current === 'string' ? saved.current : defaultPath;
  /**
   * the project a newer Skein worked in, named in a way this one cannot read: this Skein works in the default
   * project meanwhile, and writes the newer Skein's choice back as it was until a project is chosen here
   */
  let unreadCurrent: unknown = typeof saved.current === 'string' ? undefined : saved.current;
  let researcher = deps.fixedResearcher ?? (typeof saved.researcher === 'string' ? saved.researcher : '');
  /** who a newer Skein says works here, written in a way this one cannot read: kept until a name is given here */
  let unreadResearcher: unknown =
    typeof saved.researcher === 'string' || deps.fixedResearcher !== undefined ? undefined : saved.researcher;
  const known = new Set<string>(Array.isArray(saved.known) ? saved.known.filter((k) => typeof k === 'string') : []);
  /** projects a newer Skein lists in a way this one cannot read: not offered here, written back as they were */
  const unreadKnown: unknown[] = Array.isArray(saved.known) ? saved.known.filter((k) => typeof k !== 'string') : [];
  known.add(current);
  known.add(defaultPath);
  const savedNames = Object.entries(recordFields(saved.names));
  const names = new Map<string, string>(
    savedNames.filter((e): e is [string, string] => typeof e[1] === 'string' && known.has(e[0])),
  );
  /** names a newer Skein gave that this one cannot read or place: written back as they were, under its own */
  const unreadNames = Object.fromEntries(savedNames.filter(([k, v]) => typeof v !== 'string' || !known.has(k)));
  const opened = new Map<Handle, Promise<boolean>>();
  /** when a handle's open last failed: it is tried again once REOPEN_MS have passed (a server that came back) */
  const failedAt = new Map<Handle, number>();
  let problem: string | null = null;
  /** why each open project may not be written to, as it last said (on opening, and with each summary) */
  const readOnly = new Map<Handle, string | null>();

  const knownById = (id: string): string => {
    const location = [...known].find((l) => projectId(l) === id);
    if (!location) throw new SkeinError('not-found', 'Skein does not know that project.');
    return location;
  };

  /** a headless run's project is the only one: it never switches, nor records another name */
  const refuseIfFixed = () => {
    if (deps.fixedPath)
      throw new SkeinError('not-available', `This Skein works on ${deps.fixedPath} only (it was started for it).`);
  };

  const persist = () => {
    if (!deps.fixedPath)
      registry.write({
        // the type is this Skein's; the file keeps a newer Skein's choice until one is made here
        current: unreadCurrent === undefined ? current : (unreadCurrent as string),
        // the type lists this Skein's entries; the file also keeps those it cannot read
        known: [...known, ...(unreadKnown as string[])],
        researcher: unreadResearcher === undefined ? researcher : (unreadResearcher as string),
        // the type is this Skein's names; the file also keeps those it cannot read or place
        names: { ...(unreadNames as Record<string, string>), ...Object.fromEntries(names) },
      });
  };

  /** what the archive's worker opens for a location (a team project with its password) */
  async function initFor(location: string, kind: 'live' | 'demo'): Promise<OpenInit> {
    const place = placeOf(location);
    const who = researcher === '' ? null : researcher;
    if (place.store === 'sqlite') {
      mkdirSync(dirname(place.path), { recursive: true });
      return {
        path: place.path,
        name: kind === 'demo' ? 'Demo data' : fileName(place.path),
        kind,
        researcher: who,
        spool: `${place.path}-held-answers.jsonl`,
      };
    }
    const password =
      location === deps.fixedPath && deps.fixedPassword !== undefined
        ? deps.fixedPassword
        : await passwords.get(projectId(location));
    return {
      store: 'postgres',
      connection: { ...place.address, password },
      name: place.address.schema,
      kind: 'live',
      researcher: who,
      // answers the server could not take wait in this Skein's own folder (they are this machine's)
      spool: join(folder, 'team', projectId(location), 'held-answers.jsonl'),
    };
  }

  function openHandle(handle: Handle): Promise<boolean> {
    let p = opened.get(handle);
    const failed = failedAt.get(handle);
    if (p && failed !== undefined && Date.now() - failed >= REOPEN_MS) {
      failedAt.delete(handle);
      p = undefined;
    }
    if (!p) {
      const location = handle === 'demo' ? demoPath : current;
      p = (async () => {
        const thread = await deps.thread;
        try {
          const summary = await thread.call(
            'open',
            handle,
            await initFor(location, handle === 'demo' ? 'demo' : 'live'),
          );
          readOnly.set(handle, summary.readOnly);
          if (handle === 'current') problem = null;
          return true;
        } catch (e) {
          const message = e instanceof Error ? e.message : String(e);
          failedAt.set(handle, Date.now());
          if (handle === 'current') problem = message;
          deps.log?.(`project ${location} not opened`, e);
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
    refusal: () => readOnly.get(handleOf(deps.mode())) ?? null,
    held: async (key) => {
      const handle = handleOf(deps.mode());
      if (!(await openHandle(handle))) return null;
      return (await deps.thread)
        .call('held', handle, {
          operation: key.operation,
          params: key.params,
          cursor: key.cursor,
          // demo's sandbox listens on a new port each run: its answers match whatever the port
          baseUrl: handle === 'demo' ? null : key.baseUrl,
          freshSince: Math.max(key.notBefore, key.anyAge ? 0 : key.now - STALE_TIME_MS[key.operation]),
          notBefore: key.notBefore,
        })
        .catch((e: unknown) => {
          // a team's server that does not answer: the page is asked of the API (its answer is kept for later)
          deps.log?.('the project could not be asked for a held answer', e);
          return null;
        });
    },
  };

  const nameOf = (location: string): string => {
    const said = names.get(location);
    if (said !== undefined) return said;
    const place = placeOf(location);
    return place.store === 'sqlite' ? fileName(place.path) : `${place.address.schema} on ${place.address.host}`;
  };

  async function info(handle: Handle): Promise<ProjectInfo | null> {
    if (!(await openHandle(handle))) return null;
    const location = handle === 'demo' ? demoPath : current;
    const place = placeOf(location);
    let s;
    try {
      s = await (await deps.thread).call('summary', handle);
    } catch (e) {
      if (handle === 'current') problem = e instanceof Error ? e.message : String(e);
      return null;
    }
    // a problem lasts as long as its cause: the project answers again
    if (handle === 'current') problem = null;
    readOnly.set(handle, s.readOnly);
    if (handle === 'current' && names.get(location) !== s.name) {
      names.set(location, s.name);
      persist();
    }
    return {
      id: projectId(location),
      name: s.name,
      location,
      store: place.store,
      tls: place.store === 'postgres' ? tlsState(place.address) : null,
      kind: s.kind,
      items: s.items,
      requests: s.requests,
      researchers: s.researchers,
      readOnly: s.readOnly,
    };
  }

  async function state(): Promise<ProjectsState> {
    const [cur, demo] = await Promise.all([info('current'), info('demo')]);
    return {
      current: cur,
      demo,
      known: [...known].map((location) => ({
        id: projectId(location),
        name: nameOf(location),
        location,
        store: placeOf(location).store,
      })),
      problem,
      researcher,
    };
  }

  /** back to the project that was open after a switch that failed, as if none was tried */
  async function back(previous: string, unreadBefore: unknown): Promise<void> {
    await use(previous);
    if (unreadBefore === undefined) return;
    unreadCurrent = unreadBefore;
    persist();
  }

  async function use(location: string): Promise<boolean> {
    refuseIfFixed();
    await deps.beforeSwitch?.().catch(() => undefined);
    current = location;
    unreadCurrent = undefined;
    known.add(location);
    persist();
    opened.delete('current');
    readOnly.delete('current');
    failedAt.delete('current');
    await (await deps.thread).call('close', 'current');
    return openHandle('current');
  }

  async function connect(input: ConnectInput): Promise<ProjectsState> {
    const parsed = ConnectInput.parse(input);
    const { address, password: inString } = parseConnection(parsed.connection, parsed.schema);
    const password = parsed.password !== undefined && parsed.password !== '' ? parsed.password : inString;
    if (address.tls === 'disable' && !isLoopbackHost(address.host)) {
      const yes = await (deps.confirm ?? (async () => false))({
        title: `Connect to ${address.host} without encryption?`,
        detail: `With sslmode=disable, the password and everything the project holds cross the network to ${address.host} unencrypted, readable by anyone on the way. Skein encrypts unless told otherwise; only say yes on a network you trust.`,
        confirmLabel: 'Connect without TLS',
      });
      if (!yes)
        throw new SkeinError(
          'cancelled',
          'Not connected: Skein only connects without TLS to a server on this computer unless you confirm.',
          {
            action: 'Remove sslmode=disable to connect with TLS.',
          },
        );
    }
    const location = addressText(address);
    const id = projectId(location);
    const before = password === null ? null : await passwords.get(id);
    if (password !== null) await passwords.set(id, password);
    researcher = parsed.researcher;
    unreadResearcher = undefined;
    const previous = current;
    const unreadBefore = unreadCurrent;
    const wasKnown = known.has(location);
    if (!(await use(location))) {
      const why = problem ?? 'The project could not be opened.';
      // back to the project that was open, as if nothing was tried: an address never opened is not kept (a later
      // copy would pick it and fail), its password as it was
      if (password !== null) {
        if (before === null) await passwords.forget(id);
        else await passwords.set(id, before);
      }
      if (!wasKnown) known.delete(location);
      await back(previous, unreadBefore);
      throw new SkeinError('write-failed', why, {
        action: 'Check the connection string, the password and the schema.',
      });
    }
    if (parsed.move) {
      // the project to move is the one that was open: back to it, then copied in and switched to as one action
      await use(previous);
      await copy({ id }, true);
      return state();
    }
    if (parsed.name) {
      const s = await (await deps.thread).call('summary', 'current');
      if (s.items === 0 && s.requests === 0) await (await deps.thread).call('rename', 'current', parsed.name);
    }
    return state();
  }

  async function copy(to: { file: true } | { id: string }, move = false): Promise<CopyResult | null> {
    if (!(await openHandle('current'))) throw new SkeinError('write-failed', problem ?? 'No project is open.');
    const source = await (await deps.thread).call('summary', 'current');
    let target: string;
    if ('file' in to) {
      const chosen = await deps.chooseNewPath(`${safeFileName(source.name)}.${PROJECT_EXTENSION}`);
      if (chosen === null) return null;
      target = withExtension(chosen);
    } else {
      target = knownById(to.id);
    }
    if (target === current) throw new SkeinError('bad-input', 'A project cannot be copied into itself.');
    const init = await initFor(target, 'live');
    // a copy is the same project elsewhere: it keeps its name, on a server too
    init.name = source.name;
    const report = await (await deps.thread).call('copy', 'current', init);
    known.add(target);
    names.set(target, source.name);
    persist();
    // the copy refuses itself unless every table's count matches: a move switches only to a whole copy
    const previous = current;
    const unreadBefore = unreadCurrent;
    if (move && !(await use(target))) {
      const why = problem ?? 'no reason given';
      await back(previous, unreadBefore);
      throw new SkeinError('write-failed', `The copy was made but could not be opened: ${why}`, {
        action: 'Skein stays on the project it had; switch to the copy from the list once it can be opened.',
      });
    }
    return {
      to: { id: projectId(target), name: source.name, location: target, store: placeOf(target).store },
      tables: report.tables,
      tookMs: report.tookMs,
    };
  }

  return {
    link,
    state,
    ref: (which) => {
      const location = which === 'demo' ? demoPath : current;
      const place = placeOf(location);
      const id = projectId(location);
      return {
        id,
        name: which === 'demo' && !deps.fixedPath ? 'Demo data' : nameOf(location),
        // a file's run journals go beside it; a team project's, in this Skein's own folder (they are this machine's)
        location: place.store === 'sqlite' ? place.path : join(folder, 'team', id),
        kind: which === 'demo' ? 'demo' : 'live',
      };
    },
    researcher: () => researcher,
    connect,
    copy,
    secrets: () => [...passwords.secrets(), ...(deps.fixedPassword ? [deps.fixedPassword] : [])],
    setResearcher: async (name) => {
      refuseIfFixed();
      // the watches' runner lets go of the project before it is opened again with the new name
      await deps.beforeSwitch?.().catch(() => undefined);
      researcher = name.trim();
      unreadResearcher = undefined;
      persist();
      // the open projects record the new name from their next write on
      opened.clear();
      const thread = await deps.thread;
      await thread.call('close', 'current');
      await thread.call('close', 'demo');
      return state();
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
      if (await use(withExtension(chosen))) await (await deps.thread).call('rename', 'current', name);
      return state();
    },
    open: async () => {
      if (!deps.chooseExistingPath)
        throw new SkeinError('not-available', 'Opening a project file needs the desktop app’s file dialog.', {
          action: 'Pick the project from the list of known projects, or create a new one.',
        });
      const chosen = await deps.chooseExistingPath();
      if (chosen !== null) await use(chosen);
      return state();
    },
    rename: async (name) => {
      if (!(await openHandle('current'))) throw new SkeinError('write-failed', problem ?? 'No project is open.');
      await (await deps.thread).call('rename', 'current', name);
      return state();
    },
    switchTo: async (id) => {
      await use(knownById(id));
      return state();
    },
    dispose: async () => {
      await (await deps.thread).call('flush');
    },
  };
}
