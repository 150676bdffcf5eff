/**
 * A walk's page records, held compactly for as long as the walk lasts (its manifest is made from them at the end).
 * A page's record as an object, with its two cursors and two empty lists, is ~250 bytes of V8's heap that survive
 * every collection, and V8 sizes the old generation by what survives: a million posts are fifty thousand pages,
 * whose records and the set of their cursors were 11 of the 30 MB left after a full collection at the end of such
 * an export's collection. Here a page is eight numbers in one typed array, a byte of flags, its cursors as UTF-8 in
 * one buffer (the cursor a page was asked with is most often the previous page's next one, held once), and whatever
 * else it says (items dropped, ids not found, a paging stop, a snapshot, a walker's note), rare, in an ordinary map.
 * `at` and iterating give back records equal to those pushed.
 *
 * It also answers what the paging guards ask per page, in constant time however long the walk: whether a
 * request's pages were asked with a cursor before, and a request's last page.
 */
import type { PageRecord } from './journal';

/** the numbers of a page, in this order, at `page * NUMBERS` */
const NUMBERS = 8;
const REQUEST = 0;
const FETCHED_AT = 1;
const HTTP_STATUS = 2;
const CREDITS = 3;
const ATTEMPTS = 4;
const RECEIVED = 5;
const KEPT = 6;
const DUPLICATES = 7;

/** flags: hasNextPage and fromProject each in two bits (0: null / absent, 1: false, 2: true) */
const FROM_CACHE = 1;
const HAS_NEXT_SHIFT = 1;
const FROM_PROJECT_SHIFT = 3;
const CURSOR_NULL = 1 << 5;
const NEXT_NULL = 1 << 6;
/** the page's cursor is the previous page's next cursor (its bytes are held once, as that) */
const CURSOR_IS_PREVIOUS_NEXT = 1 << 7;

/** the fields held in the arrays above; any other the record has, when not its empty default, goes to `rare` */
const COMPACT = new Set<string>([
  'request',
  'cursor',
  'nextCursor',
  'hasNextPage',
  'fetchedAt',
  'fromCache',
  'fromProject',
  'httpStatus',
  'credits',
  'attempts',
  'received',
  'kept',
  'duplicates',
]);

const FIRST_PAGES = 64;

const twoBits = (value: boolean | null | undefined): number => (value === true ? 2 : value === false ? 1 : 0);
const fromTwoBits = (bits: number): boolean | null => (bits === 2 ? true : bits === 1 ? false : null);

