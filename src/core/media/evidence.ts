/**
 * An evidence package of a collection: one zip a researcher can hand over, holding the posts as collected (their
 * JSON as the service answered, one per line), the media files kept for them (each under its SHA-256, hashed
 * again before it is packed: a file that no longer matches its hash is left out and named), the trusted-time
 * tokens whose manifests name those files, the web archives (WACZ) holding the pages the posts link to, and a
 * manifest — per post and media: the URL, when it was fetched, the HTTP status, the hash, size and type, the token
 * that dates it, or the reason it could not be kept; per linked page: its capture, WACZ and the token that dates
 * that WACZ, or why there is none
 * — whose own SHA-256 is timestamped (`manifest.json.tsr`). `SHA256SUMS` lists every file for `sha256sum -c`,
 * and `README.txt` says how to check it all with standard tools. Written to a `.partial` file and renamed when
 * whole, so a package on disk is never half of one.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Zip, ZipDeflate, ZipPassThrough, strToU8 } from 'fflate';
import type { PageRecord } from '../../shared/pages/records';
import type { FetchRow } from './tables/tables';
import {
  askAuthority,
  checkToken,
  freshNonce,
  manifestEntries,
  timestampQuery,
  type KeptToken,
  type TimestampSettings,
} from '../timestamp';

export interface EvidenceStore {
  fetchesFor: (postIds: readonly string[]) => Promise<FetchRow[]>;
  tokens: () => Promise<KeptToken[]>;
}

/** The pages the posts link to, as the composition reads them from the pages area. */
export interface LinkedPages {
  /** the page links of one post (its raw JSON) */
  urlsOf: (raw: string) => string[];
  /** the recorded outcomes of these URLs (those tried) */
  outcomes: (urls: readonly string[]) => Promise<PageRecord[]>;
  /** the project's pages folder, where the WACZ files are */
  folder: string;
  /** the tokens of the capture runs (their manifests name each run's WACZ; paths inside the pages folder) */
  tokens: () => Promise<KeptToken[]>;
}

/** One linked page as the package records it. */
export interface EvidencePage {
  url: string;
  post_ids: string[];
  captured_at: string | null;
  http_status: number | null;
  sha256: string | null;
  size: number | null;
  type: string | null;
  final_url: string | null;
  /** the WACZ inside the package that holds its capture, or null */
  wacz: string | null;
  /** the earliest token whose manifest names that WACZ: its path in the package and the time it gives */
  timestamp: EvidenceItem['timestamp'];
  failure: string | null;
  /** what a web archive's save service answered for it (its capture's address, or why none), when it was sent */
  web_archive: {
    service: string;
    capture_url: string | null;
    asked_at: string;
    http_status: number | null;
    failure: string | null;
  } | null;
}

export interface EvidenceInput {
  /** the collection's posts as the project holds them: each one's id and raw JSON, in the collection's order */
  posts: (each: (id: string, raw: string) => Promise<void>) => Promise<void>;
  /**
   * the collection's posts whose kept JSON no longer reads (damaged in the project): never among `posts`, so left
   * out of the package, and named in its manifest and README (the first `ids`, of `count`)
   */
  damaged?: { count: number; ids: string[] };
  store: EvidenceStore;
  /** the project's media folder */
  folder: string;
  /** the linked pages, when the project keeps them */
  pages?: LinkedPages;
  timestamp: TimestampSettings;
  about: { project: string; collection: { id: number; name: string }; madeBy: string };
  now: () => number;
}

/** One post's media as the package records it: kept (with its file and the token that dates it), or why not. */
export interface EvidenceItem {
  post_id: string;
  media_key: string;
  url: string;
  fetched_at: string;
  http_status: number | null;
  sha256: string | null;
  size: number | null;
  type: string | null;
  /** the file inside the package, or null when it is not in it */
  file: string | null;
  /** the earliest token whose manifest names this file: its path in the package and the time it gives */
  timestamp: { token: string; manifest: string; gen_time: string; authority: string } | null;
  /** why it is not in the package, in plain words */
  failure: string | null;
}

