/**
 * Importing an id list to hydrate, before anything is spent: a `.txt` (one per line), a CSV/TSV (a
 * column picked by name or position, after a preview), JSONL (a field path such as `id` or `item.author.id`)
 * or pasted text (ids separated by spaces, commas or lines). Posts or users (users may be `@handles`, to be
 * resolved at a shown cost). Every token is read by `shared/ids/id-token.ts` (Skein's `="…"` cells, quotes
 * and spaces stripped); repeats are counted; ids a spreadsheet damaged and anything that is not an id are
 * refused and listed with their line and reason. Streaming: text is fed in chunks, accepted ids go to a
 * callback (or are kept), so a file of millions of lines is read in flat memory but for the set of ids seen.
 */
import { readIdToken, RoundedIds, type IdKind } from '../../shared/ids/id-token';
import { missingCaseError } from '../../shared/missing-case';
import { CsvRecords, sniffDelimiter } from './csv-records';
import { IdSet } from '../id-table';

export type IdFileFormat =
  | { format: 'txt' }
  | { format: 'paste' }
  /** `column`: a header name, or a 0-based position; `header`: the first record names the columns */
  | { format: 'csv'; column: string | number; header: boolean; delimiter?: ',' | '\t' | ';' }
  | { format: 'jsonl'; path: string };

export interface RefusedId {
  /** 1-based line (record, for CSV) of the file */
  line: number;
  token: string;
  why: string;
}

export interface IdImportSummary {
  kind: IdKind;
  /** lines (records) read, header and blanks included */
  lines: number;
  accepted: number;
  duplicates: number;
  blank: number;
  handles: string[];
  damaged: RefusedId[];
  invalid: RefusedId[];
  /** refused beyond what the lists keep (`MAX_LISTED`) */
  damagedTotal: number;
  invalidTotal: number;
  /** when asked to keep them: the accepted ids in file order, each once */
  ids?: string[];
}

/** Refused tokens listed per kind (the totals count every one). */
export const MAX_LISTED = 1000;
const MAX_TOKEN_SHOWN = 120;

export interface IdImportOptions {
  kind: IdKind;
  source: IdFileFormat;
  /** each accepted id, once, in file order */
  onId?: (id: string) => void;
  /**
   * ids given to `onId` that the list's verdict at the end refused (they looked rounded by a spreadsheet, and the
   * list says they were): to be taken out of what `onId` kept
   */
  onWithdraw?: (ids: ReadonlySet<string>) => void;
  /** keep the accepted ids in the summary (default: true unless `onId` is given) */
  keepIds?: boolean;
}

