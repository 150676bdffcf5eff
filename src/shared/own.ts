/**
 * Looking up a table by a key that came from data (a role, a state, a media
 * type): only the table's own entries count. A plain `TABLE[key]` answers
 * `__proto__`, `constructor` or `toString` with Object.prototype's members,
 * which crashed views that rendered them when a hostile server sent such a key.
 */
export function ownValue<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
