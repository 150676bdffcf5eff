/**
 * Spreadsheet formula injection (the texts are anyone's, so a cell may be an attack): a text cell that starts with
 * `=`, `+`, `-`, `@`, TAB or CR is run as a formula by Excel, LibreOffice and
 * Google Sheets (OWASP "CSV injection"). By default such a cell is written
 * with a leading apostrophe, which every spreadsheet shows as text and hides;
 * the export's `csvCells: 'exact'` option (for pandas and R) writes every
 * cell exactly as received. One pure function, applied by the CSV writer, so
 * it composes with any CSV flavour. Numbers, booleans and empty cells are
 * never touched; JSON and JSONL are byte-exact either way.
 */
import type { CsvCells, CsvFlavour } from '../../../shared/ipc/export';

export type { CsvCells };

const FORMULA_START = /^[=+\-@\t\r]/;

export function neutraliseFormula<T>(cell: T): T | string {
  return typeof cell === 'string' && FORMULA_START.test(cell) ? `'${cell}` : cell;
}

/** What the manifest says about text cells. */
export const CSV_CELLS_NOTE: Record<CsvCells, string> = {
  neutralised:
    "text cells that begin with =, +, -, @, TAB or CR are written with a leading apostrophe (') so spreadsheets show them as text instead of running them as formulas; remove that one apostrophe to get the text as received",
  exact:
    'every text cell is written exactly as received: opening this file in a spreadsheet may run cells that begin with =, +, -, @ as formulas',
};

/**
 * Cells when the export does not say: neutralised for spreadsheets (the default flavour); exact for the
 * analysis flavour, whose readers (pandas, R, DuckDB) run no formulas and would keep the apostrophe.
 */
export function defaultCsvCells(options: { csvFlavour?: CsvFlavour | undefined } | undefined): CsvCells {
  return options?.csvFlavour === 'analysis' ? 'exact' : 'neutralised';
}
