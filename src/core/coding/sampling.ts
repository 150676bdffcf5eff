/**
 * Drawing a coding sample and assigning it to coders with overlap. Reproducible and
 * independent of the order the project returns items in: every item is ranked by SHA-256(seed, kind, id), and a
 * sample is the lowest-ranked items — of the whole source (random), or of each stratum in proportion to its
 * size, the remainders going to the largest fractions (stratified). The same seed over the same items draws
 * the same sample on any machine; one more item in the source changes it by at most that item.
 *
 * The source is read in chunks, so memory holds the sample, never the population: once for the draw, after the
 * counts per stratum (which the store counts itself where it can, else a first read).
 */
import { hash } from 'node:crypto';
import type { CodedKind } from '../../shared/coding/codebook';
import type { Assignment, SampleItem } from '../../shared/coding/records';

/** An item of the source: its id, and its group's value, the stratum (null when unstratified or unknown). */
export interface SourceItem {
  id: string;
  group: string | null;
}

/** The source's items, in chunks, as often as asked (the archive's worker reads them). */
export type SourceReader = () => AsyncIterable<readonly SourceItem[]>;

/** A 64-bit rank as a 16-hex-digit string: compared as text, it orders as the number does. */
function rank(seed: string, kind: CodedKind, id: string): string {
  // the one-shot digest: a hash object per item cost a third of a 100k draw
  return hash('sha256', `${seed}\u0000${kind}\u0000${id}`, 'hex').slice(0, 16);
}

/**
 * How many to draw from each stratum: in proportion to its size (Hamilton's largest remainder; ties to the
 * larger stratum, then the earlier value), never more than it holds.
 */
export function allocate(strata: ReadonlyMap<string, number>, size: number): Map<string, number> {
  const total = [...strata.values()].reduce((s, n) => s + n, 0);
  const want = Math.min(size, total);
  const out = new Map<string, number>();
  if (total === 0) return out;
  const parts = [...strata.entries()].map(([value, n]) => {
    const exact = (n * want) / total;
    return { value, n, floor: Math.floor(exact), remainder: exact - Math.floor(exact) };
  });
  let given = 0;
  for (const p of parts) {
    out.set(p.value, p.floor);
    given += p.floor;
  }
  const order = [...parts].sort(
    (a, b) => b.remainder - a.remainder || b.n - a.n || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0),
  );
  for (let i = 0; given < want && i < order.length; i++) {
    const p = order[i]!;
    if (out.get(p.value)! < p.n) {
      out.set(p.value, out.get(p.value)! + 1);
      given++;
    }
  }
  return out;
}

/** Keeps the `limit` lowest ranks seen (a sorted array: samples are small next to their sources). */
class Lowest {
  readonly items: Array<{ rank: string; item: SourceItem }> = [];
  constructor(private readonly limit: number) {}
  offer(r: string, item: SourceItem): void {
    if (this.limit === 0) return;
    const list = this.items;
    if (list.length === this.limit && r >= list[list.length - 1]!.rank) return;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.rank < r) lo = mid + 1;
      else hi = mid;
    }
    list.splice(lo, 0, { rank: r, item });
    if (list.length > this.limit) list.pop();
  }
}

export interface Drawn {
  /** in rank order: position 0 is the first drawn */
  items: SampleItem[];
  population: number;
  strata: Array<{ value: string; population: number; drawn: number }>;
}

/** How many items each stratum of the source holds ('' for the whole source when unstratified). */
export type StratumCounts = () => Promise<ReadonlyMap<string, number>>;

/** The counts by reading the source once. */
const countedByReading =
  (read: SourceReader, stratified: boolean): StratumCounts =>
  async () => {
    const counts = new Map<string, number>();
    for await (const chunk of read())
      for (const item of chunk) {
        const key = stratified ? (item.group ?? '') : '';
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    return counts;
  };

/**
 * Draws `size` items of `kind` from the source, at random or stratified (by the stratum values the source gives);
 * `counted` gives the source's counts per stratum without reading it (the store's own count), when it can.
 */
export async function drawSample(
  read: SourceReader,
  options: { kind: CodedKind; size: number; seed: string; stratified: boolean },
  counted: StratumCounts = countedByReading(read, options.stratified),
): Promise<Drawn> {
  const counts = await counted();
  const population = [...counts.values()].reduce((n, c) => n + c, 0);
  const quotas = allocate(counts, options.size);
  const keep = new Map<string, Lowest>();
  for (const [value, quota] of quotas) keep.set(value, new Lowest(quota));
  for await (const chunk of read()) {
    for (const item of chunk) {
      const key = options.stratified ? (item.group ?? '') : '';
      keep.get(key)?.offer(rank(options.seed, options.kind, item.id), item);
    }
  }
  const picked = [...keep.values()].flatMap((l) => l.items).sort((a, b) => (a.rank < b.rank ? -1 : 1));
  return {
    items: picked.map((p, position) => ({
      position,
      kind: options.kind,
      id: p.item.id,
      stratum: options.stratified ? p.item.group : null,
    })),
    population,
    strata: options.stratified
      ? [...counts.entries()]
          .map(([value, n]) => ({ value, population: n, drawn: quotas.get(value) ?? 0 }))
          .sort((a, b) => b.population - a.population || (a.value < b.value ? -1 : 1))
      : [],
  };
}

/**
 * Assigns a sample to coders: the first `overlap` share of the draw (rounded, at least one item when the share
 * is above zero and there are two coders or more) is coded by every coder; the rest is dealt out in turn, so
 * each coder gets as many as the others, give or take one. Each coder's queue is then shuffled by the seed, so
 * nobody can tell which items are double-coded from where they sit.
 */
export function assign(
  items: readonly SampleItem[],
  coders: readonly number[],
  overlap: number,
  seed: string,
): Assignment[] {
  if (coders.length === 0) return [];
  const shared =
    coders.length < 2 || overlap <= 0 ? 0 : Math.min(items.length, Math.max(1, Math.round(items.length * overlap)));
  const queues = new Map<number, Array<{ item: SampleItem; overlap: boolean }>>(coders.map((c) => [c, []]));
  items.forEach((item, i) => {
    if (i < shared) for (const c of coders) queues.get(c)!.push({ item, overlap: true });
    else queues.get(coders[(i - shared) % coders.length]!)!.push({ item, overlap: false });
  });
  const out: Assignment[] = [];
  for (const [coder, queue] of queues) {
    const order = queue
      .map((q) => ({ q, r: rank(`${seed}\u0000queue\u0000${coder}`, q.item.kind, q.item.id) }))
      .sort((a, b) => (a.r < b.r ? -1 : 1));
    order.forEach(({ q }, position) =>
      out.push({ coder, position, kind: q.item.kind, id: q.item.id, overlap: q.overlap }),
    );
  }
  return out;
}
