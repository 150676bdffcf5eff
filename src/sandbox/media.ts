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
