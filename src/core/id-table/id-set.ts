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
 * Slots of the tables being outgrown moved with each id added. Moving them all at once held the thread for as
 * long as it took (a collection of a million posts: 80 ms of main's event loop, 700,000 ids moved in one go; twice
 * that at two million). At least 1.5 a new id keeps the move ahead of the next growth; at 8, tables of 2^20
 * slots are moved by the next 131,072 ids.
 */
const MOVE_PER_ADD = 8;

/**
 * The table under both: slots of two words (the id), and for a map a third beside them in an array of its own
 * (its value). A set and a map differ only in that array.
 */
abstract class IdTable {
  /**
   * Each slot's two words side by side (the high one, then the low one `LO` after it: one cache line for both):
   * the id's leading digits + 1 in the high word's 32 bits and the low word's top two, its last nine digits below
   * them (0, 0: an empty slot). Eight bytes a slot, where a number and a word were twelve: a million ids, their
   * tables moved into bigger ones, held 38 MB at the move's height; now 25.
   */
  private table: Uint32Array;
  /** a map's value of each slot (null: a set) */
  private values: Uint32Array | null;
  private used = 0;
  /** the table being outgrown, while its ids are moved into the new one a few at a time (null: none) */
  private old: { table: Uint32Array; values: Uint32Array | null; moved: number } | null = null;

  constructor(
    private readonly firstSlots: number,
    withValues: boolean,
  ) {
    this.table = new Uint32Array(firstSlots * 2);
    this.values = withValues ? new Uint32Array(firstSlots) : null;
  }

  /** ids held in the table (not those held as text) */
  protected get compact(): number {
    return this.used;
  }

  /**
   * Puts the id `read` last took in, with `value`, and answers -1; when it is there already, answers its value
   * instead (a set's: 0). One in the table being outgrown and not moved yet stays there until its turn.
   */
  protected place(value: number): number {
    const hi = readHi;
    const lo = readLo;
    if (this.old) this.move(MOVE_PER_ADD);
    const old = this.old;
    if (old) {
      const there = probe(old.table, hi, lo);
      if (there >= 0) return old.values ? old.values[there >> 1]! : 0;
    }
    const at = probe(this.table, hi, lo);
    if (at >= 0) return this.values ? this.values[at >> 1]! : 0;
    this.put(-1 - at, hi, lo, value);
    if (++this.used * 3 > this.table.length) this.grow();
    return -1;
  }

  /** the value of the id `read` last took (a set's: 0), or -1 when it is not there */
  protected lookup(): number {
    const at = probe(this.table, readHi, readLo);
    if (at >= 0) return this.values ? this.values[at >> 1]! : 0;
    const old = this.old;
    if (!old) return -1;
    const there = probe(old.table, readHi, readLo);
    if (there < 0) return -1;
    return old.values ? old.values[there >> 1]! : 0;
  }

  /**
   * Lets the tables go now: as garbage they would stay resident until V8's next full collection. The table is
   * empty after, and takes ids again from a new one's small tables.
   */
  release(): void {
    this.dropOld();
    detach(this.table.buffer);
    if (this.values) detach(this.values.buffer);
    this.table = new Uint32Array(this.firstSlots * 2);
    this.values = this.values ? new Uint32Array(this.firstSlots) : null;
    this.used = 0;
  }

  private put(at: number, hi: number, lo: number, value: number): void {
    this.table[at] = hi;
    this.table[at + LO] = lo;
    if (this.values) this.values[at >> 1] = value;
  }

  private insert(hi: number, lo: number, value: number): boolean {
    const at = probe(this.table, hi, lo);
    if (at >= 0) return false;
    this.put(-1 - at, hi, lo, value);
    return true;
  }

  /**
   * A new table twice the size; the ids of the old one are moved a few with each id added (`move`). The old
   * table is left as it is until all have moved: an id not moved yet is found there, one moved is found in the
   * new one first.
   */
  private grow(): void {
    if (this.old) this.move(Infinity);
    this.old = { table: this.table, values: this.values, moved: 0 };
    this.table = new Uint32Array(this.old.table.length * 2);
    this.values = this.values ? new Uint32Array(this.values.length * 2) : null;
  }

  private move(slots: number): void {
    const old = this.old!;
    const from = old.table;
    const end = Math.min(from.length, old.moved + slots * 2);
    for (let i = old.moved; i < end; i += 2) {
      const hi = from[i]!;
      const lo = from[i + LO]!;
      if (hi !== 0 || lo !== 0) this.insert(hi, lo, old.values ? old.values[i >> 1]! : 0);
    }
    old.moved = end;
    if (end === from.length) this.dropOld();
  }

  /** the old table goes as soon as it is moved, not at the next full collection */
  private dropOld(): void {
    if (!this.old) return;
    detach(this.old.table.buffer);
    if (this.old.values) detach(this.old.values.buffer);
    this.old = null;
  }
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
 * Ids, each with a number below 2^32 (a page's, say): four bytes more a slot. It starts small (64 slots, 768
 * bytes), since an app may hold hundreds: a view of a few pages costs next to nothing, one of a million ids 38 MB
 * at its height where a `Map` of them held 80 MB of V8's heap.
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

/** the index of the slot holding the id, or, when none does, -1 - the empty slot's where it would go */
function probe(table: Uint32Array, hi: number, lo: number): number {
  const mask = table.length - 2;
  let at = (slot(hi, lo) << 1) & mask;
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

/** a slot from the two words */
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