/** A dotted path into a JSON value: `a.b.0.c`. */
function at(value: unknown, path: readonly string[]): unknown {
  let v = value;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

interface JsonSource {
  source: string;
}

/** JSON.parse keeping each number's digits as written (a JSON number id above 2^53 would lose its last ones). */
function parseExact(line: string): unknown {
  return JSON.parse(line, (_key, value: unknown, context?: JsonSource) =>
    typeof value === 'number' && context?.source !== undefined && /^-?\d+$/.test(context.source)
      ? { __digits: context.source }
      : value,
  );
}

interface HeldId {
  line: number;
  token: string;
}

/** Reads an id list fed in chunks. */
export class IdImporter {
  /** off V8's heap: a million ids held as strings would size the old generation for the hydration after */
  private readonly seen = new IdSet();
  private readonly handleSeen = new Set<string>();
  private readonly summary: IdImportSummary;
  private readonly keep: boolean;
  private pending = '';
  private readonly csv: CsvRecords | null = null;
  private column: number | null = null;
  private readonly path: string[];
  /** ids that look rounded by a spreadsheet, judged when the whole list is read */
  private readonly rounded = new RoundedIds<HeldId>();
  private readonly refuseRounded = (held: HeldId, why: string) => this.refuse('damaged', held.line, held.token, why);
  private readonly acceptId = (id: string) => this.accept(id);

  constructor(private readonly options: IdImportOptions) {
    this.keep = options.keepIds ?? !options.onId;
    this.summary = {
      kind: options.kind,
      lines: 0,
      accepted: 0,
      duplicates: 0,
      blank: 0,
      handles: [],
      damaged: [],
      invalid: [],
      damagedTotal: 0,
      invalidTotal: 0,
      ...(this.keep ? { ids: [] } : {}),
    };
    const s = options.source;
    this.path = s.format === 'jsonl' ? s.path.split('.').filter(Boolean) : [];
    if (s.format === 'csv') {
      this.csv = new CsvRecords(s.delimiter ?? ',');
      if (typeof s.column === 'number') this.column = s.column;
    }
  }

  private refuse(list: 'damaged' | 'invalid', line: number, token: string, why: string): void {
    const s = this.summary;
    if (list === 'damaged') s.damagedTotal++;
    else s.invalidTotal++;
    if (s[list].length < MAX_LISTED) s[list].push({ line, token: token.slice(0, MAX_TOKEN_SHOWN), why });
  }

  /** true: the id's first time, now in the list; false: a repeat */
  private accept(id: string): boolean {
    if (!this.seen.add(id)) {
      this.summary.duplicates++;
      return false;
    }
    this.summary.accepted++;
    this.summary.ids?.push(id);
    this.options.onId?.(id);
    return true;
  }

  private token(raw: string, line: number, text = false): void {
    const read = readIdToken(raw, this.options.kind, text);
    switch (read.kind) {
      case 'id':
        return this.rounded.take(read, { line, token: raw }, this.acceptId, this.refuseRounded);
      case 'handle': {
        const key = read.handle.toLowerCase();
        if (this.handleSeen.has(key)) this.summary.duplicates++;
        else {
          this.handleSeen.add(key);
          this.summary.handles.push(read.handle);
        }
        return;
      }
      case 'damaged':
        return this.refuse('damaged', line, raw, read.why);
      case 'invalid':
        return this.refuse('invalid', line, raw, read.why);
      default:
        missingCaseError(read);
    }
  }

  private line(text: string): void {
    const line = ++this.summary.lines;
    const s = this.options.source;
    if (text.trim() === '') {
      this.summary.blank++;
      return;
    }
    switch (s.format) {
      case 'txt':
        return this.token(text, line);
      case 'paste':
        // "1,23E+18" (a decimal comma) is one token, not "1" and "23E+18"
        for (const t of text.replace(/(\d),(\d+E\+?\d+)/gi, '$1.$2').split(/[\s,;]+/))
          if (t !== '') this.token(t, line);
        return;
      case 'jsonl':
        return this.jsonLine(text, line);
      case 'csv':
        return;
      default:
        missingCaseError(s);
    }
  }

  private jsonLine(text: string, line: number): void {
    let value: unknown;
    try {
      value = at(parseExact(text), this.path);
    } catch {
      return this.refuse('invalid', line, text, 'not a JSON line');
    }
    const digits = (value as { __digits?: unknown } | null)?.__digits;
    if (typeof digits === 'string') return this.token(digits, line);
    if (typeof value === 'string') return this.token(value, line, true);
    if (value === undefined || value === null)
      return this.refuse('invalid', line, text, `no value at ${this.path.join('.') || '(the line)'}`);
    return this.refuse('invalid', line, text, `the value at ${this.path.join('.')} is not an id`);
  }

  private record(cells: string[]): void {
    const s = this.options.source;
    if (s.format !== 'csv') return;
    const line = ++this.summary.lines;
    if (this.column === null) {
      // the header names the column
      const wanted = String(s.column).trim().toLowerCase();
      const found = cells.findIndex(
        (c) =>
          c
            .replace(/^\ufeff/, '')
            .trim()
            .toLowerCase() === wanted,
      );
      this.column = found >= 0 ? found : -1;
      return;
    }
    if (s.header && line === 1) return;
    if (cells.every((c) => c.trim() === '')) {
      this.summary.blank++;
      return;
    }
    if (this.column < 0) return this.refuse('invalid', line, String(s.column), 'no such column in the header');
    const cell = cells[this.column];
    if (cell === undefined) return this.refuse('invalid', line, cells.join(','), 'the row has no such column');
    this.token(cell, line);
  }

  /** Feeds the next chunk of text (any size, lines may be cut anywhere). */
  push(chunk: string): void {
    if (this.csv) {
      this.csv.push(this.summary.lines === 0 && this.pending === '' ? chunk.replace(/^\ufeff/, '') : chunk, (r) =>
        this.record(r),
      );
      this.pending = 'started';
      return;
    }
    const text = this.pending + chunk;
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      this.line(text.slice(start, text[nl - 1] === '\r' ? nl - 1 : nl));
      start = nl + 1;
    }
    this.pending = text.slice(start);
  }

  /** Ends the input; returns what was read. */
  end(): IdImportSummary {
    if (this.csv) this.csv.end((r) => this.record(r));
    else if (this.pending !== '') this.line(this.pending.replace(/\r$/, ''));
    this.pending = '';
    this.settleRounded();
    this.summary.damaged.sort((a, b) => a.line - b.line);
    this.release();
    return this.summary;
  }

  /** The verdict on ids that looked rounded, taken in their places: what a refusal takes back is taken back. */
  private settleRounded(): void {
    const { withdrawn, repeats } = this.rounded.settle(this.refuseRounded);
    this.summary.duplicates -= repeats;
    if (withdrawn.size === 0) return;
    this.summary.accepted -= withdrawn.size;
    if (this.summary.ids) this.summary.ids = this.summary.ids.filter((id) => !withdrawn.has(id));
    this.options.onWithdraw?.(withdrawn);
  }

  /** Lets the table of ids seen go (at the end, or for a reading given up). */
  release(): void {
    this.seen.release();
  }
}

