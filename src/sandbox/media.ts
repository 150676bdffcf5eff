/**
 * Images the sandbox serves itself, so media renders offline: post photos,
 * avatars, covers and banners at `/media/<kind>-<id>.<png|svg>`. Each image is
 * a pure function of (seed, name); a post photo's colours are the palette its
 * post declares in `color_info`, and its PNG has the declared size.
 *
 * PNGs are palette-indexed colour bands (one byte per pixel; rows after the
 * first are all-zero "Up"-filtered), built in microseconds (see `bandsZlib`).
 */
import { crc32, deflateRawSync } from 'node:zlib';
import { hash32, Rng } from './random';

export interface Rgb {
  red: number;
  green: number;
  blue: number;
}

export interface ImageSpec {
  width: number;
  height: number;
  palette: { percentage: number; rgb: Rgb }[];
}

export const MEDIA_KINDS = ['img', 'avatar', 'cover', 'banner'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

const SIZES: Record<MediaKind, readonly (readonly [number, number])[]> = {
  img: [
    [1200, 675],
    [1080, 1080],
    [1600, 900],
    [800, 1000],
    [2048, 1152],
  ],
  avatar: [[128, 128]],
  cover: [[1500, 500]],
  banner: [[1200, 480]],
};

export function imageSpec(seed: number, kind: MediaKind, id: string): ImageSpec {
  const rng = new Rng(seed, 'media', kind, id);
  const [width, height] = rng.pick(SIZES[kind]);
  const colours = 2 + rng.int(4);
  const weights = Array.from({ length: colours }, () => 0.2 + rng.next());
  const sum = weights.reduce((a, b) => a + b, 0);
  const palette = weights
    .map((w) => ({
      percentage: Math.round((w / sum) * 10_000) / 100,
      rgb: { red: rng.int(256), green: rng.int(256), blue: rng.int(256) },
    }))
    .sort((a, b) => b.percentage - a.percentage);
  return { width, height, palette };
}

export function mediaUrl(origin: string, kind: MediaKind, id: string, ext: 'png' | 'svg' = 'png'): string {
  return `${origin}/media/${kind}-${id}.${ext}`;
}

const NAME = /^(img|avatar|cover|banner)-(\d{1,20})\.(png|svg)$/;

export function parseMediaName(name: string): { kind: MediaKind; id: string; ext: 'png' | 'svg' } | undefined {
  const m = NAME.exec(name);
  return m ? { kind: m[1] as MediaKind, id: m[2] as string, ext: m[3] as 'png' | 'svg' } : undefined;
}

const hex = (c: Rgb): string => `#${[c.red, c.green, c.blue].map((v) => v.toString(16).padStart(2, '0')).join('')}`;

export function svgImage(spec: ImageSpec, label: string): string {
  const { width: w, height: h } = spec;
  let x = 0;
  const bands = spec.palette
    .map((p) => {
      const bw = (p.percentage / 100) * w;
      const rect = `<rect x="${x.toFixed(1)}" y="0" width="${(bw + 0.5).toFixed(1)}" height="${h}" fill="${hex(p.rgb)}"/>`;
      x += bw;
      return rect;
    })
    .join('');
  const size = Math.round(Math.min(w, h) / 8);
  const text = label.replace(/[<>&"]/g, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${bands}<text x="50%" y="50%" font-family="sans-serif" font-size="${size}" fill="#fff" text-anchor="middle" dominant-baseline="middle">${text}</text></svg>`;
}

export function pngImage(spec: ImageSpec): Buffer {
  const { width: w, height: h } = spec;
  const row = Buffer.alloc(w + 1); // filter byte 0, then palette indices
  let x = 0;
  spec.palette.forEach((p, i) => {
    const end = i === spec.palette.length - 1 ? w : Math.min(w, x + Math.round((p.percentage / 100) * w));
    row.fill(i, 1 + x, 1 + end);
    x = end;
  });
  const header = Buffer.alloc(13);
  header.writeUInt32BE(w, 0);
  header.writeUInt32BE(h, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(3, 9); // palette colour
  const plte = Buffer.from(spec.palette.flatMap((p) => [p.rgb.red, p.rgb.green, p.rgb.blue]));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('PLTE', plte),
    chunk('IDAT', bandsZlib(row, h)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * The zlib stream of the image data: the first scanline as it is, then h − 1
 * scanlines with the "Up" filter and no change (a filter byte 2 and w zeros).
 * Deflating those megabytes of zeros took ~2 ms a photo on the sandbox's event
 * loop (main's, in the app), for every photo a reader scrolls past: the first
 * scanline now goes in a stored block, and the rest is one deflate block per
 * image size, made once and shared. The Adler-32 over all of it is summed per
 * row.
 */
function bandsZlib(first: Buffer, h: number): Buffer {
  const w = first.length - 1;
  const stored = Buffer.alloc(5);
  stored.writeUInt8(0, 0); // BFINAL 0, BTYPE 00 (stored): byte-aligned, so the next block starts a byte
  stored.writeUInt16LE(first.length, 1);
  stored.writeUInt16LE(~first.length & 0xffff, 3);
  let a = 1;
  let b = 0;
  for (const byte of first) {
    a = (a + byte) % ADLER;
    b = (b + a) % ADLER;
  }
  for (let y = 1; y < h; y++) {
    a = (a + 2) % ADLER;
    b = (b + a + w * a) % ADLER; // the filter byte, then w zeros each adding a to b
  }
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((b << 16) | a) >>> 0, 0);
  return Buffer.concat([ZLIB_HEADER, stored, first, upRows(w, h), adler]);
}

const ADLER = 65_521;
const ZLIB_HEADER = Buffer.from([0x78, 0x01]);
const UP_ROWS = new Map<string, Buffer>();

/** h − 1 unchanged "Up" scanlines of width w, raw-deflated as the final block(s) */
function upRows(w: number, h: number): Buffer {
  const key = `${w}x${h}`;
  let out = UP_ROWS.get(key);
  if (!out) {
    const raw = Buffer.alloc((w + 1) * (h - 1));
    for (let y = 0; y < h - 1; y++) raw[y * (w + 1)] = 2;
    out = deflateRawSync(raw, { level: 1 });
    UP_ROWS.set(key, out);
  }
  return out;
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** ETag of an image: stable per seed and name */
export function mediaEtag(seed: number, name: string): string {
  return `"${hash32(seed, name).toString(36)}"`;
}

/**
 * Videos and GIFs. A post's media entry is a photo, a video or a GIF, a pure function of (seed, media id); the
 * live service describes them in `extendedEntities.media[]` (api-field-notes.md): a video's MP4 variants at
 * three bitrates plus an HLS playlist with none, a GIF's one MP4 at bitrate 0. The sandbox serves each MP4 as a
 * small, valid ISO media file (`mp4Bytes`), larger for a higher bitrate, so "the best variant" is visibly the
 * largest file.
 */
export type MediaType = 'photo' | 'video' | 'animated_gif';

function mediaType(seed: number, mediaId: string): MediaType {
  const r = hash32(seed, 'media-type', mediaId) % 10;
  return r < 2 ? 'video' : r < 4 ? 'animated_gif' : 'photo';
}

const VIDEO_BITRATES = [256_000, 832_000, 2_176_000] as const;

function videoUrl(origin: string, type: 'video' | 'animated_gif', id: string, bitrate: number): string {
  return `${origin}/media/${type === 'video' ? 'vid' : 'gif'}-${id}-${bitrate}.mp4`;
}

const VIDEO_NAME = /^(vid|gif)-(\d{1,20})-(\d{1,8})\.mp4$/;

export function parseVideoName(
  name: string,
): { type: 'video' | 'animated_gif'; id: string; bitrate: number } | undefined {
  const m = VIDEO_NAME.exec(name);
  if (!m) return undefined;
  const type = m[1] === 'vid' ? 'video' : 'animated_gif';
  const bitrate = Number(m[3]);
  if (type === 'video' ? !(VIDEO_BITRATES as readonly number[]).includes(bitrate) : bitrate !== 0) return undefined;
  return { type, id: m[2] as string, bitrate };
}

function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'ascii');
  return Buffer.concat([head, body]);
}

/**
 * An MP4 of its name: `ftyp`, a `moov` with its movie header (the declared duration), and a `free` box whose
 * bytes are drawn from (seed, name) — a few kilobytes, more for a higher bitrate. No track: players open it as
 * an empty movie; what the demo needs is bytes a type check and a hash can hold to.
 */
export function videoDurationMs(seed: number, id: string): number {
  return 3_000 + (hash32(seed, 'duration', id) % 57_000);
}

interface SpecMediaEntity {
  display_url: string;
  expanded_url: string;
  id_str: string;
  indices: readonly [number, number] | number[];
  url: string;
  media_results: {
    result: {
      media_info: {
        original_img_url: string;
        original_img_width: number;
        original_img_height: number;
        alt_text?: string | null;
      };
    };
  };
}

/** A post's media entry as the live service puts it in `extendedEntities.media[]`, for the spec's entry `m`. */
export function extendedMedia(seed: number, origin: string, m: SpecMediaEntity): Record<string, unknown> {
  const info = m.media_results.result.media_info;
  const type = mediaType(seed, m.id_str);
  const [w, h] = [info.original_img_width, info.original_img_height];
  const base = {
    display_url: m.display_url,
    expanded_url: type === 'photo' ? m.expanded_url : m.expanded_url.replace('/photo/', '/video/'),
    id_str: m.id_str,
    indices: m.indices,
    media_key: `${type === 'photo' ? 3 : type === 'video' ? 7 : 16}_${m.id_str}`,
    media_url_https: info.original_img_url,
    type,
    url: m.url,
    original_info: { width: w, height: h, focus_rects: [] },
    sizes: { large: { w, h, resize: 'fit' } },
    ext_media_availability: { status: 'Available' },
    ...(info.alt_text ? { ext_alt_text: info.alt_text } : {}),
  };
  if (type === 'photo') return base;
  const divisor = gcd(w, h);
  const aspect_ratio = [w / divisor, h / divisor];
  if (type === 'animated_gif')
    return {
      ...base,
      video_info: {
        aspect_ratio,
        variants: [{ bitrate: 0, content_type: 'video/mp4', url: videoUrl(origin, type, m.id_str, 0) }],
      },
    };
  return {
    ...base,
    video_info: {
      aspect_ratio,
      duration_millis: videoDurationMs(seed, m.id_str),
      variants: [
        { content_type: 'application/x-mpegURL', url: `${origin}/media/vid-${m.id_str}.m3u8` },
        ...VIDEO_BITRATES.map((bitrate) => ({
          bitrate,
          content_type: 'video/mp4',
          url: videoUrl(origin, type, m.id_str, bitrate),
        })),
      ],
    },
  };
}

const gcd = (a: number, b: number): number => (b === 0 ? a || 1 : gcd(b, a % b));

export function mp4Bytes(seed: number, name: string, bitrate: number, durationMs: number): Buffer {
  const ftyp = box('ftyp', Buffer.from('isom'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2mp41'));
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12); // timescale: milliseconds
  mvhd.writeUInt32BE(durationMs, 16);
  mvhd.writeUInt32BE(0x00010000, 20); // rate 1.0
  mvhd.writeUInt16BE(0x0100, 24); // volume 1.0
  for (const [i, v] of [0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000].entries())
    mvhd.writeUInt32BE(v, 36 + i * 4); // the identity matrix
  mvhd.writeUInt32BE(2, 96); // next track id
  const filler = Buffer.alloc(1024 + Math.round(bitrate / 200));
  const rng = new Rng(seed, 'mp4', name);
  for (let i = 0; i < filler.length; i++) filler[i] = rng.int(256);
  return Buffer.concat([ftyp, box('moov', box('mvhd', mvhd)), box('free', filler)]);
}
