/** What the export service is given (its dependencies) and asked (a start), and what it reports a written file with. */
import type { ItemKind } from '../../shared/api/catalog';
import type { PriceTable } from '../../shared/api/pricing';
import type {
  CsvCells,
  ExportCaps,
  ExportFormat,
  ExportJob,
  ExportOptions,
  ExportScope,
  ViewDescriptor,
} from '../../shared/ipc/export';
import type { Formats, ExportManifest } from '../formats';
import type { IdList, MissingList } from '../ids';
import type { Clock, Confirm } from '../ports';
import type { ItemPolicy } from './item-policy';
import type { JournalItem } from '../walk';
import type { ExportContext } from './manifest';
import type { PageSource } from '../walk';
import type { ProjectItems } from './project-items';
import type { OpenLive, WriteFromJournal } from './live-thread';

export interface ExportServiceDeps {
  source: PageSource;
  /** a folder in the user data dir that holds unfinished jobs */
  stateDir: string;
  clock: Clock;
  /** app identity, mode and base URL at the time of writing */
  context: () => ExportContext | Promise<ExportContext>;
  prices?: () => PriceTable;
  /** every change of a job (progress, status): taskbar, notification, push to the renderer */
  onUpdate?: (job: ExportJob) => void;
  /** an unexpected failure (a bug), for the log */
  onInternalError?: (error: unknown) => void;
  /** asks the user in main (unforgeable): resuming with looser caps than the job's, or with none; absent: refused */
  confirm?: Confirm;
  /** the ids of an id import (a hydration's `view.idsFrom`); absent: such views are refused */
  importedIds?: (importId: string) => Promise<IdList>;
  /** a hydration's collection ended (complete or not): the ids it asked for and did not get, with why */
  onMissing?: (job: ExportJob, missing: MissingList) => Promise<void>;
  /** the current project: a hydration takes the ids it already holds from it, at no cost (absent: all are fetched) */
  project?: ProjectItems;
  /**
   * a file was written: its items in order (the research project keeps them as a collection); what it made of
   * them (the collection, a keeping of its media) is told on the job
   */
  onWritten?: (run: WrittenRun) => Promise<WrittenOutcome | void>;
  /**
   * opens a format's file written while the export collects: in a worker thread of its own in the app
   * (`liveInWorker`); default: in this thread
   */
  openLive?: OpenLive;
  /**
   * writes an export's files from its journal at its end, in a worker of its own in the app
   * (`writeFromJournalInWorker`: a built-in format that makes rows, CSV and Parquet); default: in this thread
   */
  writeFromJournal?: WriteFromJournal;
  /** the formats it writes (default: the built-in ones) */
  formats?: Formats;
  /** what the project asks of an export of these items: codes as extra columns, opted-out accounts left out */
  policy?: (itemKind: ItemKind) => Promise<ItemPolicy | null>;
}

/** a project, as a written export's keeping names it */
export interface KeptIn {
  id: string;
  name: string;
}

export interface WrittenRun {
  job: ExportJob;
  manifest: ExportManifest;
  items: () => AsyncIterable<JournalItem>;
  /** the collection an earlier try began before it failed: completed (its items written again), not begun anew */
  collection?: number;
  /** the project an earlier try kept it in (its items are there): another project must not take it */
  project?: KeptIn;
  /** told which project this try keeps it in, before anything is written there */
  into: (project: KeptIn) => void;
  /**
   * told the collection's number as soon as it exists, and awaited: kept with the job, so a try that fails (or a
   * Skein killed) after it completes that collection instead of beginning another
   */
  begun: (collection: number) => Promise<void>;
}

/** what the project made of a written export, as its job tells it */
export type WrittenOutcome = Pick<ExportJob, 'collection' | 'mediaJob'>;

export interface StartExport {
  /** a saved job's stable id (its file and project), so that running it again resumes it; absent: a new one */
  id?: string;
  view: ViewDescriptor;
  format: ExportFormat;
  scope: ExportScope;
  caps?: ExportCaps;
  options?: ExportOptions;
  /** CSV text cells; absent: neutralised for spreadsheets, exact for analysis (pandas, R, DuckDB run no formulas) */
  csvCells?: CsvCells;
  /** keep the media of the posts once written (a view of posts only) */
  keepMedia?: boolean;
  /** chosen in main (save dialog) */
  targetPath: string;
}
