/**
 * Drawing a coding sample and assigning it to coders with overlap. Reproducible and
 * independent of the order the project returns items in: every item is ranked by SHA-256(seed, kind, id) (the
 * rule is db/rank.ts's, in JavaScript and in each store's SQL), and a sample is the lowest-ranked items — of the
 * whole source (random), or of each stratum in proportion to its size, the remainders going to the largest
 * fractions (stratified). The same seed over the same items draws the same sample on any machine and either
 * store; one more item in the source changes it by at most that item.
 *
 * The source ranks and keeps the lowest itself (a project does it in SQL, so only the drawn items cross from its
 * worker); a source read in chunks (`readingSource`) is ranked here, holding the sample, never the population.
 */
import { sampleRank } from '../db';
import type { CodedKind } from '../../shared/coding/codebook';
import type { Assignment, SampleItem } from '../../shared/coding/records';

/** An item of the source: its id, and its group's value, the stratum (null when unstratified or unknown). */
export interface SourceItem {
  id: string;
  group: string | null;
}

/** The source's items, in chunks, as often as asked. */
export type SourceReader = () => AsyncIterable<readonly SourceItem[]>;

/** An item a source picked, with its rank (null: the source could not rank it, and leaves that to the draw). */
interface RankedItem extends SourceItem {
  rank: string | null;
}

/** What a draw asks of its source. */
export interface SampleSource {
  /** how many items each stratum holds ('' for the whole source when unstratified) */
  counts: () => Promise<ReadonlyMap<string, number>>;
  /**
   * the lowest-ranked items (by `prefix`) of each stratum, as many as its quota ('' for the whole source when
   * unstratified; strata missing or at 0 give none), and any it could not rank. It may leave out items ranked
   * above a stratum's bound (null: none), and then gives fewer than the quota where fewer are within it.
   */
  lowest: (prefix: string, quotas: ReadonlyArray<Quota>) => Promise<readonly RankedItem[]>;
}

/** A stratum's share of a draw: its value, how many to draw, and the rank they are expected under (null: any). */
type Quota = readonly [value: string, quota: number, bound: string | null];

/**
 * The rank a stratum's `quota` lowest of `n` are all but sure to be under: ranks are uniform, so the count under
 * a share f of them is about n·f; the share asked for is the quota and six standard deviations more (a draw that
 * finds fewer under it asks again without it). Null where that is the whole stratum.
 */
export function boundFor(quota: number, n: number): string | null {
  const share = (quota + 6 * Math.sqrt(quota) + 10) / n;
  if (quota >= n || share >= 1) return null;
  return `${Math.floor(share * 2 ** 32)
    .toString(16)
    .padStart(8, '0')}ffffffff`;
}

/** What every rank of a draw starts with: its seed and kind. */
const prefixOf = (seed: string, kind: CodedKind): string => `${seed}\u0000${kind}\u0000`;

/** A 64-bit rank as a 16-hex-digit string: compared as text, it orders as the number does. */
const rank = (seed: string, kind: CodedKind, id: string): string => sampleRank(prefixOf(seed, kind), id);

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

/** Each stratum's lowest `quota` of the items `offers` offers with their ranks, by the stratum's key. */
function keepLowest(
  quotas: ReadonlyMap<string, number>,
  stratified: boolean,
  offers: (offer: (r: string, item: SourceItem) => void) => Promise<void>,
): Promise<Map<string, Lowest>> {
  const keep = new Map<string, Lowest>();
  for (const [value, quota] of quotas) keep.set(value, new Lowest(quota));
  return offers((r, item) => keep.get(stratified ? (item.group ?? '') : '')?.offer(r, item)).then(() => keep);
}

/**
 * A source read in chunks, as often as asked (an export's items, a test's): counted by reading it once, then
 * every item ranked here as it is read again, only each stratum's lowest kept.
 */
export function readingSource(read: SourceReader, stratified: boolean): SampleSource {
  return {
    async counts() {
      const counts = new Map<string, number>();
      for await (const chunk of read())
        for (const item of chunk) {
          const key = stratified ? (item.group ?? '') : '';
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
      return counts;
    },
    async lowest(prefix, quotas) {
      // every item is ranked here anyway: the bounds save nothing
      const keep = await keepLowest(new Map(quotas.map(([v, n]) => [v, n])), stratified, async (offer) => {
        for await (const chunk of read()) for (const item of chunk) offer(sampleRank(prefix, item.id), item);
      });
      return [...keep.values()].flatMap((l) => l.items.map(({ rank, item }) => ({ ...item, rank })));
    },
  };
}

export interface Drawn {
  /** in rank order: position 0 is the first drawn */
  items: SampleItem[];
  population: number;
  strata: Array<{ value: string; population: number; drawn: number }>;
}

/** Draws `size` items of `kind` from the source, at random or stratified (by the stratum values the source gives). */
export async function drawSample(
  source: SampleSource,
  options: { kind: CodedKind; size: number; seed: string; stratified: boolean },
): Promise<Drawn> {
  const counts = await source.counts();
  const population = [...counts.values()].reduce((n, c) => n + c, 0);
  const quotas = allocate(counts, options.size);
  const prefix = prefixOf(options.seed, options.kind);
  const asked = [...quotas]
    .filter(([, quota]) => quota > 0)
    .map(([value, quota]): Quota => [value, quota, boundFor(quota, counts.get(value) ?? 0)]);
  const key = (item: SourceItem) => (options.stratified ? (item.group ?? '') : '');
  let found = await source.lowest(prefix, asked);
  // a stratum with fewer within its bound than its quota (all but never) is asked again, without it
  const within = new Map<string, number>();
  for (const f of found) if (f.rank !== null) within.set(key(f), (within.get(key(f)) ?? 0) + 1);
  const short = asked.filter(([value, quota, bound]) => bound !== null && (within.get(value) ?? 0) < quota);
  if (short.length > 0) {
    const again = new Set(short.map(([value]) => value));
    found = [
      ...found.filter((f) => !again.has(key(f))),
      ...(await source.lowest(
        prefix,
        short.map(([value, quota]) => [value, quota, null]),
      )),
    ];
  }
  // the source's picks, kept again to each quota: what it could not rank is ranked here, and may displace a pick
  const keep = await keepLowest(quotas, options.stratified, async (offer) => {
    for (const f of found) offer(f.rank ?? sampleRank(prefix, f.id), { id: f.id, group: f.group });
  });
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