export interface EvidenceSummary {
  path: string;
  posts: number;
  /** the collection's posts left out because their kept copy in the project is damaged */
  damaged: number;
  media: number;
  files: number;
  bytes: number;
  /** kept files whose bytes no longer match their hash: left out, named in the manifest */
  changed: number;
  tokens: number;
  /** distinct pages the posts link to, and how many of them are in the package as captures */
  pages: number;
  pagesCaptured: number;
  /** the package manifest's token: its authority and time, or why there is none */
  manifestToken: { authority: string; genTime: number } | null;
  manifestTokenReason: string | null;
}

/** posts whose fetches are read in one call */
const POSTS_CHUNK = 500;
const iso = (ms: number) => new Date(ms).toISOString();
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/** A streamed zip on disk: entries added one after another, the file's write pace respected. */
class ZipFile {
  private readonly out;
  private readonly zip: Zip;
  private failed: Error | null = null;
  private readonly done: Promise<void>;

  constructor(
    path: string,
    private readonly mtime: Date,
  ) {
    this.out = createWriteStream(path, { flags: 'wx' });
    let finish: () => void = () => {};
    let fail: (e: Error) => void = () => {};
    this.done = new Promise<void>((res, rej) => {
      finish = res;
      fail = rej;
    });
    this.out.on('error', (e) => {
      this.failed = e;
      fail(e);
    });
    this.zip = new Zip((err, chunk, final) => {
      if (err) {
        this.failed = err;
        fail(err);
        return;
      }
      this.out.write(chunk);
      if (final) this.out.end(() => finish());
    });
  }

  private async drained(): Promise<void> {
    if (this.failed) throw this.failed;
    if (this.out.writableNeedDrain) await new Promise<void>((r) => this.out.once('drain', () => r()));
  }

  /** an entry of text or bytes; `stored`: no compression (media files are compressed already) */
  async add(name: string, data: Uint8Array | string, stored = false): Promise<void> {
    const entry = stored ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 });
    entry.mtime = this.mtime;
    this.zip.add(entry);
    entry.push(typeof data === 'string' ? strToU8(data) : data, true);
    await this.drained();
  }

  /** an entry written a chunk at a time (the posts' lines): each push waits for the file to take it */
  open(name: string): { push: (chunk: Uint8Array) => Promise<void>; end: () => Promise<void> } {
    const entry = new ZipDeflate(name, { level: 6 });
    entry.mtime = this.mtime;
    this.zip.add(entry);
    return {
      push: async (chunk) => {
        entry.push(chunk, false);
        await this.drained();
      },
      end: async () => {
        entry.push(new Uint8Array(0), true);
        await this.drained();
      },
    };
  }

  /** an entry streamed from chunks (a media file), each pushed as it comes */
  async stream(name: string, chunks: AsyncIterable<Uint8Array>, stored = false): Promise<void> {
    const entry = stored ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 });
    entry.mtime = this.mtime;
    this.zip.add(entry);
    for await (const chunk of chunks) {
      entry.push(chunk, false);
      await this.drained();
    }
    entry.push(new Uint8Array(0), true);
    await this.drained();
  }

  async close(): Promise<void> {
    this.zip.end();
    await this.done;
  }

  destroy(): void {
    this.out.destroy();
  }
}

/** A kept file's bytes streamed into the package while they are hashed: whether they still match their name. */
async function* hashed(path: string, hash: ReturnType<typeof createHash>): AsyncIterable<Uint8Array> {
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 })) {
    hash.update(chunk as Buffer);
    yield chunk as Buffer;
  }
}

/** A file's SHA-256, streamed; null when it is not there. */
async function hashOf(path: string): Promise<string | null> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 })) hash.update(chunk as Buffer);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return hash.digest('hex');
}

