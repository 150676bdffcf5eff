/** A deterministic spec-shaped post of about 1.5 KB; ids above 2^53. */
export function syntheticPost(n: number): Record<string, unknown> {
  // 1_700_000_000_000_000_000n + n and 1_500_000_000_000_000_000n + n % 5000, without BigInt's cost (n < 10^8)
  const id = `17000000000${String(n).padStart(8, '0')}`;
  const author = `15000000000${String(n % 5000).padStart(8, '0')}`;
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
    viewCount: String(n * 3),
    createdAt: 'Sun Nov 22 02:13:21 +0000 2026',
    lang: 'en',
    isReply: n % 2 === 0,
    inReplyToId: n % 2 === 0 ? `17000000000${String(Math.max(0, n - 1)).padStart(8, '0')}` : null,
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
      user_mentions: [{ id_str: author, indices: [0, 6], name: 'Someone', screen_name: `user${n % 5000}` }],
    },
    quoted_tweet: null,
    author: {
      type: 'user',
      userName: `user${n % 5000}`,
      url: `https://social.invalid/user${n % 5000}`,
      id: author,
      name: `User ${n % 5000}`,
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
