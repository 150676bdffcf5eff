/**
 * The pages area's tables in a project, written once for a project file and a team's PostgreSQL schema: one row
 * per linked URL with its outcome — captured (when, HTTP status, size, type, the payload's SHA-256, the WACZ
 * that holds it and the response record's offset and length in its `archive/data.warc.gz`) or the reason it
 * was not, in plain words — and which posts link to it. A URL has one row however often it is tried: a failure
 * is overwritten by the next try, a capture never is (capturing again skips it).
 *
 * A URL sent to a web archive's save service has one row in `page_saves` too: the capture's address the service
 * answered with and when, or why there is none; a save is never overwritten (it is not sent again).
 *
 * Each WACZ a run writes has one row in `page_waczs`: the SHA-256 and size of the whole file as written, so a
 * later check re-hashes it against that (a project made before the row existed has captures naming a WACZ with
 * no row: `waczs` lists those too, without a hash).
 *
 * Each request for trusted time over a run's manifest (the WACZ it wrote, core/timestamp) has one row in
 * `page_timestamps`: granted (the authority, its time, the serial, the token's file and hash), failed (why), or
 * not asked (why); a row is never rewritten.
 *
 * Every method is a call main makes by name across the archive's thread (plain data in and out).
 */
import { keptTokens, recordTimestamp, sql, type Db } from '../../db';
import type { PageRecord, SaveRecord } from '../../../shared/pages/records';
import type { KeptToken, TimestampRecord } from '../../timestamp';

export interface PageLinkRow {
  url: string;
  postId: string;
}

/** One URL's outcome, as a capture run records it. */
export interface PageOutcome {
  url: string;
  at: number;
  status: number | null;
  /** the capture, or null when it failed */
  capture: {
    size: number;
    mime: string;
    sha256: string;
    finalUrl: string;
    /** the WACZ's file name in the project's pages folder */
    wacz: string;
    offset: number;
    length: number;
  } | null;
  /** gone, refused, too-large, timed-out, wrong-type, failed: with `message`, when it failed */
  reason: string | null;
  message: string | null;
}

/** One URL's answer from a web archive's save service, as a run records it (its state follows from it). */
export interface SaveOutcome extends Omit<SaveRecord, 'state'> {
  url: string;
}

/** A URL's save, as the project keeps it. */
export interface SaveRow extends SaveRecord {
  attempts: number;
}

export interface PageRow extends PageRecord {
  attempts: number;
  offset: number | null;
  length: number | null;
  /** the posts that link to it (the first 20) */
  postIds: string[];
  save: SaveRow | null;
}

/** A WACZ the project's captures are in: its hash and size as written (null: written before they were recorded). */
export interface WaczRow {
  name: string;
  sha256: string | null;
  size: number | null;
  at: number | null;
  /** the captured pages it holds, and the first 20 of their URLs */
  pages: number;
  urls: string[];
}

/** rows per statement when many URLs are asked about at once: within both stores' limits on bound values */
const CHUNK = 400;

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const str = (v: unknown): string | null =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : null;

export class PageTables {
  constructor(private readonly db: Db) {}

  /** Records which posts link to which URLs; a pair already there is left alone. */
  async recordLinks(links: readonly PageLinkRow[]): Promise<void> {
    for (let i = 0; i < links.length; i += CHUNK) {
      const chunk = links.slice(i, i + CHUNK);
      await this.db.run(
        sql`INSERT INTO page_links (url, post_id) VALUES ${sql.join(
          chunk.map((l) => sql`(${l.url}, ${l.postId})`),
        )} ON CONFLICT (url, post_id) DO NOTHING`,
      );
    }
  }

  /**
   * Records one URL's outcome: its one row made, or brought up to date when it had failed before. A URL
   * captured before keeps its capture (true when this outcome was recorded).
   */
  async recordOutcome(o: PageOutcome): Promise<boolean> {
    const c = o.capture;
    const changed = await this.db.run(
      sql`INSERT INTO page_captures (url, state, at, attempts, status, size, mime, sha256, final_url, wacz,
          record_offset, record_length, reason, message)
        VALUES (${o.url}, ${c ? 'captured' : 'failed'}, ${o.at}, 1, ${o.status}, ${c?.size ?? null},
          ${c?.mime ?? null}, ${c?.sha256 ?? null}, ${c?.finalUrl ?? null}, ${c?.wacz ?? null},
          ${c?.offset ?? null}, ${c?.length ?? null}, ${o.reason}, ${o.message})
        ON CONFLICT (url) DO UPDATE SET state = excluded.state, at = excluded.at,
          attempts = page_captures.attempts + 1, status = excluded.status, size = excluded.size,
          mime = excluded.mime, sha256 = excluded.sha256, final_url = excluded.final_url, wacz = excluded.wacz,
          record_offset = excluded.record_offset, record_length = excluded.record_length,
          reason = excluded.reason, message = excluded.message
        WHERE page_captures.state <> 'captured'`,
    );
    return changed > 0;
  }

