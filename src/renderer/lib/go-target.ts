/**
 * The Go box: whatever a user pastes (a post URL or id, a profile URL or
 * `@handle`, a community, list or space URL or id) becomes a ranked list of
 * routes. The first is what Enter opens; the rest are offered as choices
 * because a bare number may be a post, a community, a list or a user.
 */
import { HANDLE, isProfileHandle } from '../../shared/ids/id-token';
import { routes, type Route } from './routes';

export interface GoCandidate {
  route: Route;
  /** what the choice opens, in plain words ("Post 123") */
  label: string;
}

const NUMERIC = /^\d{1,25}$/;
/** Audio space ids: 13 alphanumerics starting with 1 (e.g. 1YqKDqWqdPLxV). */
const SPACE_ID = /^1[A-Za-z0-9]{12}$/;
const SPACE_ID_LOOSE = /^[A-Za-z0-9]{5,32}$/;
const post = (id: string): GoCandidate => ({ route: routes.post(id), label: `Post ${id}` });
const userId = (id: string): GoCandidate => ({ route: routes.userById(id), label: `Profile with id ${id}` });
const handle = (h: string): GoCandidate => ({ route: routes.userByHandle(h), label: `Profile @${h}` });
const community = (id: string): GoCandidate => ({ route: routes.community(id), label: `Community ${id}` });
const list = (id: string): GoCandidate => ({ route: routes.list(id), label: `List ${id}` });
const space = (id: string): GoCandidate => ({ route: routes.space(id), label: `Audio space ${id}` });
const search = (q: string): GoCandidate => ({ route: routes.search(q), label: `Search people for “${q}”` });

/**
 * The social site's own hosts: only their links are read as profiles, posts, lists… (`social.example`
 * is the demo world's: a reserved name that is never a real site).
 */
const OWN_HOST = /^(?:(?:www|mobile|twitter)\.)?(?:x\.com|twitter\.com|social\.example)$/i;
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const OTHER_SCHEME = /^(?:javascript|data|file|mailto|vbscript|blob|about):/i;
const BARE_HOST = /^[\w-]+(\.[\w-]+)+\//;

/** The text is a link (or looks like one): it is never searched for. */
function looksLikeLink(text: string): boolean {
  return SCHEME.test(text) || OTHER_SCHEME.test(text) || BARE_HOST.test(text);
}

/**
 * Why the text opens nothing, when it is a link Skein cannot open (another
 * site's, or a page of the social site that is not a post, profile, list,
 * community or space); null otherwise. Nothing is fetched for it.
 */
export function goRefusal(input: string): string | null {
  const text = input.trim();
  if (!text || !looksLikeLink(text) || goCandidates(text).length > 0) return null;
  const host = hostOf(text);
  if (host !== null && OWN_HOST.test(host))
    return 'Skein cannot open this page of the site: paste a post, profile, list, community or space link.';
  return `Skein opens only x.com and twitter.com links${host ? `; ${host} can't be opened here` : ''}. Nothing was fetched.`;
}

function hostOf(text: string): string | null {
  try {
    return new URL(SCHEME.test(text) ? text : `https://${text}`).hostname || null;
  } catch {
    return null;
  }
}

/** Ranked routes for the text typed in the Go box; empty when there is nothing to open. */
export function goCandidates(input: string): GoCandidate[] {
  const text = input.trim();
  if (!text) return [];

  const fromUrl = parseUrl(text);
  if (fromUrl) return fromUrl;
  // a link that is not one of the site's posts, profiles…: never a (paid) people search
  if (looksLikeLink(text)) return [];

  // explicit kinds: "community 123", "list:123", "space 1abc…", "user 42", "post 9"
  const typed = /^(post|tweet|user|profile|community|list|space)[\s:#]+(\S+)$/i.exec(text);
  if (typed) {
    const kind = typed[1]!.toLowerCase();
    const id = typed[2]!.replace(/^@/, '');
    if ((kind === 'post' || kind === 'tweet') && NUMERIC.test(id)) return [post(id)];
    if ((kind === 'user' || kind === 'profile') && NUMERIC.test(id))
      return [userId(id), ...(HANDLE.test(id) ? [handle(id)] : [])];
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
    url = new URL(SCHEME.test(text) ? text : BARE_HOST.test(text) ? `https://${text}` : '');
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (!OWN_HOST.test(url.hostname)) return null;
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
  if (a && isProfileHandle(a)) {
    if (b === 'lists' && c && NUMERIC.test(c)) return [list(c)];
    if (b === undefined || ['with_replies', 'media', 'likes', 'highlights'].includes(b)) return [handle(a)];
    if (b === 'communities' && c && NUMERIC.test(c)) return [community(c)];
  }
  return null;
}
