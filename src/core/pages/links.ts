/**
 * Which pages a post links to (pure): the expanded URLs of its `entities.urls[]` (the live service's and the
 * spec's place for them, api-field-notes.md), and those of the post it reposts or quotes, credited to the post
 * that was collected. The platform's own links are left out — a post's status page, its photos and videos
 * (`…/status/<id>/photo/1`), and the `t.co` short form of any link — as are addresses that are not web
 * addresses. A URL is kept as the post gives it, without its `#fragment` (the same page).
 */

export interface PageLink {
  url: string;
  /** the collected post that links to it */
  postId: string;
}

const PLATFORM_HOSTS = new Set([
  'x.com',
  'www.x.com',
  'mobile.x.com',
  'twitter.com',
  'www.twitter.com',
  'mobile.twitter.com',
  'social.example',
  'www.social.example',
]);
const SHORT_HOSTS = new Set(['t.co', 'pic.twitter.com', 'pic.x.com', 'pic.social.example']);
const STATUS_PATH = /^\/(?:[^/]+|i\/web|i)\/status(?:es)?\/\d+/i;

/** the page a link names, or null when it is the platform's own or not a web address */
export function pageUrlOf(href: unknown): string | null {
  if (typeof href !== 'string' || href.length === 0 || href.length > 4096) return null;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = url.hostname.toLowerCase();
  if (SHORT_HOSTS.has(host)) return null;
  if (PLATFORM_HOSTS.has(host) && STATUS_PATH.test(url.pathname)) return null;
  url.hash = '';
  return url.href;
}

const record = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

function expandedOf(post: Record<string, unknown>): string[] {
  const urls = record(post.entities)?.urls;
  if (!Array.isArray(urls)) return [];
  const out: string[] = [];
  for (const u of urls) {
    const url = pageUrlOf(record(u)?.expanded_url);
    if (url) out.push(url);
  }
  return out;
}

/** The pages a collected post links to, each once (its own, then its repost's and quote's). */
export function linksOf(raw: unknown): PageLink[] {
  const post = record(raw);
  if (!post) return [];
  const postId = typeof post.id === 'string' || typeof post.id === 'number' ? String(post.id) : '';
  if (!postId) return [];
  const inner = [record(post.retweeted_tweet), record(post.quoted_tweet)].filter(
    (p): p is Record<string, unknown> => p !== null,
  );
  const urls = new Set([...expandedOf(post), ...inner.flatMap(expandedOf)]);
  return [...urls].map((url) => ({ url, postId }));
}

/** The distinct URLs of a list of links, in first-seen order. */
export function distinctUrls(links: readonly PageLink[]): string[] {
  return [...new Set(links.map((l) => l.url))];
}
