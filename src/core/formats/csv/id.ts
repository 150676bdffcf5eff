import { scalarText } from '../../../shared/scalar-text';

/**
 * An id as a cell spreadsheets keep as text: `="1234567890123456789"` (the
 * Excel text-formula convention, also honoured by LibreOffice and Google
 * Sheets). Plain digits above 15 figures are rounded by every spreadsheet,
 * and R's read.csv turns them into lossy doubles. `decodeCsvId` undoes it.
 */
export function csvId(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  return `="${scalarText(value).replace(/"/g, '')}"`;
}

/** The exact id string back from a cell written by `csvId`. */
export function decodeCsvId(cell: string): string {
  const m = /^="(.*)"$/s.exec(cell);
  return m ? (m[1] as string) : cell;
}
