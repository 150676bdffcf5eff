import { describe, expect, it } from 'vitest';
import { itemSpans } from './spans';

const slices = (text: string, path: string[], count: number) =>
  itemSpans(text, path, count)?.map(([a, b]) => text.slice(a, b)) ?? null;

describe('where the items of an answer sit in its text', () => {
  it('finds each element as written, whatever its strings hold', () => {
    const items = [
      '{"text":"a \\"quoted\\" ] } [ { word","n":1.50}',
      '{"text":"ends in a backslash \\\\","e":"\\u00e9\\/"}',
      '{"t":"\\"}","u":"\\\\\\"]"}',
      '[1,[2,{"x":[]}]]',
      '"just a string, with [brackets]"',
      '-12.5e3',
      'null',
      '{}',
    ];
    const text = `{"status":"ok","replies":[${items.join(',')}],"next_cursor":"c"}`;
    expect(JSON.parse(text)).toBeTruthy();
    expect(slices(text, ['replies'], items.length)).toEqual(items);
  });

  it('follows nested keys and keeps the last of repeated keys, as JSON.parse does', () => {
    const text = '{"data":{"tweets":[{"id":"1"}],"x":{"tweets":[9]},"tweets":[{"id":"2"},{"id":"3"}]}}';
    expect(slices(text, ['data', 'tweets'], 2)).toEqual(['{"id":"2"}', '{"id":"3"}']);
    // a key written with escapes is the same key once read
    const escaped = '{"replies":[{"id":"1"}],"repl\\u0069es":[{"id":"2"}]}';
    expect(JSON.parse(escaped)).toEqual({ replies: [{ id: '2' }] });
    expect(slices(escaped, ['replies'], 1)).toEqual(['{"id":"2"}']);
  });

  it('reads a pretty-printed answer', () => {
    const text = JSON.stringify({ meta: { a: [1, 2] }, replies: [{ id: '1', t: 'x' }, { id: '2' }] }, null, 2);
    expect(slices(text, ['replies'], 2)?.map((s) => JSON.parse(s) as unknown)).toEqual([
      { id: '1', t: 'x' },
      { id: '2' },
    ]);
    expect(slices('\n [ ]', [], 0)).toEqual([]);
  });

  it('answers null when the list is not where the path says or not as long as the parsed one', () => {
    expect(itemSpans('{"replies":{"id":"1"}}', ['replies'], 1)).toBeNull();
    expect(itemSpans('{"tweets":[1]}', ['replies'], 1)).toBeNull();
    expect(itemSpans('[1,2]', ['replies'], 2)).toBeNull();
    expect(itemSpans('{"replies":[1,2]}', ['replies'], 3)).toBeNull();
  });
});
