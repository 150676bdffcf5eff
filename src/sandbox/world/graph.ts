/**
 * The world's post graph, generated eagerly as typed arrays (fast: no text
 * yet). Text, entities and counters are drawn lazily per post in `posts.ts`.
 *
 * Index order is chronological (index 0 is the oldest post), so "newest
 * first" is a reverse walk, and a reply or quote always has a higher index
 * than the post it answers.
 */
import { Rng } from '../random';
import type { WorldSize } from './size';
import { LANGS } from './text';
import { YEAR_MS, snowflake } from './time';

/** items grouped by key: items of key k are `items[start[k] .. start[k+1])`, ascending */
export interface Csr {
  start: Int32Array;
  items: Int32Array;
}

export interface PostGraph {
  count: number;
  ids: string[];
  /** ms before the anchor */
  age: Float64Array;
  author: Int32Array;
  /** replied-to post, or -1 */
  parent: Int32Array;
  /** quoted post, or -1 */
  quoted: Int32Array;
  /** conversation root */
  root: Int32Array;
  depth: Uint16Array;
  /** a user mentioned in the text besides the reply prefix, or -1 */
  mention: Int32Array;
  /** number of images (0-2) */
  media: Uint8Array;
  /** index into LANGS */
  lang: Uint8Array;
  likes: Int32Array;
  replies: Csr;
  quotes: Csr;
  byAuthor: Csr;
  mentions: Csr;
  bigThreadRoot: number;
  /** the wide conversation's post: most of its replies answer it directly */
  wideThreadRoot: number;
  muchQuoted: number;
}

const MINUTE = 60_000;

interface Draft {
  age: number[];
  author: number[];
  parent: number[];
  quoted: number[];
  /** drawn from the wide conversation's own stream (so adding it changed nothing else of the world) */
  wide: boolean[];
}

