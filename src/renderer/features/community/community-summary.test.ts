import { describe, expect, it } from 'vitest';
import { communityFixture } from '../../../shared/api/fixtures';
import type { Community, CommunityData } from '../../../shared/api/schemas';
import { availability, summarizeCommunity } from './community-summary';

const base = communityFixture.data.community_results_by_rest_id.result;
const withCommunity = (extra: Partial<Community>): CommunityData => ({
  data: { community_results_by_rest_id: { rest_id: base.rest_id, result: { ...base, ...extra } } },
});

describe('summarizeCommunity', () => {
  it('shows the custom banner, counts, role and numbered rules', () => {
    const s = summarizeCommunity(communityFixture);
    expect(s.banner).toEqual({ url: 'https://img.example/banner.png', width: 1200, height: 300, kind: 'custom' });
    expect([s.name, s.members, s.moderators, s.pinned, s.role]).toEqual([
      'Analytical Engines',
      1200,
      3,
      false,
      'Not a member',
    ]);
    expect(s.createdAt).toBe(1_600_000_000_000);
    expect(s.rules).toEqual([{ id: '1', name: 'Be kind' }]);
    expect(s.creator).toBeNull();
  });

  it('falls back to the default banner, and to none', () => {
    expect(summarizeCommunity(withCommunity({ custom_banner_media_results: {} })).banner?.kind).toBe('default');
    expect(summarizeCommunity(withCommunity({ custom_banner_media_results: { result: null } })).banner?.url).toBe(
      'https://img.example/d.png',
    );
    expect(
      summarizeCommunity(withCommunity({ custom_banner_media_results: {}, default_banner_media_results: {} })).banner,
    ).toBeNull();
  });

  it('refuses a banner that is not a web image address', () => {
    const evil = withCommunity({
      custom_banner_media_results: {
        result: {
          __typename: 'ApiMedia',
          id: 'x',
          media_info: {
            __typename: 'ApiImage',
            original_img_url: 'javascript:alert(1)',
            original_img_width: 1,
            original_img_height: 1,
          },
        },
      },
    });
    expect(summarizeCommunity(evil).banner?.kind).toBe('default');
  });

  it('explains join and leave availability in plain words', () => {
    const s = summarizeCommunity(communityFixture);
    expect(s.join).toEqual({ available: false, text: 'Joining needs a request that the moderators approve.' });
    expect(s.leave).toEqual({ available: false, text: 'The account is not a member, so there is nothing to leave.' });
  });
});

describe('availability', () => {
  it('reads a non-unavailable result as available', () => {
    expect(availability({ __typename: 'CommunityJoinAction' }, 'join')).toEqual({ available: true, text: '' });
  });
  it('uses the message when there is no reason, and says so when the API is silent', () => {
    expect(availability({ __typename: 'CommunityJoinActionUnavailable', message: 'Closed for now' }, 'join').text).toBe(
      'Closed for now',
    );
    expect(availability({ __typename: 'CommunityJoinActionUnavailable' }, 'join').text).toBe('No reason given.');
    expect(availability(undefined, 'leave')).toEqual({
      available: false,
      text: 'The API does not say whether the account can leave.',
    });
  });
});
