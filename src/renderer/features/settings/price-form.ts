/**
 * The editable price table as a form: one text field per price, labels and
 * hints in plain words, and validation that names the faulty field. The
 * result is checked against the shared `PriceTable` schema, so the form can
 * never save a table the usage meter would refuse.
 */
import { DEFAULT_PRICES, PriceTable } from '../../../shared/api/pricing';

export type PriceField = keyof PriceTable;

export interface PriceFieldSpec {
  field: PriceField;
  label: string;
  hint: string;
  /** whole numbers only */
  integer: boolean;
  /** zero not allowed */
  positive: boolean;
}

export const PRICE_FIELDS: readonly PriceFieldSpec[] = [
  {
    field: 'minimumPerCall',
    label: 'Minimum per call',
    hint: 'credits charged for any answered call, empty pages and most errors included',
    integer: false,
    positive: false,
  },
  { field: 'perPost', label: 'Per post', hint: 'credits per post returned', integer: false, positive: false },
  { field: 'perProfile', label: 'Per profile', hint: 'credits per profile returned', integer: false, positive: false },
  {
    field: 'perUserBatchLarge',
    label: 'Per user, large batch',
    hint: 'credits per user when a batch lookup asks for many ids at once',
    integer: false,
    positive: false,
  },
  {
    field: 'batchLargeThreshold',
    label: 'Large batch from',
    hint: 'ids asked for at once from which the large-batch price applies',
    integer: true,
    positive: true,
  },
  {
    field: 'communityPerCall',
    label: 'Community, per call',
    hint: 'credits per community lookup',
    integer: false,
    positive: false,
  },
  {
    field: 'listPerCall',
    label: 'List, per call',
    hint: 'credits per list posts or followers page',
    integer: false,
    positive: false,
  },
  {
    field: 'articlePerCall',
    label: 'Article, per call',
    hint: 'credits per article lookup (when available)',
    integer: false,
    positive: false,
  },
  {
    field: 'creditsPerUsd',
    label: 'Credits per US dollar',
    hint: 'the exchange rate used to show dollars',
    integer: false,
    positive: true,
  },
];

export type PriceFormValues = Record<PriceField, string>;
export type PriceFormErrors = Partial<Record<PriceField, string>>;

export function toFormValues(prices: PriceTable): PriceFormValues {
  const out = {} as PriceFormValues;
  for (const { field } of PRICE_FIELDS) out[field] = String(prices[field]);
  return out;
}

export const DEFAULT_FORM_VALUES: PriceFormValues = toFormValues(DEFAULT_PRICES);

const NUMBER = /^\d+(?:\.\d+)?$/;

export type PriceFormResult = { ok: true; prices: PriceTable } | { ok: false; errors: PriceFormErrors };

export function validatePriceForm(values: PriceFormValues): PriceFormResult {
  const errors: PriceFormErrors = {};
  const parsed: Record<string, number> = {};
  for (const spec of PRICE_FIELDS) {
    const text = (values[spec.field] ?? '').trim().replace(/[\s,_]/g, '');
    const what = spec.integer ? 'a whole number' : 'a number';
    if (!text) {
      errors[spec.field] = `${spec.label} is required.`;
      continue;
    }
    if (!NUMBER.test(text)) {
      errors[spec.field] = `${spec.label} must be ${what}${spec.positive ? ' above 0' : ' of 0 or more'}.`;
      continue;
    }
    const n = Number(text);
    if (spec.integer && !Number.isInteger(n)) errors[spec.field] = `${spec.label} must be a whole number.`;
    else if (spec.positive && n <= 0) errors[spec.field] = `${spec.label} must be above 0.`;
    else if (!Number.isFinite(n) || n > 1e9) errors[spec.field] = `${spec.label} is too large.`;
    else parsed[spec.field] = n;
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  const checked = PriceTable.safeParse(parsed);
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const field = issue.path[0] as PriceField;
      errors[field] = issue.message;
    }
    return { ok: false, errors };
  }
  return { ok: true, prices: checked.data };
}

/** Whether the table differs from the defaults (enables "Reset to defaults"). */
export function differsFromDefaults(prices: PriceTable): boolean {
  return PRICE_FIELDS.some(({ field }) => prices[field] !== DEFAULT_PRICES[field]);
}
