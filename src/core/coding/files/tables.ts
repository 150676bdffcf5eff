/**
 * The coding tables researchers open in pandas, R or a reliability tool: the annotation table (one row per item
 * × field × coder, `item_id, field, value, coder, coded_at, codebook_version`, the adjudicated values as the
 * coder `adjudicated`), ReCal's CSV (one row per unit, one column per coder, numbers, no header; a legend
 * beside it says which column is whom and which number which category), and a codebook as CSV (one row per
 * category) in both directions. Ids are written as plain text: these files are for analysis, not spreadsheets.
 */
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import {
  CodebookDefinition,
  isUnread,
  valueText,
  type CategoryDef,
  type FieldDef,
} from '../../../shared/coding/codebook';
import type { Adjudication, Coder, Coding } from '../../../shared/coding/records';

/** Rows as CSV, each line ended by a line feed (every coding file writes it so). */
export const csv = (rows: ReadonlyArray<ReadonlyArray<string | number | null>>): string =>
  stringify(rows as Array<Array<string | number | null>>, { record_delimiter: '\n' });

const iso = (ms: number) => new Date(ms).toISOString();

const ANNOTATION_COLUMNS = [
  'item_id',
  'item_kind',
  'field',
  'value',
  'coder',
  'coder_kind',
  'coded_at',
  'codebook_version',
] as const;

/** The annotation table: every value, then the adjudicated ones (coder `adjudicated`), sorted by item and field. */
export function annotationTable(
  codings: readonly Coding[],
  adjudications: readonly Adjudication[],
  coders: readonly Coder[],
  idOf: (kind: string, id: string) => string = (_k, id) => id,
): string {
  const names = new Map(coders.map((c) => [c.id, c]));
  const rows: Array<Array<string | number>> = [];
  for (const c of codings) {
    const who = names.get(c.coder);
    rows.push([
      idOf(c.kind, c.id),
      c.kind,
      c.field,
      valueText(c.value),
      who?.name ?? `coder ${c.coder}`,
      who?.kind ?? 'person',
      iso(c.codedAt),
      c.version,
    ]);
  }
  for (const a of adjudications)
    rows.push([
      idOf(a.kind, a.id),
      a.kind,
      a.field,
      valueText(a.value),
      'adjudicated',
      'adjudication',
      iso(a.decidedAt),
      a.version,
    ]);
  rows.sort((x, y) => String(x[0]).localeCompare(String(y[0])) || String(x[2]).localeCompare(String(y[2])));
  return csv([[...ANNOTATION_COLUMNS], ...rows]);
}

export interface RecalFile {
  /** ReCal's data: no header, one row per unit, one column per coder (per category and coder for a multiple-choice field) */
  data: string;
  /** which column is whom, which number which category, which row which item */
  legend: string;
  units: number;
  coders: number;
}

/**
 * ReCal's CSV of one field: the units every coder of the field coded (ReCal2 and ReCal3 take no missing values),
 * each value as its category's number (1 … k in the codebook's order; an ordinal level's own number when every
 * level is one). A multiple-choice field gives one column per category and coder, 1 when chosen (ReCal2's
 * layout of several variables with two coders).
 */
