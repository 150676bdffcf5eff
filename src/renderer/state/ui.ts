/**
 * UI state only (never server data): which thread branches are collapsed,
 * where each view was scrolled, and requests to focus the Go box. Named
 * actions, one store, selected by slice so components re-render narrowly.
 */
import type { CacheSnapshot } from 'virtua';
import { create } from 'zustand';

const MAX_REMEMBERED = 60;

interface ScrollMemory {
  top: number;
  /** measured item sizes of the view's virtual list, so restoring lands exactly */
  list?: CacheSnapshot;
  /** number of rows when the snapshot was taken (a snapshot only fits the same count) */
  rows?: number;
}

export interface UiState {
  collapsed: Record<string, ReadonlySet<string>>;
  scroll: Record<string, ScrollMemory>;
  goFocusRequest: number;
  toggleBranch: (threadId: string, key: string) => void;
  collapseBranches: (threadId: string, keys: readonly string[]) => void;
  expandAllBranches: (threadId: string) => void;
  rememberScrollTop: (viewKey: string, top: number) => void;
  rememberListSizes: (viewKey: string, list: CacheSnapshot, rows: number) => void;
  focusGoBox: () => void;
}

const EMPTY: ReadonlySet<string> = new Set();

function capped<T>(record: Record<string, T>, key: string, value: T): Record<string, T> {
  const next = { ...record };
  delete next[key];
  next[key] = value;
  const keys = Object.keys(next);
  for (const k of keys.slice(0, Math.max(0, keys.length - MAX_REMEMBERED))) delete next[k];
  return next;
}

export const useUi = create<UiState>()((set) => ({
  collapsed: {},
  scroll: {},
  goFocusRequest: 0,
  toggleBranch: (threadId, key) =>
    set((s) => {
      const cur = new Set(s.collapsed[threadId] ?? EMPTY);
      if (cur.has(key)) cur.delete(key);
      else cur.add(key);
      return { collapsed: { ...s.collapsed, [threadId]: cur } };
    }),
  collapseBranches: (threadId, keys) => set((s) => ({ collapsed: { ...s.collapsed, [threadId]: new Set(keys) } })),
  expandAllBranches: (threadId) => set((s) => ({ collapsed: { ...s.collapsed, [threadId]: EMPTY } })),
  rememberScrollTop: (viewKey, top) =>
    set((s) => ({ scroll: capped(s.scroll, viewKey, { ...s.scroll[viewKey], top }) })),
  rememberListSizes: (viewKey, list, rows) =>
    set((s) => ({ scroll: capped(s.scroll, viewKey, { top: s.scroll[viewKey]?.top ?? 0, list, rows }) })),
  focusGoBox: () => set((s) => ({ goFocusRequest: s.goFocusRequest + 1 })),
}));

export function useCollapsed(threadId: string): ReadonlySet<string> {
  return useUi((s) => s.collapsed[threadId] ?? EMPTY);
}
