/**
 * The worker modules a shell gives the core, as URLs it resolves itself (built: out/main/<name>-worker.js
 * beside its own entry; from source in tests and the e2e host: the .ts, run with `execArgv: ['--import', 'tsx']`).
 * A port: it moves to core/ports.ts with the others. An entry left out: that work runs on main's thread.
 */
export interface WorkerEntries {
  /** the archive's worker, SQLite off main's event loop (out/main/archive-worker.js) */
  archive?: URL;
  /** a re-export's own worker, used when the archive runs in its worker (out/main/reexport-worker.js) */
  reexport?: URL;
  /** Node flags for every worker started from these entries */
  execArgv?: string[];
}
