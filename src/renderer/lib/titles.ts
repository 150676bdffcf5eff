/**
 * What headings, export titles and the Go box call things: names, handles and the first words of a post,
 * never a bare 19-digit id. Where the API gives no name (a list), the id is shortened in the words and
 * kept whole one click away (the view's "Copy id" button).
 */
import { postLabel } from './format';
import type { GoCandidate } from './go-target';

type Post = Parameters<typeof postLabel>[0];

/** `1815586911448033248` → `1815…3248`; ids of ten characters or fewer stay whole. */
export function shortId(id: string): string {
  const points = [...id];
  return points.length <= 10 ? id : `${points.slice(0, 4).join('')}…${points.slice(-4).join('')}`;
}

/** A post as a sentence names it: `@ann: “the first words…”`, else `post 2004…1375`. */
export function postName(post: Post, id: string): string {
  return postLabel(post, `post ${shortId(id)}`);
}

/** The list view's heading: the list's name when the user saw it, else `List 1815…3248`. */
export function listTitle(name: string | null, id: string): string {
  return name ?? `List ${shortId(id)}`;
}

/** A list inside a sentence: `list “Rust voices”`, else `list 1815…3248`. */
export function listPhrase(name: string | null, id: string): string {
  return name ? `list “${name}”` : `list ${shortId(id)}`;
}

/** A Go box choice for a post, once the post is known: `Post by @ann: “the first words…”`. */
export function goPostLabel(post: Post, id: string): string {
  const named = postLabel(post, '');
  return named ? `Post by ${named}` : `Post ${id}`;
}

/** What the app already knows about ids, without a call: posts it has shown, names the user has seen. */
export interface Known {
  post: (id: string) => Post;
  /** a profile's handle, when the profile has been shown */
  userName: (id: string) => string | null;
  listName: (id: string) => string | null;
}

/** A Go box choice in words once what it opens is known (a post shown before, a list whose name was seen). */
export function goLabel(candidate: GoCandidate, known: Known): string {
  const route = candidate.route;
  if (route.name === 'post') {
    const post = known.post(route.id);
    return post ? goPostLabel(post, route.id) : candidate.label;
  }
  if (route.name === 'user' && route.ref.kind === 'id') {
    const handle = known.userName(route.ref.id);
    return handle ? `Profile @${handle}` : candidate.label;
  }
  if (route.name === 'list') {
    const name = known.listName(route.id);
    return name ? `List “${name}”` : candidate.label;
  }
  return candidate.label;
}
