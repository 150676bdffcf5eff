/**
 * Small, fast, seedable randomness. Every generated thing draws from a stream
 * keyed by (world seed, what, which), so an entity comes out the same whether
 * it is built first, last or lazily on its first request.
 */

/** 32-bit hash of numbers and strings (murmur3-style mixing). */
export function hash32(...parts: readonly (number | string)[]): number {
  let h = 0x9e3779b9 ^ parts.length;
  for (const part of parts) {
    if (typeof part === 'number') {
      h = mix(h, part | 0);
      h = mix(h, Math.floor(part / 4294967296) | 0);
    } else {
      for (let i = 0; i < part.length; i++) h = mix(h, part.charCodeAt(i));
      h = mix(h, part.length);
    }
  }
  return fmix(h) >>> 0;
}

function mix(h: number, k: number): number {
  k = Math.imul(k, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** A uniform number in [0, 1) from a hash of the parts (no state). */
export function unit(...parts: readonly (number | string)[]): number {
  return hash32(...parts) / 4294967296;
}

/** sfc32: a tiny PRNG with a 128-bit state; seeding is one hash. */
export class Rng {
  private a = 0;
  private b = 0;
  private c = 0;
  private d = 0;

  constructor(...key: readonly (number | string)[]) {
    this.reseed(hash32(...key));
  }

  reseed(seed: number): void {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed | 0;
    for (let i = 0; i < 12; i++) this.next();
  }

  /** uniform in [0, 1) */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** integer in [0, n) */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** integer in [lo, hi] */
  between(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** a heavy-tailed positive integer: median ~ `median`, long right tail */
  heavy(median: number, spread = 1.6): number {
    const u = Math.max(this.next(), 1e-9);
    const v = this.next();
    const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return Math.max(0, Math.round(median * Math.exp(spread * normal)));
  }

  /** `n` random characters from the alphabet */
  chars(n: number, alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'): string {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[this.int(alphabet.length)];
    return s;
  }
}
