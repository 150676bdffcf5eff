/**
 * A streaming RFC 4180 record reader for id files (CSV, TSV): quoted cells with doubled quotes and line
 * breaks inside, CRLF or LF, any one-character delimiter. Text is fed in chunks of any size; records come
 * out as they complete, so a million-line file is never held whole.
 */
export class CsvRecords {
  private cell = '';
  private record: string[] = [];
  private quoted = false;
  /** the last character was a closing-or-doubled quote inside a quoted cell */
  private quoteSeen = false;
  private afterCr = false;
  private started = false;

  constructor(private readonly delimiter: string) {}

  /** Feeds a chunk; calls `onRecord` for each record it completes. */
  push(text: string, onRecord: (cells: string[]) => void): void {
    const d = this.delimiter;
    let plainStart = -1;
    const flushPlain = (end: number) => {
      if (plainStart >= 0) this.cell += text.slice(plainStart, end);
      plainStart = -1;
    };
    for (let i = 0; i < text.length; i++) {
      const c = text[i] as string;
      if (this.afterCr) {
        this.afterCr = false;
        if (c === '\n') continue;
      }
      if (this.quoted) {
        if (this.quoteSeen) {
          this.quoteSeen = false;
          if (c === '"') {
            this.cell += '"';
            continue;
          }
          this.quoted = false; // the quote closed the cell: fall through to the unquoted handling
        } else if (c === '"') {
          this.quoteSeen = true;
          continue;
        } else {
          this.cell += c;
          continue;
        }
      }
      if (c === d || c === '\n' || c === '\r') {
        flushPlain(i);
        this.record.push(this.cell);
        this.cell = '';
        this.started = false;
        if (c !== d) {
          onRecord(this.record);
          this.record = [];
          this.afterCr = c === '\r';
        } else this.started = true;
        continue;
      }
      if (c === '"' && this.cell === '' && plainStart < 0) {
        this.quoted = true;
        this.started = true;
        continue;
      }
      this.started = true;
      if (plainStart < 0) plainStart = i;
    }
    flushPlain(text.length);
  }

  /** The last record when the text did not end with a line break. */
  end(onRecord: (cells: string[]) => void): void {
    if (this.quoteSeen) this.quoted = false;
    if (this.started || this.cell !== '' || this.record.length > 0) {
      this.record.push(this.cell);
      onRecord(this.record);
    }
    this.cell = '';
    this.record = [];
    this.started = false;
  }
}

/** `,` `\t` or `;`: the one that splits the first line into most cells. */
export function sniffDelimiter(firstLine: string): ',' | '\t' | ';' {
  const count = (d: string) => firstLine.split(d).length;
  const best = ([',', '\t', ';'] as const).reduce((a, b) => (count(b) > count(a) ? b : a));
  return best;
}
