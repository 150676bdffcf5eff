import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QUERY_TYPES } from '../../shared/api/catalog';
import { formatRoute, pageKey, parseRoute, routes, type Route, CODING_TABS } from './routes';

describe('parseRoute', () => {
  it('opens home for an empty hash', () => {
    expect(parseRoute('')).toEqual({ name: 'home' });
    expect(parseRoute('#/')).toEqual({ name: 'home' });
  });
  it('reads a post with its tab, order and view', () => {
    expect(parseRoute('#/post/123/quotes')).toEqual(routes.post('123', 'quotes'));
    expect(parseRoute('#/post/123?order=Latest&view=flat')).toEqual(routes.post('123', 'replies', 'Latest', true));
    expect(parseRoute('#/post/123?order=Latest&view=flat&sort=oldest')).toMatchObject({ flat: true, oldest: true });
    // oldest first is a flat list's sort: without view=flat it means nothing
    expect(parseRoute('#/post/123?sort=oldest')).toMatchObject({ flat: false, oldest: false });
    expect(parseRoute('#/post/123/replies?order=Bogus')).toEqual(routes.post('123', 'replies', 'Relevance', false));
  });
  it('reads a profile by id or by handle, with the timeline toggles', () => {
    expect(parseRoute('#/user/42/mentions')).toEqual(routes.userById('42', 'mentions'));
    expect(parseRoute('#/user/%40ada_l')).toEqual(routes.userByHandle('ada_l'));
    expect(parseRoute('#/user/42?replies=1&parent=1')).toMatchObject({
      includeReplies: true,
      includeParentTweet: true,
    });
  });
  it('refuses malformed paths instead of guessing', () => {
    for (const h of [
      '#/post/abc',
      '#/post/1/likes',
      '#/user/not a handle',
      '#/community/x1',
      '#/nowhere',
      '#/space/a b',
    ]) {
      expect(parseRoute(h).name).toBe('unknown');
    }
  });
});

const idArb = fc.stringMatching(/^[1-9]\d{0,18}$/);
const routeArb: fc.Arbitrary<Route> = fc.oneof(
  fc.constant(routes.home()),
  fc
    .tuple(
      idArb,
      fc.constantFrom('replies', 'direct', 'quotes' as const),
      fc.constantFrom(...QUERY_TYPES),
      fc.boolean(),
      fc.boolean(),
    )
    .map(([id, tab, order, flat, oldest]) => routes.post(id, tab, order, flat, oldest)),
  fc
    .tuple(
      fc.oneof(
        idArb.map((id) => ({ kind: 'id' as const, id })),
        fc.stringMatching(/^[A-Za-z0-9_]{1,15}$/).map((handle) => ({ kind: 'handle' as const, handle })),
      ),
      fc.constantFrom('posts', 'mentions' as const),
      fc.boolean(),
      fc.boolean(),
    )
    .map(([ref, tab, includeReplies, includeParentTweet]) => ({
      name: 'user' as const,
      ref,
      tab,
      includeReplies,
      includeParentTweet,
    })),
  fc.string().map((q) => routes.search(q)),
  fc.tuple(fc.constantFrom('posts', 'users' as const), fc.string()).map(([k, ids]) => routes.lookup(k, ids)),
  fc
    .tuple(
      fc.constantFrom('posts', 'users' as const),
      fc.option(fc.stringMatching(/^imp-[0-9a-f]{16}$/), { nil: null }),
    )
    .map(([k, list]) => routes.hydrate(k, list)),
  idArb.map((id) => routes.community(id)),
  idArb.map((id) => routes.list(id)),
  fc.stringMatching(/^[A-Za-z0-9]{13}$/).map((id) => routes.space(id)),
  fc.option(fc.integer({ min: 1, max: 99_999_999 }), { nil: null }).map((w) => routes.trends(w)),
  fc.constant(routes.settings()),
  fc.constant(routes.usage()),
  fc.string().map((q) => routes.archive(q)),
  fc
    .tuple(fc.string(), fc.option(fc.integer({ min: 1, max: 2_000_000_000 }), { nil: undefined }))
    .map(([q, c]) => routes.archive(q, c)),
  fc.constant(routes.watches()),
  fc.tuple(idArb, fc.stringMatching(/^[A-Za-z0-9_]{1,15}$/)).map(([id, handle]) => routes.watches({ id, handle })),
  fc.constantFrom(...CODING_TABS).map((t) => routes.coding(t)),
  fc.integer({ min: 1, max: 2_000_000_000 }).map((c) => routes.coding('files', c)),
);

describe('formatRoute', () => {
  it('is the inverse of parseRoute for every route', () => {
    fc.assert(
      fc.property(routeArb, (r) => {
        expect(parseRoute(formatRoute(r))).toEqual(r);
      }),
    );
  });
  it('leaves defaults out of the hash', () => {
    expect(formatRoute(routes.post('9'))).toBe('#/post/9/replies');
    expect(formatRoute(routes.userByHandle('@ada'))).toBe('#/user/%40ada/posts');
  });
});

describe('pageKey', () => {
  it('keeps the coding workbench one page across its tabs', () => {
    expect(pageKey(routes.coding('code'))).toBe(pageKey(routes.coding('agreement')));
  });
  it('keeps the page when only its tab or toggles change', () => {
    expect(pageKey(routes.post('1', 'quotes'))).toBe(pageKey(routes.post('1', 'replies', 'Latest', true)));
    expect(pageKey(routes.userByHandle('Ada', 'mentions'))).toBe(pageKey(routes.userByHandle('ada')));
    expect(pageKey(routes.post('1'))).not.toBe(pageKey(routes.post('2')));
    expect(pageKey(routes.search('a'))).not.toBe(pageKey(routes.search('b')));
  });
});
