/**
 * Numbers written as text from tables made once. `String(n)` (and a template's `${n}`) goes through V8's
 * number-string cache, a root: each post's new numbers displaced older strings from it, and every string in it
 * outlives the scavenges it is there for, so the source's numbers were promoted to the bench's old generation (20 of
 * the 35 MB promoted per 200,000 posts exported), growing the heap whose peak the bench reads. The app's source
 * is the network's bytes, parsed: it makes no such strings.
 */
const PLAIN = Array.from({ length: 10_000 }, (_, i) => String(i));
const FOUR = PLAIN.map((s) => s.padStart(4, '0'));

/** `n` in decimal, as `String(n)` for a whole number ≥ 0 */
function decimal(n: number): string {
  return n < 10_000 ? (PLAIN[n] as string) : decimal(Math.floor(n / 10_000)) + (FOUR[n % 10_000] as string);
}

/** `n` < 10^8 in eight digits */
function eightDigits(n: number): string {
  return (FOUR[Math.floor(n / 10_000)] as string) + (FOUR[n % 10_000] as string);
}

/** A deterministic spec-shaped post of about 1.5 KB; ids above 2^53. */
export function syntheticPost(n: number): Record<string, unknown> {
  // 1_700_000_000_000_000_000n + n and 1_500_000_000_000_000_000n + n % 5000, without BigInt's cost (n < 10^8)
  const id = `17000000000${eightDigits(n)}`;
  const author = `15000000000${eightDigits(n % 5000)}`;
  const user = PLAIN[n % 5000] as string;
  const words = 8 + ((n * 7919) % 40);
  const text = Array.from(
    { length: words },
    (_, i) => ['research', 'data', 'skein', 'thread', 'é', '日本', 'ok', '#tag'][(n + i) % 8],
  ).join(' ');
  return {
    type: 'tweet',
    id,
    url: `https://social.invalid/u${author}/status/${id}`,
    text,
    retweetCount: n % 97,
    replyCount: n % 13,
    likeCount: n % 1000,
    quoteCount: n % 7,
    bookmarkCount: n % 5,
    viewCount: decimal(n * 3),
    createdAt: 'Sun Nov 22 02:13:21 +0000 2026',
    lang: 'en',
    isReply: n % 2 === 0,
    inReplyToId: n % 2 === 0 ? `17000000000${eightDigits(Math.max(0, n - 1))}` : null,
    conversationId: '1700000000000000000',
    displayTextRange: [0, text.length],
    entities: {
      hashtags: [{ text: 'tag', indices: [0, 4] }],
      symbols: [],
      urls: [
        {
          display_url: 'example.invalid/x',
          expanded_url: 'https://example.invalid/x',
          indices: [5, 28],
          url: 'https://t.invalid/abc',
        },
      ],
      user_mentions: [{ id_str: author, indices: [0, 6], name: 'Someone', screen_name: `user${user}` }],
    },
    quoted_tweet: null,
    author: {
      type: 'user',
      userName: `user${user}`,
      url: `https://social.invalid/user${user}`,
      id: author,
      name: `User ${user}`,
      isBlueVerified: n % 3 === 0,
      description: 'A synthetic author for the export benchmark.',
      location: null,
      followers: n % 10_000,
      following: n % 500,
      statusesCount: null,
      createdAt: 'Mon Jan 05 10:00:00 +0000 2015',
      profilePicture: `https://img.invalid/${author}.png`,
      coverPicture: null,
      canDm: false,
      pinnedTweetIds: [],
      profile_bio: null,
    },
  };
}
