/**
 * Media's tables in a project, written once for a project file and a team's PostgreSQL schema: the files kept
 * (one row per content: its SHA-256, size, type and when it was first kept) and every fetch (its URL, the post
 * and media key it was for, when, the HTTP status, and the file it gave or the reason it failed). A file is
 * kept once however many posts or fetches lead to it; a fetch is a record of what happened, never rewritten.
 *
 * Every method is a call main makes by name across the archive's thread (plain data in and out).
 */
import { keptTokens, recordTimestamp, sql, type Db } from '../../db';
import type { KeptToken, TimestampRecord } from '../../timestamp';

export interface FetchRecord {
  url: string;
  postId: string;
  mediaKey: string;
  at: number;
  status: number | null;
  /** the file it gave, or null when it failed */
  file: { sha256: string; size: number; mime: string; name: string } | null;
  /** gone, refused, too-large, timed-out, wrong-type, failed: with `message`, when it failed */
  reason: string | null;
  message: string | null;
}

export interface KeptFileRow {
  sha256: string;
  size: number;
  mime: string;
  name: string;
  firstKeptAt: number;
}

/** A post's media as kept: the URL it was fetched from and its file. */
export interface KeptMedia extends KeptFileRow {
  postId: string;
  mediaKey: string;
  url: string;
  fetchedAt: number;
}

/** One fetch as recorded, with the kept file's name when it gave one: what an evidence package lists. */
export interface FetchRow {
  postId: string;
  mediaKey: string;
  url: string;
  at: number;
  status: number | null;
  size: number | null;
  mime: string | null;
  sha256: string | null;
  /** the kept file's name in the media folder, or null */
  name: string | null;
  reason: string | null;
  message: string | null;
}

/** A post a kept file was fetched for. */
export interface KeptUse {
  sha256: string;
  postId: string;
  mediaKey: string;
  url: string;
}

const fileOf = (r: Record<string, unknown>): KeptFileRow => ({
  sha256: String(r.sha256),
  size: Number(r.size),
  mime: String(r.mime),
  name: String(r.name),
  firstKeptAt: Number(r.first_kept_at),
});

/** rows per statement when many URLs are asked about at once: within both stores' limits on bound values */
const CHUNK = 500;

export class MediaTables {
  constructor(private readonly db: Db) {}

