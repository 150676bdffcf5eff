/** Server state of trends: one call per place and count. */
import { create } from 'zustand';
import { apiQuery } from '../../lib/api-query';
import { DEFAULT_COUNT } from './woeids';

export const trendsKeys = {
  all: ['trends'] as const,
  place: (woeid: number, count: number) => ['trends', woeid, count] as const,
};

export const trendsQuery = (woeid: number, count: number) => apiQuery(trendsKeys.place(woeid, count), 'trends', { woeid, count });

/** How many trends to ask for: UI state kept across visits so Back finds the cached answer. */
export const useTrendsCount = create<{ count: number; setCount: (n: number) => void }>()((set) => ({
  count: DEFAULT_COUNT,
  setCount: (count) => set({ count }),
}));
