import type { LRUCache } from 'lru-cache';

/** The cached value of `key`, made (and kept, evicting the least recently used) on a miss. */
export function cached<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(
  cache: LRUCache<K, V>,
  key: K,
  make: () => V,
): V {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const value = make();
  cache.set(key, value);
  return value;
}
