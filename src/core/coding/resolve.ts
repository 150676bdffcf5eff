/**
 * One value per item and field out of several coders' (what a code column, a share package's final codes and
 * a QDA project's consensus show): the adjudicated value when there is one, else the value every coder gave,
 * else the one coder's; several coders who disagree and no adjudication leave it open.
 */
import { canonicalValue, valueText, type KeptValue } from '../../shared/coding/codebook';
import type { Adjudication, Coding } from '../../shared/coding/records';

export type ResolvedStatus = 'adjudicated' | 'agreed' | 'single' | 'disagreed';

export interface Resolved {
  /** a value this Skein cannot read resolves as written (it is exported as its text, never read as a category) */
  value: KeptValue | null;
  status: ResolvedStatus;
  coders: number;
}

const key = (kind: string, id: string, field: string) => `${kind}\u0000${id}\u0000${field}`;

/** Per `kind, id, field`: the resolved value. */
export function resolveValues(
  codings: readonly Coding[],
  adjudications: readonly Adjudication[],
): Map<string, Resolved> {
  const byCell = new Map<string, Coding[]>();
  for (const c of codings) {
    const k = key(c.kind, c.id, c.field);
    const list = byCell.get(k) ?? [];
    list.push(c);
    byCell.set(k, list);
  }
  const out = new Map<string, Resolved>();
  for (const [k, list] of byCell) {
    const texts = new Set(list.map((c) => JSON.stringify(canonicalValue(c.value))));
    if (list.length === 1) out.set(k, { value: list[0]!.value, status: 'single', coders: 1 });
    else if (texts.size === 1) out.set(k, { value: list[0]!.value, status: 'agreed', coders: list.length });
    else out.set(k, { value: null, status: 'disagreed', coders: list.length });
  }
  for (const a of adjudications) {
    const k = key(a.kind, a.id, a.field);
    out.set(k, { value: a.value, status: 'adjudicated', coders: out.get(k)?.coders ?? 0 });
  }
  return out;
}

export function resolvedKey(kind: string, id: string, field: string): string {
  return key(kind, id, field);
}

/** Whether the coders' values of one cell differ (what reconciliation lists). */
export function disagree(values: ReadonlyArray<{ value: KeptValue }>): boolean {
  if (values.length < 2) return false;
  return new Set(values.map((v) => valueText(canonicalValue(v.value)))).size > 1;
}
