/**
 * The ports: everything the core takes from the shell that runs it (the Electron root, the browser shell, a
 * test), in one place. Each shell's composition root provides these; the core's areas take them through
 * `createCore`'s dependencies and never reach for the platform themselves. Interfaces only, with the one
 * safe default where a shell may have nothing to offer (`refuseAll`).
 */
import type { DemoExamples, EventName, EventPayload } from '../shared/ipc';

// ─── the person at the screen ────────────────────────────────────────────────────────────────────────────

/**
 * A confirmation the renderer cannot forge: main asks the user directly (a native dialog in the Electron
 * shell, the terminal in the browser shell, a test double in tests). Everything that could leak the key or
 * raise spending goes through it: moving the key to another origin, raising the pace ceiling or the hourly
 * credit budget, resuming an export with looser caps, and keeping the key on disk without a keyring. A page
 * that calls the bridge can ask, but only the person at the screen can answer yes.
 */
export interface ConfirmRequest {
  /** a short question, e.g. "Send your API key to https://api.example.com?" */
  title: string;
  /** what saying yes does, in plain words */
  detail: string;
  /** the label of the button that says yes (the other one cancels) */
  confirmLabel: string;
}

/** Resolves true only when the user said yes. */
export type Confirm = (request: ConfirmRequest) => Promise<boolean>;

/** The safe default where no one can be asked: every request is refused. */
export const refuseAll: Confirm = async () => false;

/** A file type a dialog offers. */
export interface FileFilter {
  name: string;
  extensions: string[];
}

export interface SaveRequest {
  title?: string;
  /** suggested file name (or full path) */
  defaultPath: string;
  filters?: FileFilter[];
}

/** Asks the user where to save; null when they cancel. The renderer never names a path: main asks here. */
export type ChooseSavePath = (request: SaveRequest) => Promise<string | null>;

/**
 * Shows a file in the system's file manager: only ever a file the core wrote this session, or one the open
 * project records its headless runner wrote on this computer (never a path the page names).
 */
export type ShowInFolder = (path: string) => Promise<void>;

/** Asks the user for an existing file (a project to open); null when they cancel. */
export type ChooseOpenPath = (request: { title: string; filters: FileFilter[] }) => Promise<string | null>;

/** Hands an http(s) URL to the system browser (only ever called with a URL main has checked). */
export type OpenExternal = (url: string) => Promise<void>;

/** Taskbar or dock progress while exports run, and a notification when a long one ends (absent: nowhere). */
export interface ExportPlatform {
  /** 0..1; 'indeterminate' when the total is unknown; null clears the bar */
  setProgress: (value: number | 'indeterminate' | null) => void;
  notify: (title: string, body: string) => void;
}

/** Pushes an event to every window of the app. */
export type Emit = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

// ─── the machine ─────────────────────────────────────────────────────────────────────────────────────────

/** Who is running: shown in About, written in every manifest. */
export interface AppIdentity {
  name: string;
  version: string;
  platform: string;
}

/**
 * Time, injected: services never call Date.now() or setTimeout directly, so tests drive them with a fake
 * clock (`testing/fake-clock.ts`); `clock.ts` has the system's.
 */
export interface Clock {
  /** epoch milliseconds */
  now: () => number;
  /** a guard (timeout, deadline): run `fn` after `ms`; returns a function that cancels it */
  setTimer: (ms: number, fn: () => void) => () => void;
  /** a wait (backoff, pacing): resolves after `ms`; rejects with the signal's reason when aborted first */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Which protection the OS offers (Linux: `safeStorage.getSelectedStorageBackend()`). */
export type SecretBackend =
  'keychain' | 'dpapi' | 'gnome_libsecret' | 'kwallet' | 'kwallet5' | 'kwallet6' | 'basic_text' | 'unknown';

/**
 * The OS secret store as the key store sees it: Electron's async safeStorage in the app
 * (`src/shells/electron/adapters/safe-storage.ts`), a file-less stand-in in the browser shell, a double in tests.
 */
export interface SecretStorage {
  /** whether encrypt/decrypt work at all (Electron: `isAsyncEncryptionAvailable`) */
  isEncryptionAvailable: () => Promise<boolean>;
  backend: () => SecretBackend;
  encryptString: (plain: string) => Promise<Uint8Array>;
  decryptString: (encrypted: Uint8Array) => Promise<string>;
  /**
   * Decrypts and says whether the ciphertext should be written again (Electron's `decryptStringAsync` answer
   * whole: `shouldReEncrypt` when the OS key or the encryption scheme changed since it was written).
   * Optional: stores without it never ask for a rewrite.
   */
  decrypt?: (encrypted: Uint8Array) => Promise<{ result: string; shouldReEncrypt: boolean }>;
}

/** Where the core's own failures and warnings go (main's console in the app; a recorder in tests). */
export interface Log {
  error: (message: string, error?: unknown) => void;
  warn: (message: string) => void;
}

/** A running demo sandbox (src/sandbox): a local server speaking the API over a generated world. */
export interface SandboxHandle {
  baseUrl: string;
  port: number;
  examples: DemoExamples;
  close: () => Promise<void>;
}

/**
 * The worker modules a shell gives the core, as URLs it resolves itself (built: out/main/<name>-worker.js beside
 * its own entry; from source in tests and the e2e host: the .ts, run with `execArgv: ['--import', 'tsx']`). An
 * entry left out: that work runs on main's thread.
 */
export interface WorkerEntries {
  /** the archive's worker, SQLite off main's event loop (out/main/archive-worker.js) */
  archive?: URL;
  /** a re-export's own worker, used when the archive runs in its worker (out/main/reexport-worker.js) */
  reexport?: URL;
  /** an export's Parquet file while it collects, or a CSV or Parquet file from its journal, under a memory limit (out/main/live-worker.js) */
  live?: URL;
  /** reading files another person made (a .qdpx, a .qdc) under a memory limit (out/main/files-worker.js) */
  files?: URL;
  /** Node flags for every worker started from these entries */
  execArgv?: string[];
}

/** Starts the demo sandbox (in a worker thread in the app); the core calls it lazily, at most once. */
export type StartSandbox = (options: { port: number }) => Promise<SandboxHandle>;
