/**
 * The agreement report of a codebook's compared fields (category and ordinal) from the coders' values: per
 * field — and per category of a multiple-choice field, each read as present or absent — Krippendorff's α at the
 * levels the field's values have (nominal; ordinal and interval for a scale), Cohen's κ when two coders are
 * compared, Fleiss' κ over the units coded by the most common number of coders, percent agreement, the units
 * and coders behind each, and a 95 % bootstrap interval of the first α.
 */
import type { CodebookDefinition, FieldDef } from '../../../shared/coding/codebook';
import type { AgreementRow } from '../../../shared/ipc/coding';
import {
  bootstrapInterval,
  cohenKappa,
  fleissKappa,
  krippendorffAlpha,
  percentAgreement,
  type Level,
  type Unit,
} from './stats';

/** One value as the report reads it: whose, on which item, for which field. */
export interface ReportValue {
  unit: string;
  coder: number;
  field: string;
  value: string | readonly string[];
}

/** The bootstrap's draws and seed: stated in every report, so it can be made again. */
export const BOOTSTRAP = { draws: 1000, seed: 1, level: 0.95 } as const;

/** Cells of a units × coders matrix: value index per coder, per unit. */
type Matrix = Map<string, Map<number, number>>;

async function rowFor(
  field: FieldDef,
  category: string | null,
  matrix: Matrix,
  k: number,
  levels: readonly Level[],
  numbers: readonly number[] | undefined,
): Promise<AgreementRow> {
  const coders = new Set<number>();
  const units: Unit[] = [];
  const byUnit: Array<Map<number, number>> = [];
  for (const cells of matrix.values()) {
    if (cells.size < 2) continue;
    for (const c of cells.keys()) coders.add(c);
    units.push([...cells.values()]);
    byUnit.push(cells);
  }
  const alpha: AgreementRow['alpha'] = {};
  for (const level of levels) alpha[level] = krippendorffAlpha(units, k, level, numbers);
  const first = levels[0]!;
  const interval = await bootstrapInterval(units, (s) => krippendorffAlpha(s, k, first, numbers), BOOTSTRAP);

  // Cohen's κ: exactly two coders behind the pairable units
  let cohen: number | null = null;
  if (coders.size === 2) {
    const [a, b] = [...coders];
    const pairs = byUnit.map((cells) => [cells.get(a!)!, cells.get(b!)!] as const);
    cohen = cohenKappa(pairs, k);
  }
  // Fleiss' κ: the units rated by the most common number of coders
  const sizes = new Map<number, number>();
  for (const u of units) sizes.set(u.length, (sizes.get(u.length) ?? 0) + 1);
  const m = [...sizes.entries()].sort((x, y) => y[1] - x[1] || y[0] - x[0])[0]?.[0];
  const fleissUnits = units.filter((u) => u.length === m);
  const counts = fleissUnits.map((u) => {
    const row = new Array<number>(k).fill(0);
    for (const v of u) row[v]!++;
    return row;
  });
  return {
    field: field.key,
    label: field.label,
    category,
    levels: [...levels],
    units: units.length,
    coders: coders.size,
    values: units.reduce((s, u) => s + u.length, 0),
    alpha,
    interval: interval && { level: first, low: interval.low, high: interval.high, draws: interval.draws },
    cohenKappa: cohen,
    fleissKappa: fleissUnits.length > 0 ? fleissKappa(counts) : null,
    fleissUnits: fleissUnits.length,
    percent: percentAgreement(units),
  };
}

/** Numbers for the interval level when every level's value is a number; otherwise none (the ordinal is used). */
function numericLevels(field: FieldDef): number[] | undefined {
  const numbers = field.categories.map((c) => Number(c.value));
  return numbers.every((n) => Number.isFinite(n)) && new Set(numbers).size === numbers.length ? numbers : undefined;
}

/** Agreement of every compared field of a codebook version over these values (other fields' values are ignored). */
export async function agreementRows(
  definition: CodebookDefinition,
  values: readonly ReportValue[],
): Promise<AgreementRow[]> {
  const byField = new Map<string, ReportValue[]>();
  for (const v of values) {
    const list = byField.get(v.field) ?? [];
    list.push(v);
    byField.set(v.field, list);
  }
  const rows: AgreementRow[] = [];
  for (const field of definition.fields) {
    if (field.type !== 'category' && field.type !== 'ordinal') continue;
    const list = byField.get(field.key) ?? [];
    const index = new Map(field.categories.map((c, i) => [c.value, i]));
    if (field.type === 'category' && field.multiple) {
      // each category as present (1) or absent (0) for every coder who coded the field on the item
      for (const category of field.categories) {
        const matrix: Matrix = new Map();
        for (const v of list) {
          const chosen = Array.isArray(v.value) ? v.value : [v.value];
          const cells = matrix.get(v.unit) ?? new Map<number, number>();
          cells.set(v.coder, chosen.includes(category.value) ? 1 : 0);
          matrix.set(v.unit, cells);
        }
        rows.push(await rowFor(field, category.value, matrix, 2, ['nominal'], undefined));
      }
      continue;
    }
    const matrix: Matrix = new Map();
    for (const v of list) {
      const i = typeof v.value === 'string' ? index.get(v.value) : undefined;
      // a value of a category a later version removed is not comparable under this one
      if (i === undefined) continue;
      const cells = matrix.get(v.unit) ?? new Map<number, number>();
      cells.set(v.coder, i);
      matrix.set(v.unit, cells);
    }
    const numbers = numericLevels(field);
    const levels: Level[] = field.type === 'ordinal' ? ['ordinal', 'interval'] : ['nominal'];
    rows.push(await rowFor(field, null, matrix, field.categories.length, levels, numbers));
  }
  return rows;
}
