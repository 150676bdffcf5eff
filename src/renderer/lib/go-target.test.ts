import { describe, expect, it } from 'vitest';
import { goCandidates, goRefusal } from './go-target';
import { formatRoute } from './routes';

const first = (s: string) => {
  const c = goCandidates(s)[0];
  return c ? formatRoute(c.route) : null;
};

describe('goCandidates', () => {
  it('opens post URLs from any host and their ids', () => {
    expect(first('https://x.com/ada/status/1850000000000000001')).toBe('#/post/1850000000000000001/replies');
    expect(first('https://twitter.com/ada/status/42?s=20&t=abc')).toBe('#/post/42/replies');
    expect(first('x.com/i/web/status/77')).toBe('#/post/77/replies');
    expect(first('https://mobile.twitter.com/ada/status/5/photo/1')).toBe('#/post/5/replies');
    expect(first('  1850000000000000001  ')).toBe('#/post/1850000000000000001/replies');
  });
  it('offers every kind a bare number can be, post first', () => {
    expect(goCandidates('123').map((c) => c.route.name)).toEqual(['post', 'user', 'community', 'list']);
  });
  it('opens profiles by URL, @handle or bare handle', () => {
    expect(first('https://x.com/Ada_Lovelace')).toBe('#/user/%40Ada_Lovelace/posts');
    expect(first('https://x.com/ada/with_replies')).toBe('#/user/%40ada/posts');
    expect(first('@ada')).toBe('#/user/%40ada/posts');
    expect(first('ada')).toBe('#/user/%40ada/posts');
    expect(goCandidates('ada').map((c) => c.route.name)).toEqual(['user', 'search']);
  });
  it('opens communities, lists and spaces by URL or typed id', () => {
    expect(first('https://x.com/i/communities/1500000000000000000')).toBe('#/community/1500000000000000000');
    expect(first('https://x.com/i/lists/99')).toBe('#/list/99');
    expect(first('https://x.com/i/spaces/1YqKDqWqdPLxV')).toBe('#/space/1YqKDqWqdPLxV');
    expect(first('1YqKDqWqdPLxV')).toBe('#/space/1YqKDqWqdPLxV');
    expect(first('community 123')).toBe('#/community/123');
    expect(first('list:123')).toBe('#/list/123');
    expect(first('space 1YqKDqWqdPLxV')).toBe('#/space/1YqKDqWqdPLxV');
    expect(first('user 42')).toBe('#/user/42/posts');
  });
  it('falls back to people search for free text, and to nothing for blanks', () => {
    expect(first('machine learning')).toBe('#/search?q=machine+learning');
    expect(goCandidates('   ')).toEqual([]);
  });
  it('does not treat the social site’s own pages as profiles, nor other schemes as links, and never searches for a link', () => {
    expect(goCandidates('https://x.com/home')).toEqual([]);
    expect(goRefusal('https://x.com/home')).toMatch(/cannot open this page/);
    expect(goCandidates('javascript:alert(1)')).toEqual([]);
    expect(goRefusal('javascript:alert(1)')).toMatch(/opens only x.com and twitter.com links/);
  });
  it('reads only the service’s own hosts: another site’s link opens nothing and costs nothing', () => {
    for (const link of [
      'https://www.youtube.com/watch?v=abc',
      'youtube.com/watch',
      'https://example.com/ada/status/42',
      'https://x.com.evil.example/ada',
      'https://evilx.com/ada',
    ]) {
      expect(goCandidates(link)).toEqual([]);
      expect(goRefusal(link)).toMatch(/can't be opened here/);
    }
    expect(goRefusal('https://www.youtube.com/watch?v=abc')).toBe(
      "Skein opens only x.com and twitter.com links; www.youtube.com can't be opened here. Nothing was fetched.",
    );
    expect(first('https://www.x.com/ada')).toBe('#/user/%40ada/posts');
    expect(goRefusal('ada')).toBeNull();
    expect(goRefusal('https://x.com/ada')).toBeNull();
  });
});
