/**
 * A manifest's list too long to hold as objects — a re-export of a million posts lists the some 50,000 requests
 * its rows point at — kept as its entries' JSON text, a line each, and spliced into the manifest where it stands
 * when the manifest is written (`manifestText`). Text is a fraction of the objects' memory.
 */
import { randomUUID } from 'node:crypto';

/** entries per piece of text: a piece is one string, so a long list is never one huge one */
const PER_PIECE = 1_000;

/** while `jsonText` makes its text: the lists met so far, each written as a token to splice it at */
let splicing: { token: string; lists: JsonList<unknown>[] } | null = null;

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

/**
 * `value` as JSON text indented by 2, every line after the first `depth` spaces further in, written a piece at a
 * time: a `JsonList` inside is written as one entry per line, never made into objects.
 */
export function* jsonText(value: unknown, depth = 0): Generator<string> {
  // a token no string of the manifest can be: it holds a random id
  const token = `skein-list-${randomUUID()}-`;
  const lists: JsonList<unknown>[] = [];
  let text: string;
  splicing = { token, lists };
  try {
    text = JSON.stringify(value, null, 2);
  } finally {
    splicing = null;
  }
  const indent = (s: string) => (depth === 0 ? s : s.replaceAll('\n', `\n${' '.repeat(depth)}`));
  const marker = new RegExp(`"${token}(\\d+)"`, 'g');
  let from = 0;
  for (const m of text.matchAll(marker)) {
    const before = text.slice(from, m.index);
    yield indent(before);
    const list = lists[Number(m[1])] as JsonList<unknown>;
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    const pad = ' '.repeat(depth + (text.slice(lineStart).match(/^ */)?.[0].length ?? 0));
    if (list.length === 0) yield '[]';
    else {
      yield '[\n';
      yield* list.lines(`${pad}  `);
      yield `\n${pad}]`;
    }
    from = m.index + m[0].length;
  }
  yield indent(text.slice(from));
}