/** Writes the evidence package of a collection to `target` (a `.zip`), and says what it holds. */
export async function writeEvidencePackage(target: string, input: EvidenceInput): Promise<EvidenceSummary> {
  const madeAt = input.now();
  const damaged = input.damaged ?? { count: 0, ids: [] };
  const partial = `${target}.partial-${randomBytes(4).toString('hex')}`;
  const zip = new ZipFile(partial, new Date(madeAt));
  const sums: Array<[string, string]> = [];
  try {
    // 1. the posts as collected, one JSON per line, hashed as they are packed
    const ids: string[] = [];
    const postsHash = createHash('sha256');
    const postsEntry = zip.open('posts.jsonl');
    const linkedBy = new Map<string, string[]>();
    await input.posts(async (id, raw) => {
      ids.push(id);
      for (const url of input.pages?.urlsOf(raw) ?? []) {
        const by = linkedBy.get(url) ?? [];
        if (by.length < 20 && !by.includes(id)) by.push(id);
        linkedBy.set(url, by);
      }
      const line = strToU8(`${raw}\n`);
      postsHash.update(line);
      await postsEntry.push(line);
    });
    await postsEntry.end();
    sums.push([postsHash.digest('hex'), 'posts.jsonl']);

    // 2. every fetch for those posts: per post and media key, the file it gave, else the last reason it failed
    const rows: FetchRow[] = [];
    for (let i = 0; i < ids.length; i += POSTS_CHUNK)
      rows.push(...(await input.store.fetchesFor(ids.slice(i, i + POSTS_CHUNK))));
    const best = new Map<string, FetchRow>();
    for (const r of rows) {
      const key = `${r.postId} ${r.mediaKey}`;
      const had = best.get(key);
      if (!had || (had.sha256 === null && (r.sha256 !== null || r.at >= had.at))) best.set(key, r);
    }

    // 3. the kept files, hashed again first; one that no longer matches stays out, named
    const packed = new Map<string, string>();
    const changed = new Set<string>();
    let bytes = 0;
    for (const r of best.values()) {
      if (r.sha256 === null || r.name === null || packed.has(r.sha256) || changed.has(r.sha256)) continue;
      const path = join(input.folder, basename(r.name));
      // hashed before it is packed: a file that no longer matches its hash is not evidence of what was fetched
      if ((await hashOf(path)) !== r.sha256) {
        changed.add(r.sha256);
        continue;
      }
      const name = `media/${basename(r.name)}`;
      const hash = createHash('sha256');
      await zip.stream(name, hashed(path, hash), true);
      // changed between the two reads: the zip holds what was read, and says so
      const found = hash.digest('hex');
      if (found !== r.sha256) changed.add(r.sha256);
      packed.set(r.sha256, name);
      sums.push([found, name]);
      if (found === r.sha256) bytes += r.size ?? 0;
    }

    // 4. the tokens whose manifests name a packed file, and for each file the earliest of them
    let tokens = 0;
    /** the tokens (in `folder`) whose manifests name a file of `packedHashes`, packed under `into`; by hash */
    const packTokens = async (
      kept: KeptToken[],
      folder: string,
      packedHashes: (sha: string) => boolean,
      into: string,
    ) => {
      const dated = new Map<string, EvidenceItem['timestamp']>();
      for (const t of kept.sort((x, y) => x.genTime - y.genTime)) {
        let text: string;
        let token: Buffer;
        try {
          text = await readFile(join(folder, t.manifest), 'utf8');
          token = await readFile(join(folder, t.token));
        } catch {
          continue;
        }
        const named = manifestEntries(text).filter((e) => packedHashes(e.sha256));
        if (named.length === 0) continue;
        const manifest = `${into}/${basename(t.manifest)}`;
        const tokenName = `${into}/${basename(t.token)}`;
        await zip.add(manifest, text);
        await zip.add(tokenName, token, true);
        sums.push([sha256(text), manifest], [sha256(token), tokenName]);
        tokens++;
        for (const e of named)
          if (!dated.has(e.sha256))
            dated.set(e.sha256, {
              token: tokenName,
              manifest,
              gen_time: iso(t.genTime),
              authority: hostOf(t.authority),
            });
      }
      return dated;
    };
    const dated = await packTokens(
      await input.store.tokens(),
      input.folder,
      (sha) => packed.has(sha) && !changed.has(sha),
      'timestamps',
    );

    // 4b. the pages the posts link to: each WACZ holding a capture of one, whole (hashed as it is packed)
    const pages: EvidencePage[] = [];
    const waczs = new Map<string, string>();
    /** each packed WACZ's hash, as it was packed */
    const waczHash = new Map<string, string>();
    if (input.pages && linkedBy.size > 0) {
      const urls = [...linkedBy.keys()].sort();
      const rows = new Map((await input.pages.outcomes(urls)).map((r) => [r.url, r]));
      for (const url of urls) {
        const r = rows.get(url);
        let wacz: string | null = null;
        if (r?.state === 'captured' && r.wacz) {
          wacz = waczs.get(r.wacz) ?? null;
          if (wacz === null) {
            const name = `pages/${basename(r.wacz)}`;
            const hash = createHash('sha256');
            try {
              await zip.stream(name, hashed(join(input.pages.folder, basename(r.wacz)), hash), true);
              const found = hash.digest('hex');
              sums.push([found, name]);
              waczHash.set(name, found);
              waczs.set(r.wacz, name);
              wacz = name;
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
            }
          }
        }
        pages.push({
          url,
          post_ids: linkedBy.get(url) ?? [],
          captured_at: r ? iso(r.at) : null,
          http_status: r?.status ?? null,
          sha256: r?.sha256 ?? null,
          size: r?.size ?? null,
          type: r?.mime ?? null,
          final_url: r?.finalUrl ?? null,
          wacz,
          timestamp: null,
          failure:
            wacz !== null
              ? null
              : r?.state === 'captured'
                ? 'its web archive is no longer in the project’s pages folder'
                : r
                  ? (r.message ?? r.reason ?? 'not captured')
                  : 'not captured yet (Keep linked pages first)',
          web_archive: r?.save
            ? {
                service: r.save.service,
                capture_url: r.save.captureUrl,
                asked_at: iso(r.save.at),
                http_status: r.save.status,
                failure: r.save.captureUrl ? null : (r.save.message ?? r.save.reason ?? 'not saved'),
              }
            : null,
        });
      }
    }

    // 4c. the capture runs' tokens whose manifests name a packed WACZ, and for each page the earliest of them
    if (input.pages && waczHash.size > 0) {
      const packedWaczs = new Set(waczHash.values());
      const waczDated = await packTokens(
        await input.pages.tokens(),
        input.pages.folder,
        (sha) => packedWaczs.has(sha),
        'timestamps/pages',
      );
      for (const page of pages) {
        const hash = page.wacz === null ? undefined : waczHash.get(page.wacz);
        page.timestamp = hash === undefined ? null : (waczDated.get(hash) ?? null);
      }
    }

    // 5. the manifest, per post and media key
    const items: EvidenceItem[] = [...best.values()].map((r) => {
      const bad = r.sha256 !== null && changed.has(r.sha256);
      const file = r.sha256 !== null && !bad ? (packed.get(r.sha256) ?? null) : null;
      return {
        post_id: r.postId,
        media_key: r.mediaKey,
        url: r.url,
        fetched_at: iso(r.at),
        http_status: r.status,
        sha256: r.sha256,
        size: r.size,
        type: r.mime,
        file,
        timestamp: file && r.sha256 ? (dated.get(r.sha256) ?? null) : null,
        failure: bad
          ? 'the kept file no longer matches its hash (changed or missing since it was kept): left out'
          : r.sha256 === null
            ? (r.message ?? r.reason ?? 'not kept')
            : null,
      };
    });
    const manifest = `${JSON.stringify(
      {
        skein_evidence: 1,
        project: input.about.project,
        collection: input.about.collection,
        made_at: iso(madeAt),
        made_by: input.about.madeBy,
        posts: {
          file: 'posts.jsonl',
          count: ids.length,
          sha256: sums[0]?.[0],
          ...(damaged.count > 0
            ? {
                left_out_damaged: {
                  posts: damaged.count,
                  ids: damaged.ids,
                  note: `${damagedWords(damaged)}${damaged.count > damaged.ids.length ? `; the first ${damaged.ids.length} are named` : ''}`,
                },
              }
            : {}),
        },
        media: { items: items.length, files: packed.size - changed.size, changed: changed.size, bytes },
        timestamps: tokens,
        items,
        linked_pages: pages,
      },
      null,
      2,
    )}\n`;
    await zip.add('manifest.json', manifest);
    sums.push([sha256(manifest), 'manifest.json']);

    // 6. trusted time over the manifest's own hash (it names every other file's hash, directly or in SHA256SUMS)
    let manifestToken: EvidenceSummary['manifestToken'] = null;
    const reasons: string[] = [];
    for (const authority of input.timestamp.authorities) {
      const nonce = freshNonce();
      const asked = await askAuthority(
        authority,
        timestampQuery(Buffer.from(sha256(manifest), 'hex'), nonce),
        input.timestamp.policy,
      );
      const checked = asked.ok ? await checkToken(asked.reply, strToU8(manifest), nonce) : asked;
      if (!asked.ok || !checked.ok) {
        reasons.push(`${hostOf(authority)}: ${checked.ok ? 'the answer could not be read' : checked.reason}`);
        continue;
      }
      await zip.add('manifest.json.tsr', asked.reply, true);
      sums.push([sha256(asked.reply), 'manifest.json.tsr']);
      manifestToken = { authority: hostOf(authority), genTime: checked.genTime };
      break;
    }
    const manifestTokenReason = manifestToken
      ? null
      : input.timestamp.authorities.length === 0
        ? input.timestamp.noneReason
        : `no authority gave a token (${reasons.join('; ')})`;

    await zip.add('SHA256SUMS', sums.map(([h, n]) => `${h}  ${n}\n`).join(''));
    await zip.add('README.txt', readme(input, madeAt, manifestToken, manifestTokenReason));
    await zip.close();
    await rename(partial, target);
    return {
      path: target,
      posts: ids.length,
      damaged: damaged.count,
      media: items.length,
      files: packed.size - changed.size,
      bytes,
      changed: changed.size,
      tokens,
      pages: pages.length,
      pagesCaptured: pages.filter((p) => p.wacz !== null).length,
      manifestToken,
      manifestTokenReason,
    };
  } catch (error) {
    zip.destroy();
    await rm(partial, { force: true });
    throw error;
  }
}

