/**
 * The item-version rule, once for both stores: what an answer does to an item the project already holds. The
 * same raw JSON only moves when it was last seen; a different one read after what is held becomes the current
 * version and the held one an earlier version (from when it was first current until it was last seen); one read
 * before what is held (a late write: a batch kept while the server was away) is kept as an earlier version and
 * never replaces the current one.
 */
export interface HeldVersion {
  raw: string;
  lastSeen: number;
  /** when the held raw JSON became the current version */
  versionSince: number;
}

export interface EarlierVersion {
  raw: string;
  seenFrom: number;
  seenTo: number;
}

export type Sighting =
  | { fate: 'same'; lastSeen: number }
  | { fate: 'older'; earlier: EarlierVersion }
  | { fate: 'changed'; earlier: EarlierVersion; current: HeldVersion };

export function sighting(held: HeldVersion, raw: string, at: number): Sighting {
  if (held.raw === raw) return { fate: 'same', lastSeen: Math.max(held.lastSeen, at) };
  if (at < held.lastSeen) return { fate: 'older', earlier: { raw, seenFrom: at, seenTo: at } };
  return {
    fate: 'changed',
    earlier: { raw: held.raw, seenFrom: held.versionSince, seenTo: held.lastSeen },
    current: { raw, lastSeen: at, versionSince: at },
  };
}