export function recalFile(field: FieldDef, codings: readonly Coding[], coders: readonly Coder[]): RecalFile {
  const mine = codings.filter((c) => c.field === field.key);
  const coderIds = [...new Set(mine.map((c) => c.coder))].sort((a, b) => a - b);
  const byUnit = new Map<string, Map<number, Coding>>();
  for (const c of mine) {
    const k = `${c.kind}:${c.id}`;
    const cells = byUnit.get(k) ?? new Map<number, Coding>();
    cells.set(c.coder, c);
    byUnit.set(k, cells);
  }
  const numeric = field.categories.every((c) => /^-?\d+(\.\d+)?$/.test(c.value));
  const numberOf = (value: string) => {
    const i = field.categories.findIndex((c) => c.value === value);
    if (i < 0) return null;
    return field.type === 'ordinal' && numeric ? Number(value) : i + 1;
  };
  const names = new Map(coders.map((c) => [c.id, c.name]));
  const legendRows: Array<Array<string | number>> = [['what', 'number or column', 'means']];
  const rows: Array<Array<number>> = [];
  const units: string[] = [];
  const columns: string[] = [];
  if (field.multiple) {
    for (const cat of field.categories)
      for (const coder of coderIds) columns.push(`${cat.value} · ${names.get(coder) ?? coder}`);
  } else for (const coder of coderIds) columns.push(names.get(coder) ?? String(coder));
  for (const [unit, cells] of byUnit) {
    // a unit is compared whole: every coder's value, none this Skein cannot read (agreement leaves those out too)
    if (coderIds.some((c) => !cells.has(c) || isUnread(cells.get(c)!.value))) continue;
    if (field.multiple) {
      const row: number[] = [];
      for (const cat of field.categories)
        for (const coder of coderIds) {
          const v = cells.get(coder)!.value;
          row.push((Array.isArray(v) ? v : [v]).includes(cat.value) ? 1 : 0);
        }
      rows.push(row);
    } else {
      const row = coderIds.map((coder) => {
        const v = cells.get(coder)!.value;
        return typeof v === 'string' ? numberOf(v) : null;
      });
      if (row.some((n) => n === null)) continue;
      rows.push(row as number[]);
    }
    units.push(unit);
  }
  columns.forEach((c, i) => legendRows.push(['column', i + 1, c]));
  if (!field.multiple)
    field.categories.forEach((c) => legendRows.push(['value', numberOf(c.value) ?? '', `${c.value}: ${c.label}`]));
  units.forEach((u, i) => legendRows.push(['row', i + 1, u]));
  return { data: csv(rows), legend: csv(legendRows), units: units.length, coders: coderIds.length };
}

const CODEBOOK_CSV_COLUMNS = [
  'field',
  'field_label',
  'field_type',
  'multiple',
  'field_description',
  'value',
  'label',
  'description',
  'examples',
  'key',
] as const;

/** A codebook as CSV: one row per category (a text or note field: one row without a value). */
export function codebookCsv(definition: CodebookDefinition): string {
  const rows: Array<Array<string>> = [[...CODEBOOK_CSV_COLUMNS]];
  for (const f of definition.fields) {
    const head = [f.key, f.label, f.type, f.multiple ? 'true' : 'false', f.description];
    if (f.categories.length === 0) rows.push([...head, '', '', '', '', '']);
    for (const c of f.categories)
      rows.push([...head, c.value, c.label, c.description, c.examples.join(' | '), c.key ?? '']);
  }
  return csv(rows);
}

/** A codebook CSV back (Skein's columns; `field` and `value` suffice, the rest is optional). */
export function readCodebookCsv(text: string): CodebookDefinition {
  const records = parse<Record<string, string | undefined>>(text.replace(/^\uFEFF/, ''), {
    columns: true,
    skip_empty_lines: true,
    trim: true,
    bom: true,
  });
  if (records.length === 0) throw new Error('the CSV has no rows');
  if (!('field' in records[0]!))
    throw new Error('the CSV has no “field” column (Skein writes field, field_label, field_type, value, label, …)');
  const fields = new Map<string, FieldDef>();
  for (const r of records) {
    const key = r.field ?? '';
    let f = fields.get(key);
    if (!f) {
      const type =
        (['category', 'ordinal', 'text', 'note'] as const).find((t) => t === r.field_type) ??
        ((r.value ?? '') === '' ? 'text' : 'category');
      f = {
        key,
        label: r.field_label || key,
        description: r.field_description ?? '',
        type,
        multiple: r.multiple === 'true' || r.multiple === '1' || r.multiple === 'yes',
        categories: [],
      };
      fields.set(key, f);
    }
    if ((r.value ?? '') === '') continue;
    const category: CategoryDef = {
      value: r.value!,
      label: r.label || r.value!,
      description: r.description ?? '',
      examples: (r.examples ?? '').split(' | ').filter((e) => e !== ''),
      ...(r.key ? { key: r.key } : {}),
    };
    f.categories.push(category);
  }
  const parsed = CodebookDefinition.safeParse({ fields: [...fields.values()] });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`the CSV does not make a codebook: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
  }
  return parsed.data;
}