  /** Of `urls`, those already captured: capturing again fetches none of them. */
  async capturedUrls(urls: readonly string[]): Promise<string[]> {
    const out: string[] = [];
    for (let i = 0; i < urls.length; i += CHUNK) {
      const rows = await this.db.all<{ url: string }>(
        sql`SELECT url FROM page_captures WHERE state = 'captured' AND url IN (${sql.join(urls.slice(i, i + CHUNK))})`,
      );
      out.push(...rows.map((r) => r.url));
    }
    return out;
  }

  /** The rows of these URLs (those tried), in URL order, each with the posts that link to it. */
  async outcomes(urls: readonly string[]): Promise<PageRow[]> {
    const out: PageRow[] = [];
    for (let i = 0; i < urls.length; i += CHUNK) {
      const chunk = urls.slice(i, i + CHUNK);
      const rows = await this.db.all(sql`SELECT * FROM page_captures WHERE url IN (${sql.join(chunk)})`);
      const links = await this.db.all<{ url: string; post_id: string }>(
        sql`SELECT url, post_id FROM page_links WHERE url IN (${sql.join(chunk)}) ORDER BY url, post_id`,
      );
      const saves = new Map((await this.saves(chunk)).map((r) => [r.url, r]));
      const posts = new Map<string, string[]>();
      for (const l of links) {
        const list = posts.get(String(l.url)) ?? [];
        if (list.length < 20) list.push(String(l.post_id));
        posts.set(String(l.url), list);
      }
      for (const r of rows)
        out.push({
          url: String(r.url),
          state: r.state === 'captured' ? 'captured' : 'failed',
          at: Number(r.at),
          attempts: Number(r.attempts),
          status: num(r.status),
          size: num(r.size),
          mime: str(r.mime),
          sha256: str(r.sha256),
          finalUrl: str(r.final_url),
          wacz: str(r.wacz),
          offset: num(r.record_offset),
          length: num(r.record_length),
          reason: str(r.reason),
          message: str(r.message),
          postIds: posts.get(String(r.url)) ?? [],
          save: saveOnly(saves.get(String(r.url))),
        });
    }
    return out.sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  }

  /**
   * Records one URL's answer from a save service: its one row made, or brought up to date when it was not saved
   * before. A URL saved before keeps its capture (true when this answer was recorded).
   */
  async recordSave(o: SaveOutcome): Promise<boolean> {
    const changed = await this.db.run(
      sql`INSERT INTO page_saves (url, state, at, attempts, service, status, capture_url, reason, message)
        VALUES (${o.url}, ${o.captureUrl ? 'saved' : 'failed'}, ${o.at}, 1, ${o.service}, ${o.status},
          ${o.captureUrl}, ${o.reason}, ${o.message})
        ON CONFLICT (url) DO UPDATE SET state = excluded.state, at = excluded.at,
          attempts = page_saves.attempts + 1, service = excluded.service, status = excluded.status,
          capture_url = excluded.capture_url, reason = excluded.reason, message = excluded.message
        WHERE page_saves.state <> 'saved'`,
    );
    return changed > 0;
  }

  /** Of `urls`, those a save service already captured: none of them is sent again. */
  async savedUrls(urls: readonly string[]): Promise<string[]> {
    const out: string[] = [];
    for (let i = 0; i < urls.length; i += CHUNK) {
      const rows = await this.db.all<{ url: string }>(
        sql`SELECT url FROM page_saves WHERE state = 'saved' AND url IN (${sql.join(urls.slice(i, i + CHUNK))})`,
      );
      out.push(...rows.map((r) => r.url));
    }
    return out;
  }

