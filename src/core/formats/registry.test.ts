import { describe, expect, it } from 'vitest';
import { formatOf } from './form';
import { columnSetApplies, formatsFor } from './formats';

describe('export formats', () => {
  it('offers networks and id lists only for views they can be drawn from', () => {
    const of = (kind: Parameters<typeof formatsFor>[0]) => formatsFor(kind).map((f) => f.value);
    expect(of('post')).toEqual([
      'json',
      'jsonl',
      'csv-spreadsheet',
      'csv-analysis',
      'parquet',
      'gexf',
      'gephi-csv',
      'ids-posts',
      'ids-users',
    ]);
    expect(of('user')).toContain('ids-users');
    expect(of('user')).not.toContain('ids-posts');
    expect(of('trend')).toEqual(['json', 'jsonl', 'csv-spreadsheet', 'csv-analysis', 'parquet']);
  });

  it('maps the id-list choices to the ids format with what to list', () => {
    expect(formatOf('ids-users')).toEqual({ format: 'ids', options: { idsOf: 'users' } });
    expect(formatOf('gexf')).toEqual({ format: 'gexf', options: {} });
  });

  it('column sets apply to the kinds they describe', () => {
    expect(columnSetApplies('post', '4cat')).toBe(true);
    expect(columnSetApplies('user', '4cat')).toBe(false);
    expect(columnSetApplies('listFollower', 'twarc')).toBe(true);
    expect(columnSetApplies('space', 'twarc')).toBe(false);
  });
});
