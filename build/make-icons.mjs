// Draws Skein's icon (a ball of yarn on a rounded square) into PNGs, with no
// dependency but node:zlib. Run `node build/make-icons.mjs` after changing it;
// the PNGs are committed so packaging never needs this script.
import { Buffer } from 'node:buffer';
import console from 'node:console';
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
function png(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // no filter
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const clamp = (v) => Math.max(0, Math.min(1, v));
// coverage of a signed distance (negative inside), anti-aliased over one pixel
const cover = (d, px) => clamp(0.5 - d / px);

function draw(size) {
  const out = Buffer.alloc(size * size * 4);
  const px = 2 / size; // one pixel in [-1, 1] units
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const u = ((x + 0.5) / size) * 2 - 1;
      const v = ((y + 0.5) / size) * 2 - 1;
      // rounded square background
      const q = [Math.abs(u) - 0.78, Math.abs(v) - 0.78];
      const bg = Math.hypot(Math.max(q[0], 0), Math.max(q[1], 0)) + Math.min(Math.max(q[0], q[1]), 0) - 0.14;
      let a = cover(bg, px);
      let [r, g, b] = [0x16, 0x1a, 0x24];
      // the ball
      const rr = Math.hypot(u, v);
      const ball = cover(rr - 0.56, px);
      // strands: three families of arcs across the ball
      let strand = 0;
      for (const [cx, cy, k] of [
        [-0.9, -0.9, 0.16],
        [0.95, -0.55, 0.14],
        [0.1, 1.05, 0.15],
      ]) {
        const dist = Math.hypot(u - cx, v - cy);
        const phase = (dist / k) % 1;
        strand = Math.max(strand, clamp(1 - Math.abs(phase - 0.5) * 4.2));
      }
      const shade = 0.75 + 0.25 * clamp(1 - Math.hypot(u + 0.2, v + 0.25) / 0.8);
      const yarn = [0xf2 * shade, 0x8a * shade, 0x5b * shade];
      const light = [0xff, 0xc8, 0xa8];
      const mix = (c0, c1, t) => c0 + (c1 - c0) * t;
      const col = yarn.map((c, i) => mix(c, light[i], strand * 0.55));
      [r, g, b] = [mix(r, col[0], ball), mix(g, col[1], ball), mix(b, col[2], ball)];
      // loose thread leaving the ball
      const tx = u - 0.35;
      const ty = v - (0.62 + 0.12 * Math.sin(tx * 7));
      const thread = tx > 0 && tx < 0.45 ? cover(Math.abs(ty) - 0.035, px) : 0;
      [r, g, b] = [mix(r, 0xf2, thread), mix(g, 0x8a, thread), mix(b, 0x5b, thread)];
      a = Math.max(a, thread);
      const i = (y * size + x) * 4;
      out[i] = Math.round(r);
      out[i + 1] = Math.round(g);
      out[i + 2] = Math.round(b);
      out[i + 3] = Math.round(a * 255);
    }
  }
  return png(size, out);
}

mkdirSync(join(here, 'icons'), { recursive: true });
writeFileSync(join(here, 'icon.png'), draw(1024));
for (const size of [512, 256]) writeFileSync(join(here, 'icons', `${size}x${size}.png`), draw(size));
console.log('wrote build/icon.png (1024), build/icons/512x512.png, build/icons/256x256.png');