/** Reads a whole id list from chunks (a file stream, or pasted text as one chunk). */
export async function importIds(chunks: AsyncIterable<string> | Iterable<string>, options: IdImportOptions) {
  const importer = new IdImporter(options);
  for await (const chunk of chunks) importer.push(chunk);
  return importer.end();
}

export interface IdFilePreview {
  delimiter: ',' | '\t' | ';';
  /** the first record's cells (the header, when there is one) */
  columns: string[];
  rows: string[][];
  /** the column that looks like the ids asked for, or null */
  suggested: number | null;
}

const ID_COLUMN_NAMES: Record<IdKind, string[]> = {
  posts: ['id', 'tweet_id', 'post_id', 'status_id', 'id_str'],
  users: ['id', 'user_id', 'author_id', 'id_str', 'username', 'screen_name', 'handle', 'author'],
};

/** The first rows of a CSV/TSV, for the column picker: its delimiter, columns and a suggested column. */
export function previewIdFile(head: string, kind: IdKind, rows = 5): IdFilePreview {
  const text = head.replace(/^\ufeff/, '');
  const delimiter = sniffDelimiter(text.split(/\r?\n/, 1)[0] ?? '');
  const records: string[][] = [];
  const reader = new CsvRecords(delimiter);
  reader.push(text, (r) => records.length <= rows && records.push([...r]));
  if (records.length <= rows) reader.end((r) => records.length <= rows && records.push([...r]));
  const columns = records[0] ?? [];
  // the first of the usual names that a column has
  let suggested =
    ID_COLUMN_NAMES[kind]
      .map((name) => columns.findIndex((c) => c.trim().toLowerCase() === name))
      .find((i) => i >= 0) ?? null;
  if (suggested === null) {
    // no header name: the first column whose cells read as ids
    const body = records.slice(1);
    const i = columns.findIndex((_, col) => {
      const cells = body.map((r) => r[col] ?? '');
      return cells.length > 0 && cells.every((c) => readIdToken(c, kind).kind === 'id');
    });
    suggested = i >= 0 ? i : null;
  }
  return { delimiter, columns, rows: records.slice(1), suggested };
}
