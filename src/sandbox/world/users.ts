/**
 * Users, generated eagerly (search ranks over handles, names and bios). Each
 * user's fields come from a faker stream keyed by (seed, index).
 */
import { seededFaker } from './fake';
import { TextBuilder, type Indices } from './text';
import { YEAR_MS, snowflake } from './time';

export type UrlEntityData = {
  display_url: string;
  expanded_url: string;
  url: string;
  indices: Indices;
};

export interface MentionData {
  index: number;
  indices: Indices;
}

export interface UserRecord {
  index: number;
  id: string;
  userName: string;
  name: string;
  description: string;
  descriptionUrls: UrlEntityData[];
  descriptionMentions: MentionData[];
  website: UrlEntityData | null;
  location: string | null;
  followers: number;
  following: number;
  /** ms before the anchor */
  ageMs: number;
  verified: boolean;
  canDm: boolean;
  hasCover: boolean;
  /** pinned post index, or -1 (set once posts exist) */
  pinned: number;
  /** lowercased, for search */
  search: { handle: string; name: string; bio: string };
}

export function shortLink(code: string): string {
  return `https://s.co/${code}`;
}

export function displayUrl(expanded: string): string {
  const bare = expanded.replace(/^https?:\/\/(www\.)?/, '');
  return bare.length > 26 ? `${bare.slice(0, 25)}…` : bare;
}

export function buildUsers(seed: number, count: number): UserRecord[] {
  const { faker, rng, seed: reseed } = seededFaker();
  const taken = new Set<string>();
  const users: UserRecord[] = [];
  for (let u = 0; u < count; u++) {
    reseed(seed, 'user', u);
    const first = faker.person.firstName();
    const last = faker.person.lastName();
    const base = `${first}${rng.chance(0.5) ? '_' : ''}${last}`.replace(/[^A-Za-z0-9_]/g, '').slice(0, 12);
    let userName = base;
    for (let k = 1; taken.has(userName.toLowerCase()); k++) userName = `${base.slice(0, 11)}${k}`;
    taken.add(userName.toLowerCase());
    const ageMs = YEAR_MS * (1 + rng.next() * 13);
    const followers = u === 0 ? 184_203 : rng.heavy(u < 50 ? 40_000 : 300, 1.8);
    users.push({
      index: u,
      id: snowflake(ageMs, u),
      userName,
      name: rng.chance(0.1) ? `${first} ${last} ${rng.pick(['🌱', '📷', '✈️', '🎧'])}` : `${first} ${last}`,
      description: '',
      descriptionUrls: [],
      descriptionMentions: [],
      website: null,
      location: rng.chance(0.75) ? `${faker.location.city()}, ${faker.location.country()}` : null,
      followers,
      following: rng.heavy(250, 1.2),
      ageMs,
      verified: u === 0 || rng.chance(0.15),
      canDm: rng.chance(0.4),
      hasCover: u === 0 || rng.chance(0.7),
      pinned: -1,
      search: { handle: userName.toLowerCase(), name: '', bio: '' },
    });
  }
  // second pass: bios may mention other users, so all handles exist first
  for (const user of users) {
    reseed(seed, 'bio', user.index);
    const text = new TextBuilder();
    text.add(rng.chance(0.5) ? faker.person.bio() : `${faker.person.jobTitle()}. ${faker.company.catchPhrase()}.`);
    if (user.index === 0 || rng.chance(0.3)) {
      const other = users[(user.index + 1 + rng.int(count - 1)) % count] as UserRecord;
      text.add(rng.pick([' Working with ', ' Co-host with ', ' Formerly at ', ' Say hi to ']));
      user.descriptionMentions.push({ index: other.index, indices: text.add(`@${other.userName}`) });
    }
    if (user.index === 0 || rng.chance(0.35)) {
      const expanded = faker.internet.url();
      const url = shortLink(rng.chars(10));
      text.add(' ');
      user.descriptionUrls.push({
        display_url: displayUrl(expanded),
        expanded_url: expanded,
        url,
        indices: text.add(url),
      });
    }
    if (rng.chance(0.2)) text.add(` Views my own ${rng.pick(['✨', '🧵', '☕️'])}`);
    user.description = text.toString();
    if (user.index === 0 || rng.chance(0.4)) {
      const expanded = `https://${faker.internet.domainName()}`;
      const url = shortLink(rng.chars(10));
      user.website = { display_url: displayUrl(expanded), expanded_url: expanded, url, indices: [0, url.length] };
    }
    user.search.name = user.name.toLowerCase();
    user.search.bio = user.description.toLowerCase();
  }
  return users;
}