/** why the damaged posts are not in the package, and how to mend them */
function damagedWords(damaged: { count: number }): string {
  const one = damaged.count === 1;
  return `${one ? 'its' : 'their'} kept JSON in the project no longer reads (damaged on disk or by hand), so ${one ? 'it is' : 'they are'} not in posts.jsonl; hydrating ${one ? 'its id' : 'their ids'} buys ${one ? 'it' : 'them'} again and mends the project, and a package made after that holds ${one ? 'it' : 'them'}`;
}

function readme(
  input: EvidenceInput,
  madeAt: number,
  token: EvidenceSummary['manifestToken'],
  reason: string | null,
): string {
  return `Evidence package of the collection “${input.about.collection.name}” of the project “${input.about.project}”,
made ${iso(madeAt)} by ${input.about.madeBy}.

posts.jsonl        the posts as collected: each one's JSON as the service answered it, one per line
media/             the photos, videos and GIFs kept for them, each named by its SHA-256
timestamps/        the trusted-time tokens (RFC 3161) over the lists of hashes of the runs that kept those files
                   (timestamps/pages/: those of the runs that captured the web archives below)
pages/             the web archives (WACZ, for ReplayWeb.page) holding the pages the posts link to, as captured
manifest.json      per post and media: URL, when fetched, HTTP status, SHA-256, size, type, file, the token that
                   dates the file, or why it is not here; per linked page: the posts linking to it, when
                   captured, HTTP status, SHA-256, size, type, where it led, its WACZ and the token that
                   dates it, or why it is not here,
                   and when a web archive's save service was asked, its capture's address or why there is none
manifest.json.tsr  a token over manifest.json's SHA-256 (${token ? `${token.authority}, ${iso(token.genTime)}` : `none: ${reason ?? 'not asked'}`})
SHA256SUMS         the SHA-256 of every file above
${
  (input.damaged?.count ?? 0) > 0
    ? `
Not here: ${input.damaged!.count} post${input.damaged!.count === 1 ? '' : 's'} of the collection (named in manifest.json, posts.left_out_damaged):
${damagedWords(input.damaged!)}.
`
    : ''
}
To check it:
  sha256sum -c SHA256SUMS
  openssl ts -reply -in manifest.json.tsr -text
  openssl ts -verify -data manifest.json -in manifest.json.tsr -CAfile AUTHORITY-CA.pem
  openssl ts -verify -data timestamps/NAME.manifest -in timestamps/NAME.tsr -CAfile AUTHORITY-CA.pem
AUTHORITY-CA.pem is the timestamp authority's CA certificate, as it publishes it (Skein's demo: /tsa/certificate.pem
on the demo API's address).
`;
}
