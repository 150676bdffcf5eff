/**
 * What a call met on the way that a person should know although it succeeded (`meta.notice`: a 403 that
 * turned out to be the service throttling, not the key), or what the project met on its own (main's `archive`
 * event: a team's server away, answers kept and written again). UI state: the status bar shows the latest until
 * it is dismissed. Named actions.
 */
import { create } from 'zustand';

export interface Notice {
  id: number;
  text: string;
  at: number;
  /** whose: a call's, or the project's */
  from: 'call' | 'project';
}

interface NoticesState {
  latest: Notice | null;
  add: (text: string, at: number, from?: Notice['from']) => void;
  dismiss: () => void;
}

let next = 1;

export const useNotices = create<NoticesState>()((set) => ({
  latest: null,
  add: (text, at, from = 'call') => set({ latest: { id: next++, text, at, from } }),
  dismiss: () => set({ latest: null }),
}));
