/**
 * A side reader on this thread, for tests: each file's queries on a second read-only connection of its own, as
 * the side reader's thread runs them (side.ts), answered at once. What it checks is the draw split in two and
 * merged; the thread itself has its own test (compose/archive-worker.test.ts).
 */
import { DatabaseSync } from 'node:sqlite';
import { sqliteExecutor } from '../sqlite/executor';
import type { SideReader } from '../sqlite/side';

export function sideReaderHere(): SideReader & { asked: () => number; started: () => number } {
  const open = new Map<string, DatabaseSync>();
  let asked = 0;
  let started = 0;
  return {
    asked: () => asked,
    started: () => started,
    of: (path) => ({
      start: async () => {
        started++;
      },
      all: async (q) => {
        asked++;
        let db = open.get(path);
        if (!db) {
          db = new DatabaseSync(path, { readOnly: true });
          open.set(path, db);
        }
        return sqliteExecutor(db).all(q);
      },
      checkpoint: async () => false,
      forget: async () => {
        open.get(path)?.close();
        open.delete(path);
      },
    }),
    close: async () => {
      for (const db of open.values()) db.close();
      open.clear();
    },
  };
}
