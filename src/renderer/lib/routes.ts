/**
 * Every view of the app as a typed route, and its hash form
 * (`#/post/123/replies?order=Latest`). Parsing and formatting are pure and
 * inverse of each other, so deep links, history and the Go box all speak
 * the same language.
 */
import { QUERY_TYPES, type QueryType } from '../../shared/api/catalog';

export type PostTab = 'replies' | 'direct' | 'quotes';
export type UserTab = 'posts' | 'mentions';
export type LookupKind = 'posts' | 'users';
/** The coding workbench's tabs. */
export type CodingTab = 'code' | 'codebook' | 'coders' | 'samples' | 'agreement' | 'reconcile' | 'files';
export const CODING_TABS: readonly CodingTab[] = [
  'code',
  'codebook',
  'coders',
  'samples',
  'agreement',
  'reconcile',
  'files',
];

export type Route =
  | { name: 'home' }
  /** `oldest`: the flat list oldest first (`view=flat&sort=oldest`; shown once every reply is loaded) */
  | { name: 'post'; id: string; tab: PostTab; order: QueryType; flat: boolean; oldest: boolean }
  | { name: 'user'; ref: UserRef; tab: UserTab; includeReplies: boolean; includeParentTweet: boolean }
  | { name: 'search'; q: string }
  | { name: 'lookup'; kind: LookupKind; ids: string }
  | { name: 'hydrate'; kind: LookupKind; list: string | null }
  | { name: 'community'; id: string }
  | { name: 'list'; id: string }
  | { name: 'space'; id: string }
  | { name: 'trends'; woeid: number | null }
  | { name: 'settings' }
  | { name: 'usage' }
  | { name: 'archive'; q: string; collection?: number }
  /** `share`: on the Files tab, the collection its share form starts with (the Archive's "Share or cite…") */
  | { name: 'coding'; tab: CodingTab; share?: number }
  | { name: 'watches'; account?: { id: string; handle: string } }
  | { name: 'counters'; kind: CounterItemKind; id: string }
  | { name: 'unknown'; path: string };

/** what a counters-over-time page can show */
export type CounterItemKind = 'post' | 'user' | 'community' | 'space';
const COUNTER_KINDS: readonly CounterItemKind[] = ['post', 'user', 'community', 'space'];

/** A profile is addressed by numeric id, or by handle until the handle is resolved. */
export type UserRef = { kind: 'id'; id: string } | { kind: 'handle'; handle: string };

export type RouteName = Route['name'];

const POST_TABS: readonly PostTab[] = ['replies', 'direct', 'quotes'];
const USER_TABS: readonly UserTab[] = ['posts', 'mentions'];
const NUMERIC = /^\d{1,25}$/;
const HANDLE = /^[A-Za-z0-9_]{1,50}$/;
const TOKEN = /^[A-Za-z0-9_-]{1,64}$/;

/** Route constructors with defaults filled in. */
export const routes = {
  home: (): Route => ({ name: 'home' }),
  post: (
    id: string,
    tab: PostTab = 'replies',
    order: QueryType = 'Relevance',
    flat = false,
    oldest = false,
  ): Route => ({
    name: 'post',
    id,
    tab,
    order,
    flat,
    oldest: flat && oldest,
  }),
  userById: (id: string, tab: UserTab = 'posts'): Route => ({
    name: 'user',
    ref: { kind: 'id', id },
    tab,
    includeReplies: false,
    includeParentTweet: false,
  }),
  userByHandle: (handle: string, tab: UserTab = 'posts'): Route => ({
    name: 'user',
    ref: { kind: 'handle', handle: handle.replace(/^@/, '') },
    tab,
    includeReplies: false,
    includeParentTweet: false,
  }),
  search: (q = ''): Route => ({ name: 'search', q }),
  lookup: (kind: LookupKind = 'posts', ids = ''): Route => ({ name: 'lookup', kind, ids }),
  hydrate: (kind: LookupKind = 'posts', list: string | null = null): Route => ({ name: 'hydrate', kind, list }),
  community: (id: string): Route => ({ name: 'community', id }),
  list: (id: string): Route => ({ name: 'list', id }),
  space: (id: string): Route => ({ name: 'space', id }),
  trends: (woeid: number | null = null): Route => ({ name: 'trends', woeid }),
  settings: (): Route => ({ name: 'settings' }),
  usage: (): Route => ({ name: 'usage' }),
  /** the Archive, searching `q`, within one collection of the project when given */
  archive: (q = '', collection?: number): Route =>
    collection === undefined ? { name: 'archive', q } : { name: 'archive', q, collection },
  coding: (tab: CodingTab = 'code', share?: number): Route =>
    tab === 'files' && share !== undefined ? { name: 'coding', tab, share } : { name: 'coding', tab },
  /** the Watches view; with an account, its new-watch form open on it (a profile's "Watch…") */
  watches: (account?: { id: string; handle: string }): Route =>
    account === undefined ? { name: 'watches' } : { name: 'watches', account },
  counters: (kind: CounterItemKind, id: string): Route => ({ name: 'counters', kind, id }),
};

