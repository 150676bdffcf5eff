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

/** A node to walk: where it sits is kept as its parent and key, and spelled out only for a cut (most items have none). */
interface Frame {
  node: Node;
  depth: number;
  posts: number;
  parent: Frame | null;
  key: string | number;
}

/** `frame`'s child at `key` as a report names it: `tweets[0].quoted_tweet.list[2]` */
function pathOf(rootPath: string, frame: Frame | null, key: string | number): string {
  const keys: Array<string | number> = [key];
  for (let f = frame; f !== null && f.parent !== null; f = f.parent) keys.push(f.key);
  let path = rootPath;
  for (let i = keys.length - 1; i >= 0; i--) {
    const k = keys[i] as string | number;
    path += typeof k === 'number' ? `[${k}]` : `.${k}`;
  }
  return path;
}

/** Cuts `root` (in place: it is a freshly parsed answer) to the bounds; returns what was cut. */
export function boundDepth(root: unknown, rootPath: string): Cut[] {
  const cuts: Cut[] = [];
  if (typeof root !== 'object' || root === null) return cuts;
  const stack: Frame[] = [{ node: root as Node, depth: 1, posts: 0, parent: null, key: '' }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { node, depth, posts } = top;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child: unknown = node[i];
        if (typeof child !== 'object' || child === null) continue;
        if (depth >= MAX_DEPTH) {
          node[i] = CUT_MARKER;
          cuts.push({ path: pathOf(rootPath, top, i), message: `nested deeper than ${MAX_DEPTH} levels: cut` });
        } else stack.push({ node: child as Node, depth: depth + 1, posts, parent: top, key: i });
      }
      continue;
    }
    for (const key of Object.keys(node)) {
      // an own data property, as JSON.parse makes every one (a key named `__proto__` too: read as its own value)
      const child = node[key];
      if (typeof child !== 'object' || child === null) continue;
      const childPosts = POST_LINKS.has(key) ? posts + 1 : posts;
      if (childPosts > MAX_NESTED_POSTS) {
        Object.defineProperty(node, key, { value: null, writable: true, enumerable: true, configurable: true });
        cuts.push({
          path: pathOf(rootPath, top, key),
          message: `a post nested more than ${MAX_NESTED_POSTS} posts deep: cut`,
        });
      } else if (depth >= MAX_DEPTH) {
        Object.defineProperty(node, key, { value: CUT_MARKER, writable: true, enumerable: true, configurable: true });
        cuts.push({ path: pathOf(rootPath, top, key), message: `nested deeper than ${MAX_DEPTH} levels: cut` });
      } else stack.push({ node: child as Node, depth: depth + 1, posts: childPosts, parent: top, key });
    }
  }
  return cuts;
}
