/**
 * A CSV table as the writers see it: its columns (ids marked), how an item becomes rows, and what follows
 * the item's own columns. The tables themselves are in rows.ts (and space-rows.ts, presets.ts).
 */
import type { Provenance, ThreadPosition } from '../format';

export type Cell = string | number | boolean | null;
export type Row = Record<string, Cell>;

export interface Table {
  /** '' for the main file, else a suffix: `x.participants.csv` */
  suffix: string;
  columns: readonly string[];
  /** columns holding ids (encoded with `csvId`) */
  idColumns: readonly string[];
  rows: (raw: unknown, position: ThreadPosition | null, context: RowContext) => Row[];
  /** the columns after the item's own (absent: Skein's provenance columns) */
  trailer?: TableTrailer;
}

export interface TableTrailer {
  columns: readonly string[];
  cells: (from: Provenance) => Cell[];
}

export interface RowContext {
  /** the view's params (a space's id is only in them) */
  params: Record<string, string | number | boolean>;
  /** 0-based index of the item in the export */
  index: number;
}
