/**
 * The ids an import or a collection has seen, held outside V8's heap. A million ids in a `Set<string>` (and the list beside
 * it) are ~90 MB of small heap objects alive while the file is read: the full GC that runs then sizes the
 * old generation from them, and the hydration that follows lets garbage pile up to several times that before
 * its next full GC (a million ids: ~600 MB resident instead of ~300). Here an id of up to 19 digits without a
 * leading zero is two numbers in typed arrays (12 bytes a slot, open addressing); anything else, rare, goes
 * to an ordinary set.
 */

/** a compact id: up to 19 digits, no leading zero (below 2^64, and one number for one id) */
const MAX_DIGITS = 19;
const LOW_DIGITS = 9;
/** a new set's slots: 48 KB, grown as ids come */
const FIRST_SLOTS = 1 << 12;
/**
 * Slots of the tables being outgrown moved with each id added. Moving them all at once held the thread for as
 * long as it took (a collection of a million posts: 80 ms of main's event loop, 700,000 ids moved in one go; twice
 * that at two million). At least 1.5 a new id keeps the move ahead of the next growth; at 8, tables of 2^20
 * slots are moved by the next 131,072 ids.
 */
const MOVE_PER_ADD = 8;

export class IdSet {
  /** the id's leading digits + 1 (0: an empty slot) */
  private high = new Float64Array(FIRST_SLOTS);
  /** its last nine digits */
  private low = new Uint32Array(FIRST_SLOTS);
  private used = 0;
  /** the tables being outgrown, while their ids are moved into the new ones a few at a time (null: none) */
  private old: { high: Float64Array; low: Uint32Array; moved: number } | null = null;
  private readonly other = new Set<string>();

  get size(): number {
    return this.used + this.other.size;
  }

  /** Adds `id`; false when it was there already. */
  add(id: string): boolean {
    if (!read(id)) {
      if (this.other.has(id)) return false;
      this.other.add(id);
      return true;
    }
    const high = readHigh;
    const low = readLow;
    if (this.old) this.move(MOVE_PER_ADD);
    // one still in the tables being outgrown is held as much as one in the new ones
    if (this.old && probe(this.old.high, this.old.low, high, low) >= 0) return false;
    if (!this.insert(high, low)) return false;
    if (++this.used * 3 > this.high.length * 2) this.grow();
    return true;
  }

  has(id: string): boolean {
    if (!read(id)) return this.other.has(id);
    return (
      probe(this.high, this.low, readHigh, readLow) >= 0 ||
      (this.old !== null && probe(this.old.high, this.old.low, readHigh, readLow) >= 0)
    );
  }

  /**
   * Lets the tables go now: as garbage they would stay resident until V8's next full collection, through the
   * hydration that follows a reading. The set is empty after, and takes ids again from a new set's small tables.
   */
  release(): void {
    this.dropOld();
    detach(this.high.buffer);
    detach(this.low.buffer);
    this.high = new Float64Array(FIRST_SLOTS);
    this.low = new Uint32Array(FIRST_SLOTS);
    this.used = 0;
    this.other.clear();
  }

  private insert(high: number, low: number): boolean {
    const at = probe(this.high, this.low, high, low);
    if (at >= 0) return false;
    this.high[-1 - at] = high;
    this.low[-1 - at] = low;
    return true;
  }

  /**
   * New tables twice the size; the ids of the old ones are moved a few with each id added (`move`). The old
   * tables are left as they are until all have moved: an id not moved yet is found there, one moved is found in
   * the new ones first.
   */
  private grow(): void {
    if (this.old) this.move(Infinity);
    this.old = { high: this.high, low: this.low, moved: 0 };
    this.high = new Float64Array(this.old.high.length * 2);
    this.low = new Uint32Array(this.old.low.length * 2);
  }

  private move(slots: number): void {
    const old = this.old!;
    const end = Math.min(old.high.length, old.moved + slots);
    for (let i = old.moved; i < end; i++) if (old.high[i] !== 0) this.insert(old.high[i]!, old.low[i]!);
    old.moved = end;
    if (end === old.high.length) this.dropOld();
  }

  /** the old tables go as soon as they are moved, not at the next full collection */
  private dropOld(): void {
    if (!this.old) return;
    detach(this.old.high.buffer);
    detach(this.old.low.buffer);
    this.old = null;
  }
}

/** the slot of the tables holding the id, or, when none does, -1 - the empty slot where it would go */
function probe(highs: Float64Array, lows: Uint32Array, high: number, low: number): number {
  const mask = highs.length - 1;
  let at = slot(high, low) & mask;
  for (;;) {
    const h = highs[at];
    if (h === 0) return -1 - at;
    if (h === high && lows[at] === low) return at;
    at = (at + 1) & mask;
  }
}

/** the halves of the id `read` last took: kept here, not in an array made for each id */
let readHigh = 0;
let readLow = 0;

/**
 * Whether `id` is compact (up to 19 digits, no leading zero); if so, its halves as the tables keep them are left in
 * `readHigh` (its leading digits + 1: 0 marks an empty slot) and `readLow` (its last nine). One pass over its
 * characters, where a pattern's test and then the digits' cost two (and an array for the pair): a collection of a
 * million posts asks for each id once.
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
  readHigh = high + 1;
  readLow = low;
  return true;
}

/** a slot from the two halves (the leading digits stay below 2^53) */
function slot(high: number, low: number): number {
  let h = Math.imul(low ^ (high >>> 0), 0x9e3779b1);
  h ^= Math.imul((high / 4294967296) >>> 0, 0x85ebca6b);
  h ^= h >>> 15;
  return Math.imul(h, 0xc2b2ae35) ^ (h >>> 13);
}

/** Frees an array buffer's memory at once (`ArrayBuffer.prototype.transfer`, ES2024: Node 22 and later). */
function detach(buffer: ArrayBufferLike): void {
  (buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer }).transfer?.(0);
}
