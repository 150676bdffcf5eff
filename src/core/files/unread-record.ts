/**
 * What can still be told of a record this Skein cannot read (a newer Skein's, or a damaged one), to name it in a
 * list beside the records it can: a few of its fields, each taken only where it is of the kind this Skein would
 * write, a text cut short, a time only when it is a finite number. Nothing else of the record is trusted.
 */

/** the record's fields, or none when it is not an object at all (a damaged file, text, a list) */
export function recordFields(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** a text field, cut at `max` characters; null when it is not text */
export function textField(value: unknown, max: number): string | null {
  return typeof value === 'string' ? value.slice(0, max) : null;
}

/** a time field (ms since the epoch); null when it is not a finite number */
export function timeField(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
