import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { communityFixture, postFixture, quotingPostFixture, spaceFixture, trendFixture, userFixture } from './fixtures';
import { CommunityData, ListFollower, Post, SpaceData, Trend, User, ValidationErrorBody } from './schemas';

function firstIssuePath(schema: z.ZodType, value: unknown): string {
  const r = schema.safeParse(value);
  if (r.success) return '(valid)';
  return r.error.issues[0]!.path.join('.');
}

describe('resource schemas', () => {
  it('accept spec-shaped fixtures of every resource', () => {
    expect(User.safeParse(userFixture).success).toBe(true);
    expect(Post.safeParse(postFixture).success).toBe(true);
    expect(Post.safeParse(quotingPostFixture).success).toBe(true);
    expect(CommunityData.safeParse(communityFixture).success).toBe(true);
    expect(SpaceData.safeParse(spaceFixture).success).toBe(true);
    expect(Trend.safeParse(trendFixture).success).toBe(true);
    expect(ListFollower.safeParse({ anything: 1 }).success).toBe(true);
    expect(
      ValidationErrorBody.safeParse({ detail: [{ loc: ['query', 'tweetId'], msg: 'field required', type: 'missing' }] })
        .success,
    ).toBe(true);
  });

  it('validates quoted posts recursively, down to a quote of a quote', () => {
    const quoteOfQuote = { ...quotingPostFixture, id: '3', quoted_tweet: quotingPostFixture };
    expect(Post.safeParse(quoteOfQuote).success).toBe(true);
    const broken = { ...quotingPostFixture, quoted_tweet: { ...postFixture, likeCount: 'many' } };
    // a quoted post is a post or an unavailable stand-in: a broken one is refused at the union
    expect(firstIssuePath(Post, broken)).toBe('quoted_tweet');
    expect(Post.safeParse({ ...quotingPostFixture, quoted_tweet: { ...postFixture, likeCount: null } }).success).toBe(
      true,
    );
  });

  it('keeps fields the spec does not list (passthrough), also inside nested objects', () => {
    const extra = {
      ...postFixture,
      isQuote: false,
      card: { kind: 'summary' },
      author: { ...userFixture, extra: 'kept' },
    };
    const parsed = Post.parse(extra) as Record<string, unknown> & { author: Record<string, unknown> };
    expect(parsed.card).toEqual({ kind: 'summary' });
    expect(parsed.isQuote).toBe(false);
    expect(parsed.author.extra).toBe('kept');
  });

  it('rejects malformed objects with a readable path to the first mismatch', () => {
    expect(firstIssuePath(Post, { ...postFixture, author: { ...userFixture, followers: '12' } })).toBe(
      'author.followers',
    );
    expect(firstIssuePath(Post, { ...postFixture, entities: { urls: [{ url: 'x' }] } })).toBe(
      'entities.urls.0.display_url',
    );
    expect(firstIssuePath(User, { ...userFixture, id: 'abc' })).toBe('id');
    expect(firstIssuePath(Post, { ...postFixture, type: 'user' })).toBe('type');
    const c = structuredClone(communityFixture) as unknown as {
      data: { community_results_by_rest_id: { result: { rules: unknown } } };
    };
    c.data.community_results_by_rest_id.result.rules = 'none';
    expect(firstIssuePath(CommunityData, c)).toBe('data.community_results_by_rest_id.result.rules');
    const s = structuredClone(spaceFixture) as unknown as {
      data: { audio_space_by_rest_id: { metadata: { participants: { total: unknown } } } };
    };
    s.data.audio_space_by_rest_id.metadata.participants.total = null;
    expect(firstIssuePath(SpaceData, s)).toBe('data.audio_space_by_rest_id.metadata.participants.total');
  });

  it('accepts null where the spec allows it and refuses it elsewhere', () => {
    expect(Post.safeParse({ ...postFixture, viewCount: null, entities: null, displayTextRange: null }).success).toBe(
      true,
    );
    expect(firstIssuePath(Post, { ...postFixture, text: null })).toBe('text');
  });
});
