/** Communities and lists: small, generated eagerly. */
import type { Community, CommunityData } from '../../shared/api';
import { mediaUrl } from '../media';
import { Rng } from '../random';
import { seededFaker } from './fake';
import { TOPICS } from './text';
import { DAY_MS, YEAR_MS, snowflake } from './time';

export interface CommunityRecord {
  id: string;
  name: string;
  description: string;
  ageMs: number;
  members: number;
  moderators: number;
  rules: { name: string; rest_id: string }[];
  customBanner: boolean;
}

export interface ListRecord {
  id: string;
  name: string;
  description: string;
  /** user indices whose posts make the list's timeline */
  members: number[];
  /** user indices subscribed to the list */
  followers: number[];
}

const RULES = [
  'Be kind and respectful',
  'Stay on topic',
  'No spam or self-promotion',
  'Credit original creators',
  'No harassment or hate speech',
  'Use content warnings where needed',
  'English or Spanish posts only',
  'No misinformation',
];

export function buildCommunities(seed: number, count: number): CommunityRecord[] {
  const { faker, rng, seed: reseed } = seededFaker();
  return Array.from({ length: count }, (_, c) => {
    reseed(seed, 'community', c);
    const topic = TOPICS[c % TOPICS.length] as string;
    const ageMs = YEAR_MS * 0.3 + rng.next() * 5 * YEAR_MS;
    const id = snowflake(ageMs, 3_000_000 + c);
    const ruleCount = 3 + rng.int(4);
    const start = rng.int(RULES.length);
    return {
      id,
      name: `${topic.replace(/([a-z])([A-Z])/g, '$1 $2')} ${rng.pick(['Circle', 'Club', 'Hub', 'Collective', 'Corner', 'Lab'])}`,
      description: `${faker.company.catchPhrase()}. A community for people who love ${topic.toLowerCase()}.`,
      ageMs,
      members: c === 0 ? 48_213 : rng.heavy(3_000, 1.5) + 5,
      moderators: 1 + rng.int(12),
      rules: Array.from({ length: ruleCount }, (_, k) => ({
        name: RULES[(start + k) % RULES.length] as string,
        rest_id: snowflake(ageMs - k * DAY_MS, 3_100_000 + c * 16 + k),
      })),
      customBanner: c === 0 || rng.chance(0.7),
    };
  });
}

type Banner = NonNullable<NonNullable<Community['default_banner_media_results']>['result']>;

export function renderCommunity(seed: number, origin: string, anchor: number, c: CommunityRecord): CommunityData {
  const rng = new Rng(seed, 'banner', c.id);
  const banner = (custom: boolean): Banner => ({
    __typename: 'ApiMedia',
    id: Buffer.from(`ApiMedia:\n${c.id}${custom ? 1 : 0}`).toString('base64'),
    media_info: {
      __typename: 'ApiImage',
      original_img_height: 480,
      original_img_url: mediaUrl(origin, 'banner', custom ? c.id : String(BigInt(c.id) + 1n)),
      original_img_width: 1200,
      ...(custom ? { salient_rect: { height: 300, left: rng.int(200), top: rng.int(100), width: 800 } } : {}),
    },
  });
  return {
    data: {
      community_results_by_rest_id: {
        rest_id: c.id,
        result: {
          __typename: 'Community',
          rest_id: c.id,
          name: c.name,
          description: c.description,
          created_at: Math.round(anchor - c.ageMs),
          member_count: c.members,
          moderator_count: c.moderators,
          is_pinned: false,
          role: 'NonMember',
          rules: c.rules,
          actions: {
            join_action_result: {
              __typename: 'CommunityJoinActionUnavailable',
              message: 'You must be invited to join this community.',
              reason: 'ViewerRequestRequired',
            },
            leave_action_result: {
              __typename: 'CommunityLeaveActionUnavailable',
              message: 'You are not a member of this community.',
              reason: 'ViewerNotMember',
            },
          },
          creator_results: { result: { __typename: 'UserUnavailable' } },
          custom_banner_media_results: c.customBanner ? { result: banner(true) } : {},
          default_banner_media_results: { result: banner(false) },
        },
      },
    },
  };
}

/** `active` ranks users by how much they post, most first */
export function buildLists(seed: number, count: number, users: number, active: readonly number[]): ListRecord[] {
  const { faker, rng, seed: reseed } = seededFaker();
  return Array.from({ length: count }, (_, l) => {
    reseed(seed, 'list', l);
    const ageMs = YEAR_MS * 0.2 + rng.next() * 3 * YEAR_MS;
    const topic = TOPICS[(l * 7) % TOPICS.length] as string;
    const memberCount = l === 0 ? 30 : 6 + rng.int(30);
    const members = distinct(memberCount, () => active[Math.floor(active.length * rng.next() ** 2)] ?? 0);
    const followerCount = l === 0 ? 75 : rng.int(60);
    const followers = distinct(Math.min(followerCount, users - 1), () => rng.int(users));
    return {
      id: snowflake(ageMs, 3_500_000 + l),
      name: `${topic} ${rng.pick(['people', 'voices', 'to follow', 'insiders', 'daily'])}`,
      description: `${faker.company.catchPhrase()}.`,
      members,
      followers,
    };
  });
}

function distinct(n: number, draw: () => number): number[] {
  const out = new Set<number>();
  for (let tries = 0; out.size < n && tries < n * 20; tries++) out.add(draw());
  return [...out];
}
