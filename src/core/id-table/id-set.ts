/**
 * The ids an import or a collection has seen, held outside V8's heap. A million ids in a `Set<string>` (and the list beside
 * it) are ~90 MB of small heap objects alive while the file is read: the full GC that runs then sizes the
 * old generation from them, and the hydration that follows lets garbage pile up to several times that before
 * its next full GC (a million ids: ~600 MB resident instead of ~300). Here an id of up to 19 digits without a
 * leading zero is two 32-bit words in a typed array (8 bytes a slot, open addressing); anything else, rare, goes
 * to an ordinary set. `IdMap` gives each id a number as well (the API client's views: the page that brought it).
 */

/** a compact id: up to 19 digits, no leading zero (below 2^64, and one number for one id) */
const MAX_DIGITS = 19;
const LOW_DIGITS = 9;
/** a new set's slots: 32 KB, grown as ids come */
const FIRST_SLOTS = 1 << 12;
/** a new map's slots */
const MAP_FIRST_SLOTS = 1 << 6;
/**
 * The parts a table is cut into, by its ids' hashes, each grown on its own (twice the size, its ids moved at
 * once) when it fills. One table grown whole held the thread for as long as moving every id took (a collection of
 * a million posts: 80 ms of main's event loop at 700,000 ids; twice that at two million); moved a few slots with
 * each id added, it held the old table beside the new one until all had moved (a million ids: 8 MB and 16 for
 * some 130,000 ids). In 32 parts, a growth moves a 32nd of the ids and holds a 32nd of the old beside the new.
 */
const PART_BITS = 5;
const PARTS = 1 << PART_BITS;

/** one part: slots of two words (the id), and for a map a third beside them in an array of its own (its value) */
interface Part {
  /**
   * Each slot's two words side by side (the high one, then the low one `LO` after it: one cache line for both):
   * the id's leading digits + 1 in the high word's 32 bits and the low word's top two, its last nine digits below
   * them (0, 0: an empty slot). Eight bytes a slot, where a number and a word were twelve.
   */
  table: Uint32Array;
  /** a map's value of each slot (null: a set) */
  values: Uint32Array | null;
  used: number;
}

/** The table under both: a set and a map differ only in their parts' `values`. */
abstract class IdTable {
  private parts: Part[];
  private used = 0;

  constructor(
    private readonly firstSlots: number,
    private readonly withValues: boolean,
  ) {
    this.parts = this.fresh();
  }

  /** ids held in the table (not those held as text) */
  protected get compact(): number {
    return this.used;
  }

  /** Puts the id `read` last took in, with `value`, and answers -1; when it is there already, answers its value instead (a set's: 0). */
  protected place(value: number): number {
    const hash = slot(readHi, readLo);
    const part = this.parts[hash >>> (32 - PART_BITS)]!;
    const at = probe(part.table, hash, readHi, readLo);
    if (at >= 0) return part.values ? part.values[at >> 1]! : 0;
    put(part, -1 - at, readHi, readLo, value);
    this.used++;
    if (++part.used * 3 > part.table.length) grow(part);
    return -1;
  }

  /** the value of the id `read` last took (a set's: 0), or -1 when it is not there */
  protected lookup(): number {
    const hash = slot(readHi, readLo);
    const part = this.parts[hash >>> (32 - PART_BITS)]!;
    const at = probe(part.table, hash, readHi, readLo);
    if (at < 0) return -1;
    return part.values ? part.values[at >> 1]! : 0;
  }

  /**
   * Lets the tables go now: as garbage they would stay resident until V8's next full collection. The table is
   * empty after, and takes ids again from a new one's small tables.
   */
  release(): void {
    for (const part of this.parts) drop(part);
    this.parts = this.fresh();
    this.used = 0;
  }

  private fresh(): Part[] {
    const slots = Math.max(2, this.firstSlots / PARTS);
    return Array.from({ length: PARTS }, () => ({
      table: new Uint32Array(slots * 2),
      values: this.withValues ? new Uint32Array(slots) : null,
      used: 0,
    }));
  }
}

function put(part: Part, at: number, hi: number, lo: number, value: number): void {
  part.table[at] = hi;
  part.table[at + LO] = lo;
  if (part.values) part.values[at >> 1] = value;
}

/** the part's tables twice the size, its ids moved into them at once, the old ones let go */
function grow(part: Part): void {
  const from = part.table;
  const values = part.values;
  part.table = new Uint32Array(from.length * 2);
  part.values = values ? new Uint32Array(values.length * 2) : null;
  for (let i = 0; i < from.length; i += 2) {
    const hi = from[i]!;
    const lo = from[i + LO]!;
    if (hi === 0 && lo === 0) continue;
    put(part, -1 - probe(part.table, slot(hi, lo), hi, lo), hi, lo, values ? values[i >> 1]! : 0);
  }
  detach(from.buffer);
  if (values) detach(values.buffer);
}

