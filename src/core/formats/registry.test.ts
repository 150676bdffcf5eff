import { describe, expect, it } from 'vitest';
import { archiveOffers, choicesFor, chosenExport, offersFor } from '../../shared/ipc/export-offers';
import type { FormatControl, FormatOffer } from '../../shared/ipc/export';
import { formatRegistry } from './registry';

const offers = formatRegistry().offers();
const offer = (id: string): FormatOffer => offers.find((o) => o.id === id)!;

describe('export formats', () => {
  it('offers networks and id lists only for views they can be drawn from', () => {
    const of = (kind: Parameters<typeof offersFor>[1]) => offersFor(offers, kind).map((f) => f.id);
    expect(of('post')).toEqual([
      'json',
      'jsonl',
      'csv-spreadsheet',
      'csv-analysis',
      'parquet',
      'gexf',
      'gexf-1.3',
      'graphml',
      'gephi-csv',
      'ids-posts',
      'ids-users',
    ]);
    expect(of('user')).toContain('ids-users');
    expect(of('user')).not.toContain('ids-posts');
    // accounts alone draw no edge: a network of them would be nodes only
    expect(of('user').filter((id) => id.startsWith('gexf') || id === 'graphml' || id === 'gephi-csv')).toEqual([]);
    expect(of('listFollower')).toEqual(expect.arrayContaining(['gexf', 'graphml', 'gephi-csv']));
    expect(of('space')).toContain('gexf');
    expect(of('trend')).toEqual(['json', 'jsonl', 'csv-spreadsheet', 'csv-analysis', 'parquet']);
  });

  it('maps the id-list choices to the ids format with what to list', () => {
    expect(chosenExport(offer('ids-users'), {}, 'post')).toMatchObject({ format: 'ids', options: { idsOf: 'users' } });
    expect(chosenExport(offer('gexf'), {}, 'post')).toMatchObject({ format: 'gexf', options: {} });
    expect(chosenExport(offer('gexf-1.3'), {}, 'post')).toMatchObject({
      format: 'gexf',
      options: { gexfVersion: '1.3' },
    });
    expect(chosenExport(offer('graphml'), {}, 'post')).toMatchObject({ format: 'graphml', options: {} });
  });

  it('column sets apply to the kinds they describe', () => {
    const columns = offer('csv-analysis').controls.find((c) => c.key === 'csvColumns') as Extract<
      FormatControl,
      { type: 'select' }
    >;
    const columnSetApplies = (kind: Parameters<typeof choicesFor>[1], set: string) =>
      choicesFor(columns, kind).some((c) => c.value === set);
    expect(columnSetApplies('post', '4cat')).toBe(true);
    expect(columnSetApplies('user', '4cat')).toBe(false);
    expect(columnSetApplies('listFollower', 'twarc')).toBe(true);
    expect(columnSetApplies('space', 'twarc')).toBe(false);
  });

  it('offers the CSV in two flavours, named for who reads it', () => {
    expect(chosenExport(offer('csv-spreadsheet'), {}, 'post')).toMatchObject({
      format: 'csv',
      options: { csvFlavour: 'spreadsheet' },
    });
    expect(chosenExport(offer('csv-analysis'), {}, 'post')).toMatchObject({
      format: 'csv',
      options: { csvFlavour: 'analysis' },
    });
    expect(chosenExport(offer('jsonl'), {}, 'post')).toMatchObject({ format: 'jsonl', options: {} });
  });

  it('the CSV dialog: exact cells for spreadsheets only, the column set and one line per row for both', () => {
    const values = { csvCells: true, csvColumns: 'twarc', oneLinePerRow: true };
    expect(chosenExport(offer('csv-spreadsheet'), values, 'post')).toEqual({
      format: 'csv',
      options: { csvFlavour: 'spreadsheet', csvColumns: 'twarc', oneLinePerRow: true },
      csvCells: 'exact',
    });
    expect(chosenExport(offer('csv-analysis'), values, 'post')).toEqual({
      format: 'csv',
      options: { csvFlavour: 'analysis', csvColumns: 'twarc', oneLinePerRow: true },
      csvCells: undefined,
    });
    // nothing set: Skein's columns, line breaks kept, cells neutralised (the format's default)
    expect(chosenExport(offer('csv-spreadsheet'), {}, 'trend')).toEqual({
      format: 'csv',
      options: { csvFlavour: 'spreadsheet', csvColumns: 'skein', oneLinePerRow: false },
      csvCells: undefined,
    });
    // a column set that has no columns for this kind falls back to Skein's
    expect(chosenExport(offer('csv-analysis'), { csvColumns: '4cat' }, 'user').options.csvColumns).toBe('skein');
  });

  it('the Archive view offers JSON Lines first, the analysis CSV, and a network or post ids for posts only', () => {
    expect(archiveOffers(offers, 'post').map((o) => o.label)).toEqual([
      'JSON Lines',
      'JSON',
      'CSV for analysis',
      'Parquet',
      'Parquet dataset',
      'Network (GEXF)',
      'Network (GEXF 1.3, Gephi only)',
      'Network (GraphML)',
      'Network (Gephi CSV)',
      'Post ids only (.txt)',
      'User ids only (.txt)',
    ]);
    expect(archiveOffers(offers, 'user').map((o) => o.id)).toEqual([
      'jsonl',
      'json',
      'csv-analysis',
      'parquet',
      'parquet-dataset',
      'ids-users',
    ]);
  });

  it('knows each format by its id, and refuses any other with bad-input naming the field', () => {
    const registry = formatRegistry();
    expect(registry.get('gephi-csv').extension).toBe('csv');
    let refused: unknown;
    try {
      registry.get('xlsx');
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({ code: 'bad-input', details: { fields: [{ field: 'format' }] } });
    expect(() => formatRegistry([...registry.list(), registry.get('json')])).toThrow(/two formats/);
  });
});