  /** The save service's rows of these URLs (those sent), in URL order. */
  async saves(urls: readonly string[]): Promise<Array<SaveRow & { url: string }>> {
    const out: Array<SaveRow & { url: string }> = [];
    for (let i = 0; i < urls.length; i += CHUNK) {
      const rows = await this.db.all(
        sql`SELECT * FROM page_saves WHERE url IN (${sql.join(urls.slice(i, i + CHUNK))})`,
      );
      out.push(...rows.map((r) => ({ url: String(r.url), ...saveRow(r) })));
    }
    return out.sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  }

  /** Records a WACZ a run wrote: the SHA-256 and size of the whole file (a name is written once). */
  async recordWacz(w: { name: string; sha256: string; size: number; at: number }): Promise<void> {
    await this.db.run(
      sql`INSERT INTO page_waczs (name, sha256, size, at) VALUES (${w.name}, ${w.sha256}, ${w.size}, ${w.at})
        ON CONFLICT (name) DO NOTHING`,
    );
  }

  /**
   * Every WACZ the project's captures are in or a run recorded, in name order: its hash and size as written, or
   * nulls for one written before they were recorded, and the pages it holds.
   */
  async waczs(): Promise<WaczRow[]> {
    const recorded = await this.db.all(sql`SELECT name, sha256, size, at FROM page_waczs`);
    const held = await this.db.all<{ wacz: string; url: string }>(
      sql`SELECT wacz, url FROM page_captures WHERE state = 'captured' AND wacz IS NOT NULL ORDER BY wacz, url`,
    );
    const out = new Map<string, WaczRow>();
    const row = (name: string): WaczRow => {
      const found = out.get(name) ?? { name, sha256: null, size: null, at: null, pages: 0, urls: [] };
      out.set(name, found);
      return found;
    };
    for (const r of recorded)
      Object.assign(row(String(r.name)), { sha256: str(r.sha256), size: num(r.size), at: num(r.at) });
    for (const h of held) {
      const w = row(String(h.wacz));
      w.pages++;
      if (w.urls.length < 20) w.urls.push(String(h.url));
    }
    return [...out.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Records one request for trusted time over a run's manifest (or that none was made). */
  async recordTimestamp(r: TimestampRecord): Promise<void> {
    await recordTimestamp(this.db, 'page_timestamps', r);
  }

  /** Every token kept over a run's manifest, oldest first: what verify checks again. */
  async tokens(): Promise<KeptToken[]> {
    return keptTokens(this.db, 'page_timestamps');
  }

  /** Every request for trusted time, oldest first: what each run asked and how it ended. */
  async timestamps(): Promise<Array<TimestampRecord & { reason: string | null }>> {
    const rows = await this.db.all(sql`SELECT * FROM page_timestamps ORDER BY at, rowid`);
    return rows.map((r) => ({
      manifest: String(r.manifest),
      manifestSha256: String(r.manifest_sha256),
      authority: str(r.authority),
      at: Number(r.at),
      status: String(r.status) as TimestampRecord['status'],
      genTime: num(r.gen_time),
      serial: str(r.serial),
      token: str(r.token),
      tokenSha256: str(r.token_sha256),
      reason: str(r.reason),
    }));
  }

  /** How many URLs are captured, how many failed, and the captured payloads' bytes. */
  async summary(): Promise<{ captured: number; failed: number; bytes: number }> {
    const r = await this.db.get(
      sql`SELECT COALESCE(SUM(CASE WHEN state = 'captured' THEN 1 ELSE 0 END), 0) AS captured,
          COALESCE(SUM(CASE WHEN state = 'captured' THEN 0 ELSE 1 END), 0) AS failed,
          COALESCE(SUM(size), 0) AS bytes FROM page_captures`,
    );
    return { captured: Number(r?.captured ?? 0), failed: Number(r?.failed ?? 0), bytes: Number(r?.bytes ?? 0) };
  }
}

function saveRow(r: Record<string, unknown>): SaveRow {
  return {
    state: r.state === 'saved' ? 'saved' : 'failed',
    at: Number(r.at),
    attempts: Number(r.attempts),
    service: String(r.service),
    status: num(r.status),
    captureUrl: str(r.capture_url),
    reason: str(r.reason),
    message: str(r.message),
  };
}

const saveOnly = (r: (SaveRow & { url: string }) | undefined): SaveRow | null => {
  if (!r) return null;
  const { url: _url, ...save } = r;
  return save;
};
