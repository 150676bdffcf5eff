import { describe, expect, it } from 'vitest';
import { itemSpans, receivedTexts } from './spans';

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
    // a later repeat of an outer key, or of the list's, replaces what the earlier one held
    expect(slices('{"data":{"other":1},"data":{"tweets":[{"id":"2"}]}}', ['data', 'tweets'], 1)).toEqual([
      '{"id":"2"}',
    ]);
    expect(itemSpans('{"data":{"tweets":[{"id":"1"}]},"data":{"other":1}}', ['data', 'tweets'], 1)).toBeNull();
    expect(itemSpans('{"data":{"tweets":[{"id":"1"}]},"data":"x"}', ['data', 'tweets'], 1)).toBeNull();
    expect(itemSpans('{"tweets":[{"id":"1"}],"tweets":{"id":"2"}}', ['tweets'], 1)).toBeNull();
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

describe("each kept item's text as it arrived", () => {
  const items = ['{"id":"1","n":12345678901234567890}', '{"id":"2","e":"\\u2028"}', '{"id":"3"}', '"x"'];
  const text = `{"tweets":[${items.join(', ')}]}`;
  const list = (JSON.parse(text) as { tweets: unknown[] }).tweets;

  it('gives the slice of each kept item, in order, with some left out', () => {
    expect(receivedTexts(text, ['tweets'], list, list)).toEqual(items);
    expect(receivedTexts(text, ['tweets'], list, [list[0], list[2]])).toEqual([items[0], items[2]]);
  });

  it('gives none for an item changed after parsing, or not in the list, or when the list is not in the text', () => {
    expect(receivedTexts(text, ['tweets'], list, list, new Set([1]))).toEqual([items[0], null, items[2], items[3]]);
    expect(receivedTexts(text, ['tweets'], list, [{ id: '9' }, list[3]])).toEqual([null, items[3]]);
    expect(receivedTexts(text, ['replies'], list, list)).toEqual([null, null, null, null]);
  });
});