/** FNV-1a over a string's UTF-16 units, the request mixed in: a slot to start probing from */
function hashOf(request: number, cursor: string | null): number {
  let h = (0x811c9dc5 ^ request) >>> 0;
  if (cursor === null) return Math.imul(h ^ 0x5bd1e995, 0x01000193) >>> 0;
  for (let i = 0; i < cursor.length; i++) h = Math.imul(h ^ cursor.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A walk's pages in order, however they are held (a `PageLog`, or an array of records). */
export type PageList = Iterable<PageRecord> & {
  readonly length: number;
  at: (index: number) => PageRecord | undefined;
};

export class PageLog implements Iterable<PageRecord> {
  private count = 0;
  private numbers = new Float64Array(FIRST_PAGES * NUMBERS);
  private flags = new Uint8Array(FIRST_PAGES);
  /** per page, where its cursor's and its next cursor's bytes end in `pool` (each starts where the one before ended) */
  private ends = new Uint32Array(FIRST_PAGES * 2);
  private pool = Buffer.allocUnsafe(4096);
  private poolUsed = 0;
  /** the last page's next cursor, to know whether the next page was asked with it */
  private lastNext: string | null = null;
  private readonly rare = new Map<number, Record<string, unknown>>();
  /**
   * The pages that take part in paging (`hasNextPage` not null), by their request and cursor: open addressing over
   * page numbers + 1 (0: empty), each slot's hash beside it so that most probes never decode a cursor.
   */
  private slots = new Int32Array(FIRST_PAGES * 2);
  private hashes = new Uint32Array(FIRST_PAGES * 2);
  private indexed = 0;
  /** per request, its last page that takes part in paging */
  private readonly lastOfRequest = new Map<number, number>();

  get length(): number {
    return this.count;
  }

  push(page: PageRecord): void {
    const i = this.count;
    if (i === this.flags.length) this.grow();
    const n = i * NUMBERS;
    const numbers = this.numbers;
    numbers[n + REQUEST] = page.request;
    numbers[n + FETCHED_AT] = page.fetchedAt;
    numbers[n + HTTP_STATUS] = page.httpStatus;
    numbers[n + CREDITS] = page.credits;
    numbers[n + ATTEMPTS] = page.attempts;
    numbers[n + RECEIVED] = page.received;
    numbers[n + KEPT] = page.kept;
    numbers[n + DUPLICATES] = page.duplicates;
    let flags =
      (page.fromCache ? FROM_CACHE : 0) |
      (twoBits(page.hasNextPage) << HAS_NEXT_SHIFT) |
      (twoBits(page.fromProject) << FROM_PROJECT_SHIFT);
    if (page.cursor === null) flags |= CURSOR_NULL;
    else if (i > 0 && page.cursor === this.lastNext) flags |= CURSOR_IS_PREVIOUS_NEXT;
    else this.keepText(page.cursor);
    this.ends[i * 2] = this.poolUsed;
    if (page.nextCursor === null) flags |= NEXT_NULL;
    else this.keepText(page.nextCursor);
    this.ends[i * 2 + 1] = this.poolUsed;
    this.flags[i] = flags;
    this.lastNext = page.nextCursor;
    let rare: Record<string, unknown> | null = null;
    for (const [key, value] of Object.entries(page)) {
      if (COMPACT.has(key) || value === undefined || value === null) continue;
      if (Array.isArray(value) && value.length === 0 && (key === 'dropped' || key === 'notFound')) continue;
      (rare ??= {})[key] = value;
    }
    if (rare) this.rare.set(i, rare);
    this.count++;
    if (page.hasNextPage !== null) {
      this.index(i);
      this.lastOfRequest.set(page.request, i);
    }
  }

  at(index: number): PageRecord | undefined {
    const i = index < 0 ? this.count + index : index;
    if (!Number.isInteger(i) || i < 0 || i >= this.count) return undefined;
    const n = i * NUMBERS;
    const numbers = this.numbers;
    const flags = this.flags[i] as number;
    const fromProject = fromTwoBits((flags >> FROM_PROJECT_SHIFT) & 3);
    const rare = this.rare.get(i);
    return {
      request: numbers[n + REQUEST] as number,
      cursor: this.cursorOf(i),
      nextCursor: this.nextCursorOf(i),
      hasNextPage: fromTwoBits((flags >> HAS_NEXT_SHIFT) & 3),
      fetchedAt: numbers[n + FETCHED_AT] as number,
      fromCache: (flags & FROM_CACHE) !== 0,
      ...(fromProject === null ? {} : { fromProject }),
      httpStatus: numbers[n + HTTP_STATUS] as number,
      credits: numbers[n + CREDITS] as number,
      attempts: numbers[n + ATTEMPTS] as number,
      received: numbers[n + RECEIVED] as number,
      kept: numbers[n + KEPT] as number,
      duplicates: numbers[n + DUPLICATES] as number,
      dropped: [],
      notFound: [],
      stop: null,
      ...rare,
    };
  }

  *[Symbol.iterator](): Iterator<PageRecord> {
    for (let i = 0; i < this.count; i++) yield this.at(i) as PageRecord;
  }

  /** whether a page of `request` that takes part in paging was asked with `cursor` */
  askedWith(request: number, cursor: string | null): boolean {
    const mask = this.slots.length - 1;
    const hash = hashOf(request, cursor);
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const held = this.slots[s] as number;
      if (held === 0) return false;
      const page = held - 1;
      if (
        this.hashes[s] === hash &&
        this.numbers[page * NUMBERS + REQUEST] === request &&
        this.cursorOf(page) === cursor
      )
        return true;
    }
  }

  /**
   * Whether `request`'s last page that takes part in paging kept nothing and said another page follows (the
   * guard against a walk that brings nothing page after page), read from its numbers and flags: making its
   * record again for two fields cost ~4 µs a page.
   */
  lastBroughtNothing(request: number): boolean {
    const i = this.lastOfRequest.get(request);
    if (i === undefined) return false;
    return (
      this.numbers[i * NUMBERS + KEPT] === 0 && fromTwoBits(((this.flags[i] as number) >> HAS_NEXT_SHIFT) & 3) === true
    );
  }

  private cursorOf(i: number): string | null {
    const flags = this.flags[i] as number;
    if (flags & CURSOR_NULL) return null;
    if (flags & CURSOR_IS_PREVIOUS_NEXT) return this.nextCursorOf(i - 1);
    const start = i === 0 ? 0 : (this.ends[i * 2 - 1] as number);
    return this.pool.toString('utf8', start, this.ends[i * 2]);
  }

  private nextCursorOf(i: number): string | null {
    if ((this.flags[i] as number) & NEXT_NULL) return null;
    return this.pool.toString('utf8', this.ends[i * 2], this.ends[i * 2 + 1]);
  }

  private keepText(text: string): void {
    const most = text.length * 3;
    if (this.poolUsed + most > this.pool.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.pool.length * 2, this.poolUsed + most));
      this.pool.copy(bigger, 0, 0, this.poolUsed);
      this.pool = bigger;
    }
    this.poolUsed += this.pool.write(text, this.poolUsed, 'utf8');
  }

  private grow(): void {
    const pages = this.flags.length * 2;
    const numbers = new Float64Array(pages * NUMBERS);
    numbers.set(this.numbers);
    this.numbers = numbers;
    const flags = new Uint8Array(pages);
    flags.set(this.flags);
    this.flags = flags;
    const ends = new Uint32Array(pages * 2);
    ends.set(this.ends);
    this.ends = ends;
  }

  private index(page: number): void {
    if ((this.indexed + 1) * 2 > this.slots.length) {
      const old = this.slots;
      const oldHashes = this.hashes;
      this.slots = new Int32Array(old.length * 2);
      this.hashes = new Uint32Array(old.length * 2);
      for (let s = 0; s < old.length; s++) if (old[s] !== 0) this.place(old[s] as number, oldHashes[s] as number);
    }
    const n = page * NUMBERS;
    this.place(page + 1, hashOf(this.numbers[n + REQUEST] as number, this.cursorOf(page)));
    this.indexed++;
  }

  private place(held: number, hash: number): void {
    const mask = this.slots.length - 1;
    let s = hash & mask;
    while (this.slots[s] !== 0) s = (s + 1) & mask;
    this.slots[s] = held;
    this.hashes[s] = hash;
  }
}
