/**
 * A project file damaged on disk (or by hand), for tests of what Skein does with it: the kept JSON of a
 * collection's first post cut short.
 */
import { DatabaseSync } from 'node:sqlite';

/** Cuts the kept JSON of `collection`'s first post in the SQLite project `file` short; the post's id. */
export function damageFirstPostOf(file: string, collection: number): string {
  const db = new DatabaseSync(file);
  try {
    const { id } = db
      .prepare(
        `SELECT i.id AS id FROM collection_items x JOIN items i ON i.rowid = x.item
         WHERE x.collection = ? AND i.kind = 'post' ORDER BY x.position LIMIT 1`,
      )
      .get(collection) as { id: string };
    db.prepare(`UPDATE items SET raw = '{"id": "<b>cut' WHERE kind = 'post' AND id = ?`).run(id);
    return id;
  } finally {
    db.close();
  }
}
