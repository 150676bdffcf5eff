import { describe, expect, it } from 'vitest';
import { readArticle } from './article-shape';

describe('readArticle', () => {
  it('finds title, text and cover under the usual names, however nested', () => {
    const a = readArticle({
      article: {
        result: {
          title: 'Engines',
          plain_text: 'Long text',
          cover_media: { media_info: { original_img_url: 'https://img.example/c.png' } },
        },
      },
    });
    expect(a.title).toBe('Engines');
    expect(a.text).toBe('Long text');
    expect(a.coverUrl).toBe('https://img.example/c.png');
    expect(a.fields.length).toBeGreaterThan(0);
  });
  it('shows what it cannot name as fields, and never a non-web cover', () => {
    const a = readArticle({ foo: 1, cover_url: 'javascript:alert(1)' });
    expect(a.title).toBeNull();
    expect(a.text).toBeNull();
    expect(a.coverUrl).toBeNull();
    expect(a.fields).toEqual([
      { key: 'foo', value: '1' },
      { key: 'cover_url', value: 'javascript:alert(1)' },
    ]);
    expect(readArticle(null)).toEqual({
      title: null,
      text: null,
      coverUrl: null,
      fields: [{ key: '(value)', value: 'null' }],
    });
  });
});

describe('carriesArticle', () => {
  it('offers "Open article" only for a post that carries one', async () => {
    const { carriesArticle } = await import('./article-shape');
    expect(carriesArticle({ article: { title: 'x' } })).toBe(true);
    for (const article of [undefined, null, {}, [], 'x']) expect(carriesArticle({ article })).toBe(false);
    expect(carriesArticle(null)).toBe(false);
  });
});
