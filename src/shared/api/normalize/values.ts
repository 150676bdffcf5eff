/** Small coercions shared by the readers: the live service's "no value" and number spellings. */

export type Obj = Record<string, unknown>;

export function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** an id as the spec spells it (a numeric string); numbers that are safe integers become strings */
export function idString(v: unknown): unknown {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return String(v);
  if (typeof v === 'string') return v.trim();
  return v;
}

/**
 * An integer from a number or a numeric string; undefined otherwise, and for anything past 2^53 (a number
 * that large has already lost its last digits, and the schemas' integers refuse it).
 */
export function toInt(v: unknown): number | undefined {
  const n =
    typeof v === 'number' ? Math.trunc(v) : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v.trim()) : NaN;
  return Number.isSafeInteger(n) ? n : undefined;
}

/** '' and undefined both mean "no value"; a number only when it is exact (an id past 2^53 is not) */
export function nullableString(v: unknown): string | null {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  if (typeof v !== 'string' || v === '') return null;
  return v;
}

export function bool(v: unknown, fallback: boolean): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return fallback;
}

export function str(v: unknown, fallback: string): string {
  return typeof v === 'string' ? v : fallback;
}

/** `viewCount`: a numeric string; a number becomes one; anything else (missing, `[0]`, "abc") is unknown */
export function viewCount(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return String(Math.trunc(v));
  if (typeof v === 'string' && /^\d+$/.test(v.trim())) return v.trim();
  return null;
}

/** `[start, end]` code point indices; null unless both are exact, start ≥ 0 and start ≤ end (2^53 and past: null) */
export function indexPair(v: unknown): [number, number] | null {
  if (!Array.isArray(v) || v.length !== 2) return null;
  const [a, b] = v as unknown[];
  if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b)) return null;
  const start = a as number;
  const end = b as number;
  return start >= 0 && start <= end ? [start, end] : null;
}

/** epoch ms from ms, seconds (below 1e11), a numeric string or a date string; 0 when unreadable (views say "unknown") */
export function epochMs(v: unknown): number {
  const n = toInt(v);
  if (n !== undefined) return n > 0 && n < 1e11 ? n * 1000 : n;
  if (typeof v === 'string') {
    const t = Date.parse(v);
    if (Number.isFinite(t)) return t;
  }
  return 0;
}

/** Whether a value is valid for a schema as it is (zod's public API; the value is kept, not its copy). */
export type Check = (value: unknown) => boolean;
export function validatorOf(schema: { safeParse: (value: unknown) => { success: boolean } }): Check {
  return (value) => schema.safeParse(value).success;
}
