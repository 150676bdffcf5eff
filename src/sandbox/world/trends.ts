/** Trends for a fixed set of WOEIDs (1 = Worldwide, countries, cities). */
import type { Trend } from '../../shared/api';
import { unit } from '../random';
import { seededFaker } from './fake';
import { TOPICS } from './text';

export const WOEIDS: Readonly<Record<number, string>> = {
  1: 'Worldwide',
  23424977: 'United States',
  23424975: 'United Kingdom',
  23424829: 'Germany',
  23424819: 'France',
  23424856: 'Japan',
  23424768: 'Brazil',
  23424848: 'India',
  23424950: 'Spain',
  2459115: 'New York',
  44418: 'London',
  1118370: 'Tokyo',
  615702: 'Paris',
  2487956: 'San Francisco',
};

/** trends kept per place (the `count` parameter's maximum) */
const TRENDS_PER_PLACE = 50;

export function buildTrends(seed: number): Map<number, Trend[]> {
  const { faker, rng, seed: reseed } = seededFaker();
  const out = new Map<number, Trend[]>();
  for (const [key, place] of Object.entries(WOEIDS)) {
    const woeid = Number(key);
    reseed(seed, 'trends', woeid);
    const names = new Set<string>();
    while (names.size < TRENDS_PER_PLACE) {
      const r = rng.next();
      if (r < 0.35) names.add(`#${rng.pick(TOPICS)}${rng.chance(0.3) ? rng.between(2020, 2027) : ''}`);
      else if (r < 0.55) names.add(faker.person.fullName());
      else if (r < 0.7)
        names.add(
          `${place === 'Worldwide' ? faker.location.city() : place} ${rng.pick(['Marathon', 'Derby', 'Festival', 'Weather', 'Elections'])}`,
        );
      else if (r < 0.8) names.add(`$${faker.finance.currencyCode()}`);
      else names.add(faker.word.words({ count: { min: 1, max: 3 } }).replace(/^\w/, (c) => c.toUpperCase()));
    }
    out.set(
      woeid,
      [...names].map((name) => {
        const query = encodeURIComponent(name);
        return {
          name,
          url: `https://social.example/search?q=${query}`,
          query,
          tweet_volume: rng.chance(0.4) ? 1_000 + rng.heavy(20_000) : null,
        };
      }),
    );
  }
  return out;
}

/**
 * A place's trends `hour` hours after the start (a trends watch sees them change): each keeps roughly its
 * rank, shifted by a draw of its own for that hour, so the list reorders a little every hour and a trend
 * now and then climbs into the first thirty (the default `count`) or falls out of them.
 */
export function trendsAt(seed: number, woeid: number, trends: readonly Trend[], hour: number): Trend[] {
  const keyed = trends.map((t, rank) => ({
    t,
    key: rank + (unit(seed, 'trend-hour', woeid, hour, t.name) - 0.5) * 16,
  }));
  keyed.sort((a, b) => a.key - b.key);
  return keyed.map((k) => k.t);
}
