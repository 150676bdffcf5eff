/**
 * A project's coding tables, on either store: the SQLite store's (coding.ts) say what they are,
 * PostgreSQL's (postgres/coding.ts) fit them, and the archive's host serves every method listed here by name,
 * with the project's handle first.
 */
import type { SqliteCoding } from './coding';
import type { ProjectStore } from './store';

/** Every method of `T`, its result awaitable (a store whose calls wait on a server fits it too). */
type AwaitableMethods<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Awaited<R> | Promise<Awaited<R>> : never;
};

/**
 * A project's coding tables (issue 36): codebooks and versions, coders, values, adjudications, samples, opted-out
 * accounts. The methods are the SQLite store's (coding.ts); a sample's source is read through `source`.
 */
export type ProjectCoding = AwaitableMethods<SqliteCoding>;

/** The coding methods the archive's host serves by name (`source` is served as sourceOpen/Next/Close). */
export type CodingMethod = Exclude<keyof ProjectCoding, 'source'>;
/** every one of them, once (a method left out, or one that is not there, does not compile) */
const CODING: Record<CodingMethod, true> = {
  codebooks: true,
  codebook: true,
  usedVersion: true,
  createCodebook: true,
  putVersion: true,
  coders: true,
  coder: true,
  coderByName: true,
  addCoder: true,
  updateCoder: true,
  reveal: true,
  setCoding: true,
  setCodings: true,
  clearCoding: true,
  valuesOf: true,
  codings: true,
  adjudicate: true,
  setAdjudications: true,
  clearAdjudication: true,
  adjudications: true,
  population: true,
  addSample: true,
  samples: true,
  sample: true,
  sampleItems: true,
  assignments: true,
  optOuts: true,
  accountOf: true,
  addOptOut: true,
  removeOptOut: true,
  meta: true,
  setMeta: true,
};
export const CODING_METHODS = Object.keys(CODING) as CodingMethod[];

/** A project on either store, with its coding tables: what the archive's host serves. */
export interface Project extends ProjectStore {
  readonly coding: ProjectCoding;
}
