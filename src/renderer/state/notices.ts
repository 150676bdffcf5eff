/**
 * What a call met on the way that a person should know although it succeeded (`meta.notice`: a 403 that
 * turned out to be the service throttling, not the key). UI state: the status bar shows the latest until
 * it is dismissed. Named actions.
 */
import { create } from 'zustand';

export interface Notice {
  id: number;
  text: string;
  at: number;
}

interface NoticesState {
  latest: Notice | null;
  add: (text: string, at: number) => void;
  dismiss: () => void;
}

let next = 1;

export const useNotices = create<NoticesState>()((set) => ({
  latest: null,
  add: (text, at) => set({ latest: { id: next++, text, at } }),
  dismiss: () => set({ latest: null }),
}));
