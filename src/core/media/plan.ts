/**
 * Which file to keep for each media entry of a post, and what keeping them all will take. Pure: the posts in,
 * the candidates and the estimate out.
 *
 * Photos at their largest size: the CDN's `name=orig` (api-field-notes.md: `media_url_https` is the photo; the
 * renderer asks for the same original). Videos and GIFs: the MP4 variant of the highest bitrate (the HLS
 * playlist has none and is not a file), or the highest at or under a chosen maximum.
 */

export type MediaKind = 'photo' | 'video' | 'animated_gif';

export interface Candidate {
  postId: string;
  mediaKey: string;
  kind: MediaKind;
  url: string;
  /** bytes known before fetching (a video's bitrate × duration), or null */
  bytes: number | null;
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

/** The largest size of a photo: `name=orig` on the platform's image CDN; any other address as it is. */
export function originalPhotoUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  if (u.hostname !== 'pbs.twimg.com') return url;
  const legacy = /:(?:thumb|small|medium|large|orig)$/.exec(u.pathname);
  if (legacy) u.pathname = u.pathname.slice(0, legacy.index);
  u.searchParams.set('name', 'orig');
  return u.href;
}

/** The MP4 variant to keep: the highest bitrate, at or under `maxBitrate` when one is chosen (else the lowest). */
export function bestVariant(
  variants: unknown,
  maxBitrate?: number,
): { url: string; bitrate: number | null } | undefined {
  if (!Array.isArray(variants)) return undefined;
  const mp4 = variants
    .filter(isRec)
    .filter((v) => str(v.content_type) === 'video/mp4' && str(v.url))
    .map((v) => ({ url: v.url as string, bitrate: num(v.bitrate) }))
    .sort((a, b) => (b.bitrate ?? 0) - (a.bitrate ?? 0));
  if (maxBitrate === undefined) return mp4[0];
  return mp4.find((v) => (v.bitrate ?? 0) <= maxBitrate) ?? mp4[mp4.length - 1];
}

function fromExtended(postId: string, m: Rec, maxBitrate?: number): Candidate | undefined {
  const type = str(m.type);
  const mediaKey = str(m.media_key) ?? str(m.id_str) ?? '';
  if (type === 'video' || type === 'animated_gif') {
    const info = isRec(m.video_info) ? m.video_info : {};
    const best = bestVariant(info.variants, maxBitrate);
    if (!best) return undefined;
    const ms = num(info.duration_millis);
    const bytes = best.bitrate && ms ? Math.round((best.bitrate / 8) * (ms / 1000)) : null;
    return { postId, mediaKey, kind: type, url: best.url, bytes };
  }
  const url = str(m.media_url_https) ?? str(m.media_url);
  return url ? { postId, mediaKey, kind: 'photo', url: originalPhotoUrl(url), bytes: null } : undefined;
}

function fromSpec(postId: string, m: Rec): Candidate | undefined {
  const result = isRec(m.media_results) && isRec(m.media_results.result) ? m.media_results.result : {};
  const info = isRec(result.media_info) ? result.media_info : {};
  const url = str(info.original_img_url);
  if (!url) return undefined;
  const mediaKey = str(m.id_str) ?? str(result.media_id) ?? '';
  return { postId, mediaKey, kind: 'photo', url: originalPhotoUrl(url), bytes: null };
}

/**
 * The files to keep for a post (its own media and a retweet's original's): from `extendedEntities` where the
 * service put them there (kinds and video variants), else the spec's `entities.media` (photos).
 */
export function candidatesOf(post: unknown, maxBitrate?: number): Candidate[] {
  if (!isRec(post)) return [];
  const postId = str(post.id) ?? '';
  const out: Candidate[] = [];
  const extended = isRec(post.extendedEntities) ? post.extendedEntities.media : undefined;
  if (Array.isArray(extended) && extended.length > 0) {
    for (const m of extended) if (isRec(m)) out.push(...[fromExtended(postId, m, maxBitrate)].filter((c) => !!c));
  } else {
    const spec = isRec(post.entities) ? post.entities.media : undefined;
    if (Array.isArray(spec)) for (const m of spec) if (isRec(m)) out.push(...[fromSpec(postId, m)].filter((c) => !!c));
  }
  if (isRec(post.retweeted_tweet)) out.push(...candidatesOf(post.retweeted_tweet, maxBitrate));
  return out;
}

/** Guesses where nothing says a file's size: a photo, a GIF's MP4 (say so wherever they are shown). */
const GUESS = { photo: 300_000, animated_gif: 1_000_000, video: 5_000_000 } as const;
/** the pace the time estimate assumes: a file's round trip, and bytes a second */
const PACE = { secondsPerFile: 0.3, bytesPerSecond: 2_000_000 } as const;

export interface Estimate {
  /** files to fetch (not kept yet) */
  files: number;
  /** files already kept: fetched again never */
  alreadyKept: number;
  /** bytes known from the posts (video bitrates × durations) */
  knownBytes: number;
  /** bytes guessed for files whose size the posts do not give */
  guessedBytes: number;
  guessedFiles: number;
  seconds: number;
}

export function estimate(candidates: readonly Candidate[], kept: ReadonlySet<string>): Estimate {
  let files = 0;
  let alreadyKept = 0;
  let knownBytes = 0;
  let guessedBytes = 0;
  let guessedFiles = 0;
  for (const c of candidates) {
    if (kept.has(c.url)) {
      alreadyKept++;
      continue;
    }
    files++;
    if (c.bytes !== null) knownBytes += c.bytes;
    else {
      guessedBytes += GUESS[c.kind];
      guessedFiles++;
    }
  }
  const seconds = Math.ceil(files * PACE.secondsPerFile + (knownBytes + guessedBytes) / PACE.bytesPerSecond);
  return { files, alreadyKept, knownBytes, guessedBytes, guessedFiles, seconds };
}

/** Each URL once, in the order first met (several posts can carry one file). */
export function uniqueByUrl(candidates: Iterable<Candidate>): Candidate[] {
  const seen = new Map<string, Candidate>();
  for (const c of candidates) if (!seen.has(c.url)) seen.set(c.url, c);
  return [...seen.values()];
}
