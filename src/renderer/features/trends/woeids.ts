/**
 * Places people ask trends for, by name, with their Where On Earth IDs, and
 * the parsing of what a user types in the location box: a known name, or
 * any positive WOEID. Also the `count` field, within the catalog's range.
 */
import { TRENDS_COUNT_RANGE } from '../../../shared/api/catalog';

export type PlaceKind = 'world' | 'country' | 'city';

export interface Place {
  woeid: number;
  name: string;
  kind: PlaceKind;
}

export const WORLDWIDE = 1;
export const DEFAULT_COUNT = 30;

export const PLACES: readonly Place[] = [
  { woeid: 1, name: 'Worldwide', kind: 'world' },
  { woeid: 23424747, name: 'Argentina', kind: 'country' },
  { woeid: 23424748, name: 'Australia', kind: 'country' },
  { woeid: 23424768, name: 'Brazil', kind: 'country' },
  { woeid: 23424775, name: 'Canada', kind: 'country' },
  { woeid: 23424819, name: 'France', kind: 'country' },
  { woeid: 23424829, name: 'Germany', kind: 'country' },
  { woeid: 23424848, name: 'India', kind: 'country' },
  { woeid: 23424846, name: 'Indonesia', kind: 'country' },
  { woeid: 23424853, name: 'Italy', kind: 'country' },
  { woeid: 23424856, name: 'Japan', kind: 'country' },
  { woeid: 23424900, name: 'Mexico', kind: 'country' },
  { woeid: 23424909, name: 'Netherlands', kind: 'country' },
  { woeid: 23424908, name: 'Nigeria', kind: 'country' },
  { woeid: 23424938, name: 'Saudi Arabia', kind: 'country' },
  { woeid: 23424942, name: 'South Africa', kind: 'country' },
  { woeid: 23424868, name: 'South Korea', kind: 'country' },
  { woeid: 23424950, name: 'Spain', kind: 'country' },
  { woeid: 23424969, name: 'Turkey', kind: 'country' },
  { woeid: 23424975, name: 'United Kingdom', kind: 'country' },
  { woeid: 23424977, name: 'United States', kind: 'country' },
  { woeid: 638242, name: 'Berlin', kind: 'city' },
  { woeid: 2379574, name: 'Chicago', kind: 'city' },
  { woeid: 2344116, name: 'Istanbul', kind: 'city' },
  { woeid: 44418, name: 'London', kind: 'city' },
  { woeid: 2442047, name: 'Los Angeles', kind: 'city' },
  { woeid: 766273, name: 'Madrid', kind: 'city' },
  { woeid: 116545, name: 'Mexico City', kind: 'city' },
  { woeid: 2295411, name: 'Mumbai', kind: 'city' },
  { woeid: 2459115, name: 'New York', kind: 'city' },
  { woeid: 615702, name: 'Paris', kind: 'city' },
  { woeid: 2487956, name: 'San Francisco', kind: 'city' },
  { woeid: 455827, name: 'São Paulo', kind: 'city' },
  { woeid: 1132599, name: 'Seoul', kind: 'city' },
  { woeid: 1105779, name: 'Sydney', kind: 'city' },
  { woeid: 1118370, name: 'Tokyo', kind: 'city' },
  { woeid: 4118, name: 'Toronto', kind: 'city' },
];

export const PLACE_GROUPS: ReadonlyArray<{ kind: PlaceKind; label: string }> = [
  { kind: 'world', label: 'World' },
  { kind: 'country', label: 'Countries' },
  { kind: 'city', label: 'Cities' },
];

const byWoeid = new Map(PLACES.map((p) => [p.woeid, p]));

/** Strip accents and case so "sao paulo" finds "São Paulo". */
function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}
const byName = new Map(PLACES.map((p) => [fold(p.name), p]));

/** The place's name, or "WOEID 12345" for one not in the table. */
export function placeName(woeid: number): string {
  return byWoeid.get(woeid)?.name ?? `WOEID ${woeid}`;
}

export function knownPlace(woeid: number): Place | undefined {
  return byWoeid.get(woeid);
}

/** Largest WOEID accepted (they are 32-bit). */
const MAX_WOEID = 2_147_483_647;

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** What the user typed in the location box: a known place name, or a positive whole number. */
export function parseLocation(input: string): Parsed<number> {
  const text = input.trim();
  if (!text) return { ok: false, message: 'Choose a place or type a WOEID (Worldwide is 1).' };
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    if (n < 1 || n > MAX_WOEID) return { ok: false, message: `A WOEID is a whole number from 1 to ${MAX_WOEID}.` };
    return { ok: true, value: n };
  }
  const place = byName.get(fold(text));
  if (place) return { ok: true, value: place.woeid };
  return {
    ok: false,
    message: `“${text}” is not a place Skein knows by name: pick one from the list or type its numeric WOEID.`,
  };
}

/** The `count` field: a whole number within the range the app sends. */
export function parseCount(input: string): Parsed<number> {
  const text = input.trim();
  const { min, max } = TRENDS_COUNT_RANGE;
  if (!/^\d+$/.test(text)) return { ok: false, message: `Count is a whole number from ${min} to ${max}.` };
  const n = Number(text);
  if (n < min || n > max) return { ok: false, message: `Count is a whole number from ${min} to ${max}.` };
  return { ok: true, value: n };
}