function flag(q: URLSearchParams, key: string): boolean {
  const v = q.get(key);
  return v === '1' || v === 'true';
}

/** `#/post/1?x=y` (or `/post/1?x=y`) → Route. Anything unrecognised → `unknown`. */
export function parseRoute(hash: string): Route {
  const raw = hash.replace(/^#/, '');
  const [pathPart = '', queryPart = ''] = splitOnce(raw, '?');
  const q = new URLSearchParams(queryPart);
  const seg = pathPart
    .split('/')
    .filter(Boolean)
    .map((s) => safeDecode(s));
  const [head, a, b] = seg;
  const unknown: Route = { name: 'unknown', path: raw };
  switch (head) {
    case undefined:
    case 'home':
      return seg.length <= 1 ? routes.home() : unknown;
    case 'post': {
      if (!a || !NUMERIC.test(a) || seg.length > 3) return unknown;
      const tab = (b ?? 'replies') as PostTab;
      if (!POST_TABS.includes(tab)) return unknown;
      const order = (q.get('order') ?? 'Relevance') as QueryType;
      const flat = q.get('view') === 'flat';
      return routes.post(a, tab, QUERY_TYPES.includes(order) ? order : 'Relevance', flat, q.get('sort') === 'oldest');
    }
    case 'user': {
      if (!a || seg.length > 3) return unknown;
      const tab = (b ?? 'posts') as UserTab;
      if (!USER_TABS.includes(tab)) return unknown;
      let ref: UserRef;
      if (a.startsWith('@') && HANDLE.test(a.slice(1))) ref = { kind: 'handle', handle: a.slice(1) };
      else if (NUMERIC.test(a)) ref = { kind: 'id', id: a };
      else return unknown;
      return { name: 'user', ref, tab, includeReplies: flag(q, 'replies'), includeParentTweet: flag(q, 'parent') };
    }
    case 'search':
      return seg.length === 1 ? routes.search(q.get('q') ?? '') : unknown;
    case 'lookup': {
      const kind = (a ?? 'posts') as LookupKind;
      if (kind !== 'posts' && kind !== 'users') return unknown;
      return routes.lookup(kind, q.get('ids') ?? '');
    }
    case 'hydrate': {
      const kind = (a ?? 'posts') as LookupKind;
      if ((kind !== 'posts' && kind !== 'users') || seg.length > 2) return unknown;
      const list = q.get('list');
      return routes.hydrate(kind, list && /^imp-[0-9a-z]{8,40}$/.test(list) ? list : null);
    }
    case 'community':
    case 'list':
      return a && NUMERIC.test(a) && seg.length === 2 ? { name: head, id: a } : unknown;
    case 'space':
      return a && TOKEN.test(a) && seg.length === 2 ? routes.space(a) : unknown;
    case 'trends': {
      const w = q.get('woeid');
      return routes.trends(w && /^\d{1,10}$/.test(w) ? Number(w) : null);
    }
    case 'settings':
      return routes.settings();
    case 'usage':
      return routes.usage();
    case 'archive':
      if (seg.length !== 1) return unknown;
      return routes.archive(
        q.get('q') ?? '',
        /^[1-9]\d{0,9}$/.test(q.get('collection') ?? '') ? Number(q.get('collection')) : undefined,
      );
    case 'coding': {
      if (seg.length > 2) return unknown;
      const tab = (a ?? 'code') as CodingTab;
      const share = q.get('share') ?? '';
      return CODING_TABS.includes(tab)
        ? routes.coding(tab, /^[1-9]\d{0,9}$/.test(share) ? Number(share) : undefined)
        : unknown;
    }
    case 'watches':
      if (seg.length !== 1) return unknown;
      {
        const id = q.get('account') ?? '';
        const handle = q.get('handle') ?? '';
        return /^[1-9]\d{0,19}$/.test(id) && /^[A-Za-z0-9_]{1,15}$/.test(handle)
          ? routes.watches({ id, handle })
          : routes.watches();
      }
    case 'counters': {
      const kind = a as CounterItemKind;
      return COUNTER_KINDS.includes(kind) && b && TOKEN.test(b) && seg.length === 3
        ? routes.counters(kind, b)
        : unknown;
    }
    default:
      return unknown;
  }
}

/** Route → `#/…` (the inverse of `parseRoute`). */
export function formatRoute(route: Route): string {
  const enc = encodeURIComponent;
  const withQuery = (path: string, q: Record<string, string | null>): string => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(q)) if (v !== null && v !== '') params.set(k, v);
    const s = params.toString();
    return `#${path}${s ? `?${s}` : ''}`;
  };
  switch (route.name) {
    case 'home':
      return '#/';
    case 'post':
      return withQuery(`/post/${enc(route.id)}/${route.tab}`, {
        order: route.order === 'Relevance' ? null : route.order,
        view: route.flat ? 'flat' : null,
        sort: route.oldest ? 'oldest' : null,
      });
    case 'user': {
      const who = route.ref.kind === 'id' ? route.ref.id : `@${route.ref.handle}`;
      return withQuery(`/user/${enc(who)}/${route.tab}`, {
        replies: route.includeReplies ? '1' : null,
        parent: route.includeParentTweet ? '1' : null,
      });
    }
    case 'search':
      return withQuery('/search', { q: route.q });
    case 'lookup':
      return withQuery(`/lookup/${route.kind}`, { ids: route.ids });
    case 'hydrate':
      return withQuery(`/hydrate/${route.kind}`, { list: route.list });
    case 'community':
    case 'list':
    case 'space':
      return `#/${route.name}/${enc(route.id)}`;
    case 'trends':
      return withQuery('/trends', { woeid: route.woeid === null ? null : String(route.woeid) });
    case 'settings':
      return '#/settings';
    case 'usage':
      return '#/usage';
    case 'archive':
      return withQuery('/archive', {
        q: route.q,
        collection: route.collection === undefined ? null : String(route.collection),
      });
    case 'coding':
      return withQuery(`/coding/${route.tab}`, { share: route.share === undefined ? null : String(route.share) });
    case 'watches':
      return withQuery('/watches', { account: route.account?.id ?? null, handle: route.account?.handle ?? null });
    case 'counters':
      return `#/counters/${route.kind}/${enc(route.id)}`;
    case 'unknown':
      return `#${route.path}`;
  }
}

/** Identity of the page a route shows, ignoring its tabs and toggles (switching tabs keeps the page). */
export function pageKey(route: Route): string {
  switch (route.name) {
    case 'post':
      return `post:${route.id}`;
    case 'user':
      return route.ref.kind === 'id' ? `user:${route.ref.id}` : `user:@${route.ref.handle.toLowerCase()}`;
    case 'lookup':
      return `lookup:${route.kind}`;
    case 'coding':
      return 'coding';
    default:
      return formatRoute(route);
  }
}

function splitOnce(s: string, sep: string): [string, string] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, ''] : [s.slice(0, i), s.slice(i + 1)];
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