export function buildGraph(seed: number, size: WorldSize, followers: Int32Array): PostGraph {
  const rng = new Rng(seed, 'graph');
  const users = size.users;
  const author = (): number => Math.floor(users * rng.next() ** 2);
  const d: Draft = { age: [], author: [], parent: [], quoted: [], wide: [] };
  const push = (age: number, a: number, parent: number, quoted: number, wide = false): number => {
    d.age.push(age);
    d.author.push(a);
    d.parent.push(parent);
    d.quoted.push(quoted);
    d.wide.push(wide);
    return d.age.length - 1;
  };

  // 1. ordinary posts over the last year, oldest first
  const n = size.posts;
  for (let i = 0; i < n; i++) {
    const age = YEAR_MS * (1 - (i + rng.next() * 0.9) / n) + MINUTE;
    const r = rng.next();
    let parent = -1;
    let quoted = -1;
    if (i > 20 && r < 0.28) parent = i - 1 - Math.floor(rng.next() ** 3 * Math.min(i - 1, 4000));
    else if (i > 20 && r < 0.38) quoted = Math.min(i - 1, Math.floor(i * (1 - rng.next() ** 2)));
    push(age, author(), parent, quoted);
  }
  const original = (from: number): number => {
    let i = from;
    while (i > 0 && (d.parent[i] !== -1 || d.quoted[i] !== -1)) i--;
    return i;
  };

  // 2. the big conversation: a root with `bigThreadReplies` replies, deep and branching
  const bigRoot = original(Math.floor(n * 0.985));
  d.author[bigRoot] = 1 % users;
  const bigAge = d.age[bigRoot] as number;
  const big: number[] = [];
  const replies = size.bigThreadReplies;
  for (let k = 0; k < replies; k++) {
    const age = bigAge - ((k + 1 + rng.next() * 0.9) / (replies + 1)) * (bigAge - MINUTE);
    const r = rng.next();
    const parent = k === 0 || r < 0.15 ? bigRoot : (big[k - 1 - Math.floor(rng.next() ** 3 * k)] as number);
    big.push(push(age, r > 0.95 ? d.author[bigRoot] : author(), parent, -1));
  }

  // 3. the much-quoted post: `quotes` direct quotes, plus quotes of those quotes
  const quotedPost = original(Math.floor(n * 0.97));
  const qAge = d.age[quotedPost] as number;
  // every 20th is a quote of an earlier quote
  const isQuoteOfQuote = (k: number): boolean => k >= 10 && k % 20 === 19;
  let total = 0;
  for (let direct = 0; direct < size.quotes; total++) if (!isQuoteOfQuote(total)) direct++;
  const quoters: number[] = [];
  for (let k = 0; k < total; k++) {
    const age = qAge - ((k + 1 + rng.next() * 0.9) / (total + 1)) * (qAge - MINUTE);
    const target = isQuoteOfQuote(k) ? (quoters[rng.int(quoters.length)] as number) : quotedPost;
    const q = push(age, author(), -1, target);
    if (target === quotedPost) quoters.push(q);
  }

  // 3b. the wide conversation, from a stream of its own: most replies answer the post, the rest one of the
  // twenty replies before them (a shape unlike the big conversation's deep chains)
  const wideRng = new Rng(seed, 'wide');
  let wideRoot = original(Math.floor(n * 0.96));
  while (wideRoot === bigRoot || wideRoot === quotedPost) wideRoot = original(wideRoot - 1);
  const wAge = d.age[wideRoot] as number;
  const wide: number[] = [];
  for (let k = 0; k < size.wideThreadReplies; k++) {
    const age = wAge - ((k + 1 + wideRng.next() * 0.9) / (size.wideThreadReplies + 1)) * (wAge - MINUTE);
    const parent = k === 0 || wideRng.next() < 0.8 ? wideRoot : (wide[k - 1 - wideRng.int(Math.min(k, 20))] as number);
    // anyone but the showcase profile (user 0), whose timeline and mentions stay as they were
    wide.push(push(age, 1 + Math.floor((users - 1) * wideRng.next()), parent, -1, true));
  }

  // 4. chronological order
  const count = d.age.length;
  const order = Array.from({ length: count }, (_, i) => i).sort(
    (a, b) => (d.age[b] as number) - (d.age[a] as number) || a - b,
  );
  const newIndex = new Int32Array(count);
  order.forEach((old, i) => (newIndex[old] = i));
  const remap = (v: number): number => (v < 0 ? -1 : (newIndex[v] as number));

  const g: PostGraph = {
    count,
    ids: new Array<string>(count),
    age: new Float64Array(count),
    author: new Int32Array(count),
    parent: new Int32Array(count),
    quoted: new Int32Array(count),
    root: new Int32Array(count),
    depth: new Uint16Array(count),
    mention: new Int32Array(count),
    media: new Uint8Array(count),
    lang: new Uint8Array(count),
    likes: new Int32Array(count),
    replies: EMPTY,
    quotes: EMPTY,
    byAuthor: EMPTY,
    mentions: EMPTY,
    bigThreadRoot: remap(bigRoot),
    wideThreadRoot: remap(wideRoot),
    muchQuoted: remap(quotedPost),
  };
  for (let i = 0; i < count; i++) {
    const old = order[i] as number;
    const a = d.author[old] as number;
    const parent = remap(d.parent[old] as number);
    g.age[i] = d.age[old] as number;
    g.ids[i] = snowflake(g.age[i] as number, i);
    g.author[i] = a;
    g.parent[i] = parent;
    g.quoted[i] = remap(d.quoted[old] as number);
    g.root[i] = parent < 0 ? i : (g.root[parent] as number);
    g.depth[i] = parent < 0 ? 0 : (g.depth[parent] as number) + 1;
    // the wide conversation draws from its own stream: every other post keeps the draws it had before it
    const from = d.wide[old] ? wideRng : rng;
    const r = from.next();
    g.mention[i] = r < 0.1 ? (a + 1 + Math.floor(users * from.next() ** 2)) % users : -1;
    g.media[i] = from.chance(parent < 0 ? 0.14 : 0.03) ? 1 + (from.chance(0.25) ? 1 : 0) : 0;
    g.lang[i] = from.chance(0.85) ? 0 : 1 + from.int(LANGS.length - 1);
    g.likes[i] = from.heavy(2 + (followers[a] as number) / 1500, 1.3);
  }
  g.media[g.muchQuoted] = 1;
  g.lang[g.muchQuoted] = 0;
  g.lang[g.bigThreadRoot] = 0;
  g.lang[g.wideThreadRoot] = 0;

  g.replies = groupBy(count, count, (i) => [g.parent[i] as number]);
  g.quotes = groupBy(count, count, (i) => [g.quoted[i] as number]);
  g.byAuthor = groupBy(users, count, (i) => [g.author[i] as number]);
  // mentioned: the user named in the text, and the author of the post replied to (once each)
  g.mentions = groupBy(users, count, (i) => {
    const named = g.mention[i] as number;
    const p = g.parent[i] as number;
    const repliedTo = p < 0 || g.author[p] === g.author[i] ? -1 : (g.author[p] as number);
    return repliedTo === named ? [named] : [named, repliedTo];
  });
  return g;
}

const EMPTY: Csr = { start: new Int32Array(1), items: new Int32Array(0) };

/** Group items 0..n-1 under their keys (-1 = none); ascending within a key. */
function groupBy(keys: number, n: number, keysOf: (i: number) => readonly number[]): Csr {
  const start = new Int32Array(keys + 1);
  for (let i = 0; i < n; i++) for (const k of keysOf(i)) if (k >= 0) start[k + 1]!++;
  for (let k = 0; k < keys; k++) start[k + 1]! += start[k]!;
  const fill = start.slice(0, keys);
  const items = new Int32Array(start[keys]!);
  for (let i = 0; i < n; i++) for (const k of keysOf(i)) if (k >= 0) items[fill[k]!++] = i;
  return { start, items };
}

export function group(csr: Csr, key: number): Int32Array {
  return csr.items.subarray(csr.start[key], csr.start[key + 1]);
}
