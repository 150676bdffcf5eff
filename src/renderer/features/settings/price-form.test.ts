import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES, PriceTable } from '../../../shared/api/pricing';
import { DEFAULT_FORM_VALUES, PRICE_FIELDS, differsFromDefaults, toFormValues, validatePriceForm } from './price-form';

describe('the price table form', () => {
  it('has a field for every price in the table', () => {
    expect(PRICE_FIELDS.map((f) => f.field).sort()).toEqual(Object.keys(PriceTable.shape).sort());
  });

  it('round-trips the defaults', () => {
    expect(validatePriceForm(DEFAULT_FORM_VALUES)).toEqual({ ok: true, prices: DEFAULT_PRICES });
  });

  it('accepts edits, decimals and thousands separators', () => {
    const r = validatePriceForm({
      ...DEFAULT_FORM_VALUES,
      perPost: ' 12.5 ',
      creditsPerUsd: '100,000',
      minimumPerCall: '0',
    });
    expect(r).toEqual({ ok: true, prices: { ...DEFAULT_PRICES, perPost: 12.5, minimumPerCall: 0 } });
  });

  it('names each faulty field with what is wrong', () => {
    const r = validatePriceForm({
      ...DEFAULT_FORM_VALUES,
      perPost: '-1',
      perProfile: '',
      batchLargeThreshold: '2.5',
      creditsPerUsd: '0',
      listPerCall: 'lots',
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual({
      perPost: 'Per post must be a number of 0 or more.',
      perProfile: 'Per profile is required.',
      batchLargeThreshold: 'Large batch from must be a whole number.',
      creditsPerUsd: 'Credits per US dollar must be above 0.',
      listPerCall: 'List, per call must be a number of 0 or more.',
    });
  });

  it('knows when the table was edited', () => {
    expect(differsFromDefaults(DEFAULT_PRICES)).toBe(false);
    expect(differsFromDefaults({ ...DEFAULT_PRICES, articlePerCall: 1 })).toBe(true);
    expect(toFormValues({ ...DEFAULT_PRICES, perPost: 7 }).perPost).toBe('7');
  });
});
