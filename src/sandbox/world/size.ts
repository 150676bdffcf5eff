/** How big a world to generate. */
export interface WorldSize {
  users: number;
  /** ordinary posts (originals, replies, quotes) besides the two showcase crowds below */
  posts: number;
  /** replies in the showcase conversation (depth >= 6, branching) */
  bigThreadReplies: number;
  /** replies in the wide conversation: most answer the post itself, the rest one or two levels down */
  wideThreadReplies: number;
  /** direct quotes of the showcase much-quoted post (plus ~5% quotes of those quotes) */
  quotes: number;
  communities: number;
  lists: number;
  /** audio spaces (at least 2: one running, one ended) */
  spaces: number;
}

export const WORLD_SIZES = {
  default: {
    users: 2400,
    posts: 50_000,
    bigThreadReplies: 10_000,
    wideThreadReplies: 2_000,
    quotes: 2_000,
    communities: 24,
    lists: 24,
    spaces: 6,
  },
  small: {
    users: 160,
    posts: 1_600,
    bigThreadReplies: 400,
    wideThreadReplies: 120,
    quotes: 60,
    communities: 6,
    lists: 6,
    spaces: 5,
  },
} as const satisfies Record<string, WorldSize>;

export type SizeOption = keyof typeof WORLD_SIZES | Partial<WorldSize>;

export function resolveSize(size: SizeOption | undefined): WorldSize {
  if (size === undefined) return { ...WORLD_SIZES.default };
  if (typeof size === 'string') return { ...WORLD_SIZES[size] };
  const merged = { ...WORLD_SIZES.default, ...size };
  merged.users = Math.max(20, merged.users);
  merged.posts = Math.max(200, merged.posts);
  merged.bigThreadReplies = Math.max(30, merged.bigThreadReplies);
  merged.wideThreadReplies = Math.max(30, merged.wideThreadReplies);
  merged.quotes = Math.max(5, merged.quotes);
  merged.communities = Math.max(1, merged.communities);
  merged.lists = Math.max(1, merged.lists);
  merged.spaces = Math.max(2, merged.spaces);
  return merged;
}
