/**
 * Depth bounds for what a hostile server sends (any server may answer): a `retweeted_tweet`
 * chain or an unknown field nested 10,000 deep overflowed the stack at the
 * bridge (structured clone, JSON) and took the innocent posts of its page and
 * the export down with it. Each item is walked once, iteratively, before it is
 * read: a post nested in posts deeper than MAX_NESTED_POSTS is cut to null,
 * anything nested deeper than MAX_DEPTH is replaced by CUT_MARKER, and every
 * cut is reported. The rest of the item is untouched (and exports as received).
 */
export const MAX_DEPTH = 64;
/** post → quoted → quoted → quoted: deeper is never shown and is cut */
const MAX_NESTED_POSTS = 3;
export const CUT_MARKER = `[cut by Skein: nested deeper than ${MAX_DEPTH} levels]`;
const POST_LINKS: ReadonlySet<string> = new Set(['retweeted_tweet', 'quoted_tweet']);

export interface Cut {
  path: string;
  message: string;
}

type Node = Record<string, unknown> | unknown[];

/** Cuts `root` (in place: it is a freshly parsed answer) to the bounds; returns what was cut. */
export function boundDepth(root: unknown, rootPath: string): Cut[] {
  const cuts: Cut[] = [];
  if (typeof root !== 'object' || root === null) return cuts;
  const stack: Array<{ node: Node; depth: number; posts: number; path: string }> = [
    { node: root as Node, depth: 1, posts: 0, path: rootPath },
  ];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { node, depth, posts, path } = top;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child: unknown = node[i];
        if (typeof child !== 'object' || child === null) continue;
        if (depth >= MAX_DEPTH) {
          node[i] = CUT_MARKER;
          cuts.push({ path: `${path}[${i}]`, message: `nested deeper than ${MAX_DEPTH} levels: cut` });
        } else stack.push({ node: child as Node, depth: depth + 1, posts, path: `${path}[${i}]` });
      }
      continue;
    }
    for (const key of Object.keys(node)) {
      const child = Object.getOwnPropertyDescriptor(node, key)?.value as unknown;
      if (typeof child !== 'object' || child === null) continue;
      const childPath = `${path}.${key}`;
      const childPosts = POST_LINKS.has(key) ? posts + 1 : posts;
      if (childPosts > MAX_NESTED_POSTS) {
        Object.defineProperty(node, key, { value: null, writable: true, enumerable: true, configurable: true });
        cuts.push({ path: childPath, message: `a post nested more than ${MAX_NESTED_POSTS} posts deep: cut` });
      } else if (depth >= MAX_DEPTH) {
        Object.defineProperty(node, key, { value: CUT_MARKER, writable: true, enumerable: true, configurable: true });
        cuts.push({ path: childPath, message: `nested deeper than ${MAX_DEPTH} levels: cut` });
      } else stack.push({ node: child as Node, depth: depth + 1, posts: childPosts, path: childPath });
    }
  }
  return cuts;
}
