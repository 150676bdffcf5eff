/** How the social site writes a handle: 1–15 letters, digits or underscores. */
export const HANDLE = /^[A-Za-z0-9_]{1,15}$/;

/** Paths of the social site that are not profiles. */
const RESERVED = new Set([
  'i',
  'home',
  'search',
  'explore',
  'notifications',
  'messages',
  'settings',
  'intent',
  'share',
  'hashtag',
  'compose',
]);

/** A URL path's first segment (or a pasted token) that names a profile: a handle, not one of the site's pages. */
export function isProfileHandle(name: string): boolean {
  return HANDLE.test(name) && !RESERVED.has(name.toLowerCase());
}
