/** A bounded memo: keeps the most recently used `limit` entries. */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly limit: number) {}

  get(key: K, make: () => V): V {
    const hit = this.peek(key);
    if (hit !== undefined) return hit;
    const value = make();
    this.set(key, value);
    return value;
  }

  /** the entry, marked as recently used, or undefined */
  peek(key: K): V | undefined {
    const hit = this.map.get(key);
    if (hit !== undefined) {
      this.map.delete(key);
      this.map.set(key, hit);
    }
    return hit;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.limit) this.map.delete(this.map.keys().next().value as K);
  }
}