  /** Records one fetch, and its file the first time these bytes are kept; true when the file is new. */
  async recordFetch(r: FetchRecord): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      let fresh = false;
      if (r.file) {
        const had = await tx.get(sql`SELECT sha256 FROM media_files WHERE sha256 = ${r.file.sha256}`);
        if (!had) {
          await tx.run(sql`INSERT INTO media_files (sha256, size, mime, name, first_kept_at)
            VALUES (${r.file.sha256}, ${r.file.size}, ${r.file.mime}, ${r.file.name}, ${r.at})`);
          fresh = true;
        }
      }
      await tx.run(sql`INSERT INTO media_fetches (url, post_id, media_key, at, status, size, mime, sha256, reason, message)
        VALUES (${r.url}, ${r.postId}, ${r.mediaKey}, ${r.at}, ${r.status}, ${r.file?.size ?? null},
          ${r.file?.mime ?? null}, ${r.file?.sha256 ?? null}, ${r.reason}, ${r.message})`);
      return fresh;
    });
  }

  /** Of `urls`, those already kept (a fetch of them gave a file): keeping again fetches none of them. */
  async keptUrls(urls: readonly string[]): Promise<string[]> {
    const out: string[] = [];
    for (let i = 0; i < urls.length; i += CHUNK) {
      const chunk = urls.slice(i, i + CHUNK);
      const rows = await this.db.all<{ url: string }>(
        sql`SELECT DISTINCT url FROM media_fetches WHERE sha256 IS NOT NULL AND url IN (${sql.join(chunk)})`,
      );
      out.push(...rows.map((r) => r.url));
    }
    return out;
  }

  /** One kept file by its hash, or null. */
  async file(sha256: string): Promise<KeptFileRow | null> {
    const r = await this.db.get(sql`SELECT * FROM media_files WHERE sha256 = ${sha256}`);
    return r ? fileOf(r) : null;
  }

  /** Every file kept, oldest first: what `skein verify` re-hashes. */
  async files(): Promise<KeptFileRow[]> {
    return (await this.db.all(sql`SELECT * FROM media_files ORDER BY first_kept_at, sha256`)).map(fileOf);
  }

  /** The files kept for these posts, each with the fetch that gave it (the first). */
  async keptFor(postIds: readonly string[]): Promise<KeptMedia[]> {
    if (postIds.length === 0) return [];
    const rows = await this.db.all(
      sql`SELECT f.post_id, f.media_key, f.url, f.at, m.* FROM media_fetches f JOIN media_files m ON m.sha256 = f.sha256
          WHERE f.post_id IN (${sql.join(postIds.slice(0, CHUNK))})
          ORDER BY f.post_id, f.media_key, f.at`,
    );
    const seen = new Set<string>();
    const out: KeptMedia[] = [];
    for (const r of rows) {
      const key = `${String(r.post_id)} ${String(r.media_key)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({
        ...fileOf(r),
        postId: String(r.post_id),
        mediaKey: String(r.media_key),
        url: String(r.url),
        fetchedAt: Number(r.at),
      });
    }
    return out;
  }

  /** Every fetch for these posts (at most 500 at a time), oldest first: what each gave, or why it failed. */
  async fetchesFor(postIds: readonly string[]): Promise<FetchRow[]> {
    if (postIds.length === 0) return [];
    const rows = await this.db.all(
      sql`SELECT f.post_id, f.media_key, f.url, f.at, f.status, f.size, f.mime, f.sha256, f.reason, f.message, m.name
          FROM media_fetches f LEFT JOIN media_files m ON m.sha256 = f.sha256
          WHERE f.post_id IN (${sql.join(postIds.slice(0, CHUNK))})
          ORDER BY f.at, f.rowid`,
    );
    const orNull = <T>(v: unknown, f: (x: unknown) => T): T | null => (v === null || v === undefined ? null : f(v));
    return rows.map((r) => ({
      postId: String(r.post_id),
      mediaKey: String(r.media_key),
      url: String(r.url),
      at: Number(r.at),
      status: orNull(r.status, Number),
      size: orNull(r.size, Number),
      mime: orNull(r.mime, String),
      sha256: orNull(r.sha256, String),
      name: orNull(r.name, String),
      reason: orNull(r.reason, String),
      message: orNull(r.message, String),
    }));
  }

  /**
   * The posts each of these files was kept for (its post, media key and URL; every fetch that gave it, once per
   * post and media key): how a file that changed or went missing is named to a person.
   */
  async usesOf(sha256s: readonly string[]): Promise<KeptUse[]> {
    const out: KeptUse[] = [];
    for (let i = 0; i < sha256s.length; i += CHUNK) {
      const rows = await this.db.all(
        sql`SELECT sha256, post_id, media_key, MIN(url) AS url FROM media_fetches
            WHERE sha256 IN (${sql.join(sha256s.slice(i, i + CHUNK))})
            GROUP BY sha256, post_id, media_key ORDER BY sha256, post_id, media_key`,
      );
      for (const r of rows)
        out.push({
          sha256: String(r.sha256),
          postId: String(r.post_id),
          mediaKey: String(r.media_key),
          url: String(r.url),
        });
    }
    return out;
  }

  /** Records one request for trusted time (or that none was made). */
  async recordTimestamp(r: TimestampRecord): Promise<void> {
    await recordTimestamp(this.db, 'media_timestamps', r);
  }

  /** Every token kept over a run's manifest, oldest first: what verify checks again. */
  async tokens(): Promise<KeptToken[]> {
    return keptTokens(this.db, 'media_timestamps');
  }

  /** Every request for trusted time, newest first (the last `limit`). */
  async timestamps(limit = 100): Promise<Required<TimestampRecord>[]> {
    const rows = await this.db.all(sql`SELECT * FROM media_timestamps ORDER BY at DESC, rowid DESC LIMIT ${limit}`);
    const orNull = <T>(v: unknown, f: (x: unknown) => T): T | null => (v === null || v === undefined ? null : f(v));
    return rows.map((r) => ({
      manifest: String(r.manifest),
      manifestSha256: String(r.manifest_sha256),
      authority: orNull(r.authority, String),
      at: Number(r.at),
      status: String(r.status) as TimestampRecord['status'],
      genTime: orNull(r.gen_time, Number),
      serial: orNull(r.serial, String),
      token: orNull(r.token, String),
      tokenSha256: orNull(r.token_sha256, String),
      reason: orNull(r.reason, String),
    }));
  }

  /** How much is kept: files and bytes. */
  async summary(): Promise<{ files: number; bytes: number }> {
    const r = await this.db.get(sql`SELECT COUNT(*) AS files, COALESCE(SUM(size), 0) AS bytes FROM media_files`);
    return { files: Number(r?.files ?? 0), bytes: Number(r?.bytes ?? 0) };
  }
}
