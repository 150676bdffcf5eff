/**
 * The text of a scalar that came from data: a string as it is, a number, bigint or boolean as written; anything
 * else (an object, an array, null, undefined) is `fallback`, so a hostile body never prints "[object Object]".
 */
export function scalarText(v: unknown, fallback = ''): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
    case 'bigint':
    case 'boolean':
      return String(v);
    default:
      return fallback;
  }
}
