/**
 * UI state of live updates: whether the user agreed to what polling costs
 * (asked once per session, before the first auto-poll), and which spaces
 * they paused. Not server data.
 */
import { create } from 'zustand';

interface LiveState {
  costAccepted: boolean;
  paused: Readonly<Record<string, boolean>>;
  acceptCost: () => void;
  pause: (spaceId: string) => void;
  resume: (spaceId: string) => void;
}

export const useLive = create<LiveState>()((set) => ({
  costAccepted: false,
  paused: {},
  acceptCost: () => set({ costAccepted: true }),
  pause: (spaceId) => set((s) => ({ paused: { ...s.paused, [spaceId]: true } })),
  resume: (spaceId) => set((s) => ({ paused: { ...s.paused, [spaceId]: false } })),
}));
