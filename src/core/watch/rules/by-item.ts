/**
 * Values kept by item (its kind, then its id): a map within a map, so finding the row of one of the thousands of
 * items a run touches builds no key string.
 */
export class ByItem<T> {
  private readonly kinds = new Map<string, Map<string, T>>();

  get(kind: string, id: string): T | undefined {
    return this.kinds.get(kind)?.get(id);
  }

  set(kind: string, id: string, value: T): void {
    let ids = this.kinds.get(kind);
    if (!ids) this.kinds.set(kind, (ids = new Map<string, T>()));
    ids.set(id, value);
  }
}
