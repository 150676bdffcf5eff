import { describe, expect, it } from 'vitest';
import { linksOf, pageUrlOf } from './links';

describe('the pages a post links to', () => {
  it("keeps a post's expanded links, and those of the post it reposts or quotes, credited to it", () => {
    const post = {
      id: '10',
      entities: { urls: [{ url: 'https://t.co/a', expanded_url: 'https://news.example/a#top' }] },
      retweeted_tweet: { id: '11', entities: { urls: [{ expanded_url: 'https://blog.example/b?x=1' }] } },
      quoted_tweet: { id: '12', entities: { urls: [{ expanded_url: 'https://news.example/a' }] } },
    };
    expect(linksOf(post)).toEqual([
      { url: 'https://news.example/a', postId: '10' },
      { url: 'https://blog.example/b?x=1', postId: '10' },
    ]);
  });

  it("leaves out the platform's own status, photo and short links, and what is not a web address", () => {
    for (const href of [
      'https://x.com/someone/status/123',
      'https://twitter.com/someone/status/123/photo/1',
      'https://x.com/i/web/status/123',
      'https://social.example/someone/status/9/video/1',
      'https://t.co/abc',
      'mailto:a@b.example',
      'javascript:alert(1)',
      'not a url',
      42,
      null,
    ])
      expect(pageUrlOf(href)).toBeNull();
    // a profile or any other page on the platform is a page like any other
    expect(pageUrlOf('https://x.com/someone')).toBe('https://x.com/someone');
    expect(pageUrlOf('http://plain.example/p')).toBe('http://plain.example/p');
  });

  it('a post with no id, no entities, or entities of the wrong shape links to nothing', () => {
    expect(linksOf({ entities: { urls: [{ expanded_url: 'https://a.example/' }] } })).toEqual([]);
    expect(linksOf({ id: '1' })).toEqual([]);
    expect(linksOf({ id: '1', entities: { urls: {} } })).toEqual([]);
    expect(linksOf({ id: '1', entities: { urls: [null, 'x', { expanded_url: 7 }] } })).toEqual([]);
    expect(linksOf('text')).toEqual([]);
  });
});
