/**
 * The Go box: whatever a user pastes (a post URL or id, a profile URL or
 * `@handle`, a community, list or space URL or id) becomes a ranked list of
 * routes. The first is what Enter opens; the rest are offered as choices
 * because a bare number may be a post, a community, a list or a user.
 */
import { routes, type Route } from './routes';

export interface GoCandidate {
  route: Route;
  /** what the choice opens, in plain words ("Post 123") */
  label: string;
}

const NUMERIC = /^\d{1,25}$/;
const HANDLE = /^[A-Za-z0-9_]{1,15}$/;
/** Audio space ids: 13 alphanumerics starting with 1 (e.g. 1YqKDqWqdPLxV). */
const SPACE_ID = /^1[A-Za-z0-9]{12}$/;
const SPACE_ID_LOOSE = /^[A-Za-z0-9]{5,32}$/;
/** Paths of the social site that are not profiles. */
const RESERVED = new Set(['i', 'home', 'search', 'explore', 'notifications', 'messages', 'settings', 'intent', 'share', 'hashtag', 'compose']);

const post = (id: string): GoCandidate => ({ route: routes.post(id), label: `Post ${id}` });
const userId = (id: string): GoCandidate => ({ route: routes.userById(id), label: `Profile with id ${id}` });
const handle = (h: string): GoCandidate => ({ route: routes.userByHandle(h), label: `Profile @${h}` });
const community = (id: string): GoCandidate => ({ route: routes.community(id), label: `Community ${id}` });
const list = (id: string): GoCandidate => ({ route: routes.list(id), label: `List ${id}` });
const space = (id: string): GoCandidate => ({ route: routes.space(id), label: `Audio space ${id}` });
const search = (q: string): GoCandidate => ({ route: routes.search(q), label: `Search people for “${q}”` });

/** Ranked routes for the text typed in the Go box; empty when there is nothing to open. */
export function goCandidates(input: string): GoCandidate[] {
  const text = input.trim();
  if (!text) return [];

  const fromUrl = parseUrl(text);
  if (fromUrl) return fromUrl;

  // explicit kinds: "community 123", "list:123", "space 1abc…", "user 42", "post 9"
  const typed = /^(post|tweet|user|profile|community|list|space)[\s:#]+(\S+)$/i.exec(text);
  if (typed) {
    const kind = typed[1]!.toLowerCase();
    const id = typed[2]!.replace(/^@/, '');
    if ((kind === 'post' || kind === 'tweet') && NUMERIC.test(id)) return [post(id)];
    if ((kind === 'user' || kind === 'profile') && NUMERIC.test(id)) return [userId(id), ...(HANDLE.test(id) ? [handle(id)] : [])];
    if ((kind === 'user' || kind === 'profile') && HANDLE.test(id)) return [handle(id)];
    if (kind === 'community' && NUMERIC.test(id)) return [community(id)];
    if (kind === 'list' && NUMERIC.test(id)) return [list(id)];
    if (kind === 'space' && SPACE_ID_LOOSE.test(id)) return [space(id)];
  }

  if (text.startsWith('@')) {
    const h = text.slice(1);
    return HANDLE.test(h) ? [handle(h), search(h)] : [search(h)];
  }
  if (NUMERIC.test(text)) return [post(text), userId(text), community(text), list(text)];
  if (SPACE_ID.test(text)) return [space(text), ...(HANDLE.test(text) ? [handle(text)] : []), search(text)];
  if (HANDLE.test(text)) return [handle(text), search(text)];
  return [search(text)];
}

function parseUrl(text: string): GoCandidate[] | null {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : /^[\w-]+(\.[\w-]+)+\//.test(text) ? `https://${text}` : '');
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const seg = url.pathname.split('/').filter(Boolean);
  const [a, b, c] = seg;

  // /{handle}/status/{id}, /i/web/status/{id}, /i/status/{id}
  const statusAt = seg.findIndex((s) => s === 'status' || s === 'statuses');
  if (statusAt >= 0) {
    const id = seg[statusAt + 1];
    if (id && NUMERIC.test(id)) return [post(id)];
  }
  if (a === 'i') {
    if (b === 'communities' && c && NUMERIC.test(c)) return [community(c)];
    if (b === 'lists' && c && NUMERIC.test(c)) return [list(c)];
    if (b === 'spaces' && c && SPACE_ID_LOOSE.test(c)) return [space(c)];
    if (b === 'user' && c && NUMERIC.test(c)) return [userId(c)];
    return null;
  }
  if (a && HANDLE.test(a) && !RESERVED.has(a.toLowerCase())) {
    if (b === 'lists' && c && NUMERIC.test(c)) return [list(c)];
    if (b === undefined || ['with_replies', 'media', 'likes', 'highlights'].includes(b)) return [handle(a)];
    if (b === 'communities' && c && NUMERIC.test(c)) return [community(c)];
  }
  return null;
}