/** a part's tables go at once, not at the next full collection */
function drop(part: Part): void {
  detach(part.table.buffer);
  if (part.values) detach(part.values.buffer);
}

/** A set of ids. */
export class IdSet extends IdTable {
  private readonly other = new Set<string>();

  constructor() {
    super(FIRST_SLOTS, false);
  }

  get size(): number {
    return this.compact + this.other.size;
  }

  /** Adds `id`; false when it was there already. */
  add(id: string): boolean {
    if (!read(id)) {
      if (this.other.has(id)) return false;
      this.other.add(id);
      return true;
    }
    return this.place(0) < 0;
  }

  has(id: string): boolean {
    if (!read(id)) return this.other.has(id);
    return this.lookup() >= 0;
  }

  override release(): void {
    super.release();
    this.other.clear();
  }
}

/**
 * Ids, each with a number below 2^32 (a page's, say): four bytes more a slot. It starts small (two slots in each
 * part, a few KB), since an app may hold hundreds: a view of a few pages costs next to nothing, one of a million ids
 * 25 MB where a `Map` of them held 80 MB of V8's heap.
 */
export class IdMap extends IdTable {
  private readonly other = new Map<string, number>();

  constructor() {
    super(MAP_FIRST_SLOTS, true);
  }

  get size(): number {
    return this.compact + this.other.size;
  }

  /** The number `id` has; when it has none, it is given `value` and the answer is undefined. */
  claim(id: string, value: number): number | undefined {
    if (!Number.isInteger(value) || value < 0 || value > 0xffffffff)
      throw new RangeError(`an id's number is a whole number below 2^32, not ${value}`);
    if (!read(id)) {
      const had = this.other.get(id);
      if (had === undefined) this.other.set(id, value);
      return had;
    }
    const had = this.place(value);
    return had < 0 ? undefined : had;
  }

  get(id: string): number | undefined {
    if (!read(id)) return this.other.get(id);
    const value = this.lookup();
    return value < 0 ? undefined : value;
  }

  override release(): void {
    super.release();
    this.other.clear();
  }
}

/** where a slot's words sit: its high word at an even index, its low word right after */
const LO = 1;
/** 2^30: the low word's part below the two bits the leading digits lend it */
const LOW_SPAN = 1 << 30;

/** the index of the slot holding the id (whose `slot` is `hash`), or, when none does, -1 - the empty slot's where it would go */
function probe(table: Uint32Array, hash: number, hi: number, lo: number): number {
  const mask = table.length - 2;
  let at = (hash << 1) & mask;
  for (;;) {
    const h = table[at]!;
    const l = table[at + LO]!;
    if (h === hi && l === lo) return at;
    if (h === 0 && l === 0) return -1 - at;
    at = (at + 2) & mask;
  }
}

/** the words of the id `read` last took: kept here, not in an array made for each id */
let readHi = 0;
let readLo = 0;

/**
 * Whether `id` is compact (up to 19 digits, no leading zero); if so, its words as the table keeps them are left in
 * `readHi` and `readLo` (its leading digits + 1, below 10^10 + 1 < 2^34, over its last nine, below 2^30; never both
 * 0, the empty slot). One pass over its characters, where a pattern's test and then the digits' cost two (and an
 * array for the pair): a collection of a million posts asks for each id once.
 */
function read(id: string): boolean {
  const length = id.length;
  if (length === 0 || length > MAX_DIGITS) return false;
  const first = id.charCodeAt(0);
  if (first < 49 || first > 57) return false;
  const cut = length > LOW_DIGITS ? length - LOW_DIGITS : 0;
  let high = 0;
  for (let i = 0; i < cut; i++) {
    const digit = id.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return false;
    high = high * 10 + digit;
  }
  let low = 0;
  for (let i = cut; i < length; i++) {
    const digit = id.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return false;
    low = low * 10 + digit;
  }
  const lead = high + 1;
  readHi = Math.floor(lead / 4);
  // arithmetic, not `|`: the word is unsigned, as the table hands it back
  readLo = (lead % 4) * LOW_SPAN + low;
  return true;
}

/** the two words' hash: its top bits choose the part, its low ones the slot in it */
function slot(hi: number, lo: number): number {
  let h = Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi, 0x85ebca6b);
  h ^= h >>> 15;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 13);
}

/** Frees an array buffer's memory at once (`ArrayBuffer.prototype.transfer`, ES2024: Node 22 and later). */
function detach(buffer: ArrayBufferLike): void {
  (buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer }).transfer?.(0);
}
