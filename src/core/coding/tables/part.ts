/**
 * Coding's part of a project: its tables, declared once for a project file and a team's PostgreSQL schema, the
 * tables a project's copy carries, and its methods (tables.ts) opened on the project's executor. The archive
 * hosts it by name and migrates it with the project; the composition registers it (compose/parts.ts).
 */
import type { Ddl, TablePart } from '../../db';
import { CodingTables } from './tables';

/**
 * Coding's first tables, as projects have had them: on a team's server, keys of text that pages are read in
 * order of sort by code point (`t.key`), as a file's do. A coder's name is unique without case: a file's column
 * compares without case (NOCASE), a server's unique index is on its lower case. A server also indexes a sample's
 * items by item, which a file never did.
 */
const FIRST = (t: Ddl): string => {
  const file = t.dialect === 'sqlite';
  return `
  CREATE TABLE codebooks (id ${t.id}, name ${t.text} NOT NULL, created_at ${t.int} NOT NULL);
  CREATE TABLE codebook_versions (codebook ${t.int} NOT NULL, version ${t.small} NOT NULL,
    definition ${t.text} NOT NULL, note ${t.text} NOT NULL DEFAULT '', created_at ${t.int} NOT NULL,
    PRIMARY KEY (codebook, version))${t.keyed};
  -- people and models; revealed_at: when the coder chose to see agreement (blind until then)
  CREATE TABLE coders (id ${t.id}, name ${t.text} NOT NULL${file ? ' COLLATE NOCASE UNIQUE' : ''},
    kind ${t.text} NOT NULL, model ${t.text}, created_at ${t.int} NOT NULL, revealed_at ${t.int});
  ${file ? '' : 'CREATE UNIQUE INDEX coders_name ON coders (lower(name));'}
  -- one value per item x field x coder of a codebook: the value (JSON), when, under which version; a model's
  -- values carry the model, prompt and settings they were made with (detail, JSON)
  CREATE TABLE codings (codebook ${t.int} NOT NULL, item_kind ${t.key} NOT NULL, item_id ${t.key} NOT NULL,
    field ${t.key} NOT NULL, coder ${t.int} NOT NULL, value ${t.text} NOT NULL, version ${t.small} NOT NULL,
    coded_at ${t.int} NOT NULL, detail ${t.text}, PRIMARY KEY (codebook, item_kind, item_id, field, coder))${t.keyed};
  CREATE INDEX codings_coder ON codings (codebook, coder);
  -- reconciliation: the decided value, apart from the coders' values
  CREATE TABLE adjudications (codebook ${t.int} NOT NULL, item_kind ${t.key} NOT NULL, item_id ${t.key} NOT NULL,
    field ${t.key} NOT NULL, value ${t.text} NOT NULL, version ${t.small} NOT NULL, decided_at ${t.int} NOT NULL,
    decided_by ${t.text} NOT NULL, note ${t.text} NOT NULL DEFAULT '',
    PRIMARY KEY (codebook, item_kind, item_id, field))${t.keyed};
  CREATE TABLE samples (id ${t.id}, codebook ${t.int} NOT NULL, name ${t.text} NOT NULL,
    definition ${t.text} NOT NULL, created_at ${t.int} NOT NULL);
  CREATE TABLE sample_items (sample ${t.int} NOT NULL, position ${t.small} NOT NULL, item_kind ${t.text} NOT NULL,
    item_id ${t.text} NOT NULL, stratum ${t.text}, PRIMARY KEY (sample, position))${t.keyed};
  ${file ? '' : 'CREATE INDEX sample_items_item ON sample_items (sample, item_kind, item_id);'}
  CREATE TABLE assignments (sample ${t.int} NOT NULL, coder ${t.int} NOT NULL, position ${t.small} NOT NULL,
    item_kind ${t.text} NOT NULL, item_id ${t.text} NOT NULL, overlap ${t.small} NOT NULL,
    PRIMARY KEY (sample, coder, position))${t.keyed};
  -- accounts whose items every export leaves out
  CREATE TABLE opt_outs (rowid ${t.id}, user_id ${t.text}, handle ${t.text}${file ? ' COLLATE NOCASE' : ''},
    note ${t.text} NOT NULL DEFAULT '', added_at ${t.int} NOT NULL);
  `;
};

/**
 * Who coded as whom: a switch of the person coding at a computer (from a coder, or from nobody, to another),
 * when, and who the computer's Skein records answers as. Kept in the project, so a team sees every switch.
 */
const SWITCHES = (t: Ddl): string => `
  CREATE TABLE coder_switches (rowid ${t.id}, from_coder ${t.int}, to_coder ${t.int} NOT NULL,
    researcher ${t.text} NOT NULL DEFAULT '', switched_at ${t.int} NOT NULL);
`;

export const CODING_PART: TablePart<CodingTables> = {
  name: 'coding',
  migrations: [FIRST, SWITCHES],
  // projects made before parts kept their own versions had these tables from the archive's schema 3 (a file)
  // and 2 (a team's server)
  before: { sqlite: 3, postgres: 2 },
  // in this order: a row's references are copied before it
  tables: [
    { name: 'codebooks', key: ['id'], columns: ['id', 'name', 'created_at'] },
    {
      name: 'codebook_versions',
      key: ['codebook', 'version'],
      columns: ['codebook', 'version', 'definition', 'note', 'created_at'],
    },
    { name: 'coders', key: ['id'], columns: ['id', 'name', 'kind', 'model', 'created_at', 'revealed_at'] },
    {
      name: 'codings',
      key: ['codebook', 'item_kind', 'item_id', 'field', 'coder'],
      columns: ['codebook', 'item_kind', 'item_id', 'field', 'coder', 'value', 'version', 'coded_at', 'detail'],
    },
    {
      name: 'adjudications',
      key: ['codebook', 'item_kind', 'item_id', 'field'],
      columns: ['codebook', 'item_kind', 'item_id', 'field', 'value', 'version', 'decided_at', 'decided_by', 'note'],
    },
    { name: 'samples', key: ['id'], columns: ['id', 'codebook', 'name', 'definition', 'created_at'] },
    {
      name: 'sample_items',
      key: ['sample', 'position'],
      columns: ['sample', 'position', 'item_kind', 'item_id', 'stratum'],
    },
    {
      name: 'assignments',
      key: ['sample', 'coder', 'position'],
      columns: ['sample', 'coder', 'position', 'item_kind', 'item_id', 'overlap'],
    },
    { name: 'opt_outs', key: ['rowid'], columns: ['rowid', 'user_id', 'handle', 'note', 'added_at'] },
    {
      name: 'coder_switches',
      key: ['rowid'],
      columns: ['rowid', 'from_coder', 'to_coder', 'researcher', 'switched_at'],
    },
  ],
  open: (db, { now }) => new CodingTables(db, now),
};
