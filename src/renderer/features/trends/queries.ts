/** Server state of trends: one call per place and count. */
import { create } from 'zustand';
import { apiQuery } from '../../lib/api-query';
import { DEFAULT_COUNT } from './woeids';

const trendsKeys = {
  all: ['trends'] as const,
  place: (woeid: number, count: number) => ['trends', woeid, count] as const,
};

export const trendsQuery = (woeid: number, count: number) =>
  apiQuery(trendsKeys.place(woeid, count), 'trends', { woeid, count });

/**
 * How many trends to ask for: UI state. The count last used for each place
 * is remembered, so Back and Forward ask for what was shown (and find it in
 * the cache); a place not seen yet gets the count last chosen.
 */
interface TrendsCountState {
  last: number;
  byPlace: Readonly<Record<number, number>>;
  choose: (woeid: number, count: number) => void;
}

export const useTrendsCount = create<TrendsCountState>()((set) => ({
  last: DEFAULT_COUNT,
  byPlace: {},
  choose: (woeid, count) => set((s) => ({ last: count, byPlace: { ...s.byPlace, [woeid]: count } })),
}));

export function countFor(state: Pick<TrendsCountState, 'last' | 'byPlace'>, woeid: number): number {
  return state.byPlace[woeid] ?? state.last;
}

export function useCountFor(woeid: number): number {
  return useTrendsCount((s) => countFor(s, woeid));
}
