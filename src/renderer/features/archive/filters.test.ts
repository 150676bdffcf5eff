import { describe, expect, it } from 'vitest';
import { dayStart, EMPTY_FORM, toQuery } from './filters';

describe('the archive filter form', () => {
  it('reads days in UTC with the end day included', () => {
    const q = toQuery(' heron ', { ...EMPTY_FORM, from: '2026-11-22', to: '2026-11-23', author: '@ada' });
    expect(q).toMatchObject({
      text: 'heron',
      from: Date.UTC(2026, 10, 22),
      to: Date.UTC(2026, 10, 24),
      author: 'ada',
    });
  });

  it('sends only the flags asked for, and none for people', () => {
    expect(toQuery('', { ...EMPTY_FORM, reply: 'none', media: 'only' })).toMatchObject({ reply: false, media: true });
    expect(toQuery('', { ...EMPTY_FORM, reply: 'none' })).not.toHaveProperty('quote');
    expect(toQuery('', { ...EMPTY_FORM, kind: 'user', reply: 'none' })).not.toHaveProperty('reply');
  });

  it('ignores what is not a date or a collection id', () => {
    expect(dayStart('22/11/2026', 'utc')).toBeNull();
    expect(toQuery('', { ...EMPTY_FORM, from: 'yesterday', collection: '1; drop' })).toEqual({
      text: '',
      kind: 'post',
      sort: 'time',
    });
  });

  it('narrows the days to a bar picked on the chart', () => {
    const span = { from: Date.UTC(2026, 10, 22, 14), to: Date.UTC(2026, 10, 22, 15) };
    expect(toQuery('', { ...EMPTY_FORM, from: '2026-11-22' }, span)).toMatchObject(span);
  });
});
