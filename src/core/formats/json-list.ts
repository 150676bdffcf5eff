/**
 * A manifest written a piece at a time (`jsonText`), its long lists one entry a line: at a million posts an
 * export's manifest lists 50,000 pages, a re-export's some 50,000 requests, and as one pretty-printed text they were
 * tens of MB made just as the file was finished. A list too long to hold as objects until then (a re-export's
 * requests, read from the project while the rows need only their index) is kept as its entries' JSON text
 * (`JsonList`), a fraction of the objects' memory, and spliced in where it stands.
 */
import { randomUUID } from 'node:crypto';

/** entries per piece of text: a piece is one string, so a long list is never one huge one */
const PER_PIECE = 1_000;

/** while `jsonText` makes its text: the lists met so far, each written as a token to splice it at */
let splicing: { token: string; lists: Array<JsonList<unknown> | readonly unknown[]> } | null = null;

export class JsonList<T> {
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

  /** The entries' JSON lines, a piece of up to PER_PIECE at a time, each line prefixed with `pad`. */
  *lines(pad: string): Generator<string> {
    this.seal();
    for (let i = 0; i < this.pieces.length; i++)
      yield `${i === 0 ? '' : ',\n'}${pad}${(this.pieces[i] as string).replaceAll('\n', `\n${pad}`)}`;
  }

  /** The entries as objects again: what a plain `JSON.stringify` of the manifest writes (and any reader sees). */
  toJSON(): T[] | string {
    if (splicing) return `${splicing.token}${splicing.lists.push(this) - 1}`;
    this.seal();
    return this.pieces.flatMap((piece) => JSON.parse(`[${piece.replaceAll('\n', '')}]`) as T[]);
  }

  private seal(): void {
    if (this.open.length === 0) return;
    this.pieces.push(this.open.join(',\n'));
    this.open = [];
  }
}

/** an array longer than this is written one entry a line, a piece at a time, never as one pretty-printed text */
const LONG = 1_000;

/**
 * `value` as JSON text indented by 2, every line after the first `depth` spaces further in, written a piece at a
 * time. A `JsonList` inside, or an array of more than 1,000 entries (an export's pages), is written one entry a
 * line: a long list never becomes one text of its own, and a `JsonList` is never made into objects.
 */
export function* jsonText(value: unknown, depth = 0): Generator<string> {
  // a token no string of the manifest can be: it holds a random id
  const token = `skein-list-${randomUUID()}-`;
  const lists: Array<JsonList<unknown> | readonly unknown[]> = [];
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
    const list = lists[Number(m[1])] as JsonList<unknown> | readonly unknown[];
    spaces.lastIndex = text.lastIndexOf('\n', m.index) + 1;
    const pad = ' '.repeat(depth + (spaces.exec(text)?.[0].length ?? 0));
    if (list.length === 0) yield '[]';
    else {
      yield '[\n';
      yield* list instanceof JsonList ? list.lines(`${pad}  `) : linesOf(list, `${pad}  `);
      yield `\n${pad}]`;
    }
    from = m.index + m[0].length;
  }
  yield indent(text.slice(from));
}

/** An array's entries as JSON, one a line, a piece of up to PER_PIECE lines at a time. */
function* linesOf(entries: readonly unknown[], pad: string): Generator<string> {
  for (let i = 0; i < entries.length; i += PER_PIECE) {
    const lines: string[] = [];
    // as JSON.stringify writes an array's entry: what has no JSON form is null
    for (const entry of entries.slice(i, i + PER_PIECE)) lines.push(pad + (JSON.stringify(entry) ?? 'null'));
    yield `${i === 0 ? '' : ',\n'}${lines.join(',\n')}`;
  }
}
