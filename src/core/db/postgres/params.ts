/** Bound parameters for a statement built by hand, numbered as they are added (queries written once use ../sql.ts). */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown, cast = ''): string {
    this.values.push(value);
    return `$${this.values.length}${cast}`;
  }
}
