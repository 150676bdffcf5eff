/**
 * CSV: one file per entity kind (a space: `x.csv` and `x.participants.csv`), offered in two flavours named for
 * who reads it — for spreadsheets (BOM, long ids as `="…"`) and for analysis (plain ids) — with Skein's
 * columns or a preset's (twarc-csv, 4CAT), written while the export collects when it can (csv/live.ts).
 * The internals are in csv/.
 */
import type { FormatControl } from '../../shared/ipc/export';
import type { Format } from './format';
import { defaultCsvCells } from './csv/formula';
import { openLiveCsv } from './csv/live';
import { COLUMN_SETS } from './csv/presets';
import { csvSection } from './csv/section';
import { csvFiles, csvLoaderSource, writeCsv } from './csv/write';
import { howToRead } from './loaders';

const COLUMNS: FormatControl = {
  type: 'select',
  key: 'csvColumns',
  label: 'Columns',
  choices: COLUMN_SETS.map((c) => ({ ...c, kinds: c.kinds && [...c.kinds] })),
};

const ONE_LINE: FormatControl = {
  type: 'toggle',
  key: 'oneLinePerRow',
  label: 'One line per row',
  note: '(line breaks in text written as \\n)',
  on: true,
  off: false,
};

/** spreadsheets only: the analysis flavour writes cells exactly already */
const EXACT_CELLS: FormatControl = {
  type: 'toggle',
  key: 'csvCells',
  label: 'Write formula-like cells exactly',
  note: '(unsafe to open in a spreadsheet: cells starting with = + - @ may run as formulas)',
  on: 'exact',
};

export const csv: Format = {
  id: 'csv',
  label: 'CSV',
  hint: 'one file per kind of item, provenance columns last',
  extension: 'csv',
  offers: [
    {
      id: 'csv-spreadsheet',
      label: 'CSV for spreadsheets',
      hint: 'Excel, LibreOffice, Sheets: long ids kept as text',
      options: { csvFlavour: 'spreadsheet' },
      hydration: true,
      controls: [EXACT_CELLS, COLUMNS, ONE_LINE],
    },
    {
      id: 'csv-analysis',
      label: 'CSV for analysis',
      hint: 'pandas, R, DuckDB: plain ids, no byte-order mark, text exactly as received',
      options: { csvFlavour: 'analysis' },
      archive: { kinds: ['post', 'user'] },
      hydration: true,
      controls: [COLUMNS, ONE_LINE],
    },
  ],
  files: csvFiles,
  rowProvenance: 'the last five columns of every CSV file',
  section: ({ target, plan, options, csvCells }) => {
    const source = csvLoaderSource(target, plan, options);
    // the id columns per file name
    const idColumns = Object.fromEntries(source.tables.map((t) => [t.file, [...t.idColumns]]));
    return { csv: csvSection(idColumns, options, csvCells, howToRead(source, target)) };
  },
  textCells: defaultCsvCells,
  write: writeCsv,
  live: (input) => openLiveCsv(input),
  columns: 'rows',
};
