/**
 * A manifest written a piece at a time (`jsonText`), its long lists one entry a line: at a million posts an
 * export's manifest lists 50,000 pages, a re-export's some 50,000 requests, and as one pretty-printed text they were
 * tens of MB made just as the file was finished. A list too long to hold as objects until then (a re-export's
 * requests, read from the project while the rows need only their index) is kept as its entries' JSON text
 * (`JsonList`), a fraction of the objects' memory, or made as it is written from what holds it more compactly
 * (`MadeList`: an export's pages, from its page log), and spliced in where it stands.
 */
import { randomUUID } from 'node:crypto';

/** entries per piece of text: a piece is one string, so a long list is never one huge one */
const PER_PIECE = 1_000;

/** while `jsonText` makes its text: the lists met so far, each written as a token to splice it at */
let splicing: { token: string; lists: Array<SplicedList<unknown> | readonly unknown[]> } | null = null;

/** A list `jsonText` writes one entry a line where it stands, which is never held as its entries' objects. */
abstract class SplicedList<T> {
  abstract get length(): number;

  /** The entries' JSON lines, a piece of up to PER_PIECE at a time, each line prefixed with `pad`. */
  abstract lines(pad: string): Generator<string>;

  /** the entries as objects */
  protected abstract objects(): T[];

  /** The entries as objects again: what a plain `JSON.stringify` of the manifest writes (and any reader sees). */
  toJSON(): T[] | string {
    if (splicing) return `${splicing.token}${splicing.lists.push(this) - 1}`;
    return this.objects();
  }
}

/** A list kept as its entries' JSON text. */
export class JsonList<T> extends SplicedList<T> {
  private readonly pieces: string[] = [];
  private open: string[] = [];
  private count = 0;

  push(entry: T): void {
    this.open.push(JSON.stringify(entry));
    this.count++;
    if (this.open.length === PER_PIECE) this.seal();
  }

  get length(): number {
    return this.count;
  }

  *lines(pad: string): Generator<string> {
    this.seal();
    for (let i = 0; i < this.pieces.length; i++)
      yield `${i === 0 ? '' : ',\n'}${pad}${(this.pieces[i] as string).replaceAll('\n', `\n${pad}`)}`;
  }

  protected objects(): T[] {
    this.seal();
    return this.pieces.flatMap((piece) => JSON.parse(`[${piece.replaceAll('\n', '')}]`) as T[]);
  }

  private seal(): void {
    if (this.open.length === 0) return;
    this.pieces.push(this.open.join(',\n'));
    this.open = [];
  }
}

/**
 * A list whose entries are made when they are read or written, from what holds them more compactly (an export's
 * pages, from its page log). Fifty thousand page entries held as objects from a million-post collection's end until
 * its file was written were main's biggest growth then: 8–17 MB of its peak RSS as JSON, JSON Lines or CSV.
 */
export class MadeList<T> extends SplicedList<T> implements Iterable<T> {
  constructor(
    private readonly count: number,
    private readonly make: (index: number) => T,
  ) {
    super();
  }

  get length(): number {
    return this.count;
  }

  /** the entry at `index` (from the end when negative, as an array's `at`) */
  at(index: number): T | undefined {
    const i = index < 0 ? this.count + index : index;
    return i >= 0 && i < this.count ? this.make(i) : undefined;
  }

  *[Symbol.iterator](): Iterator<T> {
    for (let i = 0; i < this.count; i++) yield this.make(i);
  }

  lines(pad: string): Generator<string> {
    return linesOf(this.count, this.make, pad);
  }

  protected objects(): T[] {
    return Array.from(this);
  }
}

/** an array longer than this is written one entry a line, a piece at a time, never as one pretty-printed text */
const LONG = 1_000;

/**
 * `value` as JSON text indented by 2, every line after the first `depth` spaces further in, written a piece at a
 * time. A `JsonList` or `MadeList` inside, or an array of more than 1,000 entries, is written one entry a line: a
 * long list never becomes one text of its own, a `JsonList` is never made into objects and a `MadeList`'s are made
 * a piece at a time.
 */
export function* jsonText(value: unknown, depth = 0): Generator<string> {
  // a token no string of the manifest can be: it holds a random id
  const token = `skein-list-${randomUUID()}-`;
  const lists: Array<SplicedList<unknown> | readonly unknown[]> = [];
  let text: string;
  splicing = { token, lists };
  try {
    text = JSON.stringify(
      value,
      (_key, v: unknown) => (Array.isArray(v) && v.length > LONG ? `${token}${lists.push(v) - 1}` : v),
      2,
    );
  } finally {
    splicing = null;
  }
  const indent = (s: string) => (depth === 0 ? s : s.replaceAll('\n', `\n${' '.repeat(depth)}`));
  const marker = new RegExp(`"${token}(\\d+)"`, 'g');
  const spaces = / */y;
  let from = 0;
  for (const m of text.matchAll(marker)) {
    yield indent(text.slice(from, m.index));
    const list = lists[Number(m[1])] as SplicedList<unknown> | readonly unknown[];
    spaces.lastIndex = text.lastIndexOf('\n', m.index) + 1;
    const pad = ' '.repeat(depth + (spaces.exec(text)?.[0].length ?? 0));
    if (list.length === 0) yield '[]';
    else {
      yield '[\n';
      yield* list instanceof SplicedList ? list.lines(`${pad}  `) : linesOf(list.length, (i) => list[i], `${pad}  `);
      yield `\n${pad}]`;
    }
    from = m.index + m[0].length;
  }
  yield indent(text.slice(from));
}

/** A list's entries as JSON, one a line, a piece of up to PER_PIECE lines at a time. */
function* linesOf(count: number, entry: (index: number) => unknown, pad: string): Generator<string> {
  for (let i = 0; i < count; i += PER_PIECE) {
    const lines: string[] = [];
    // as JSON.stringify writes an array's entry: what has no JSON form is null
    for (let j = i; j < Math.min(count, i + PER_PIECE); j++) lines.push(pad + (JSON.stringify(entry(j)) ?? 'null'));
    yield `${i === 0 ? '' : ',\n'}${lines.join(',\n')}`;
  }
}
