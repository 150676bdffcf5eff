/**
 * Coding by keyboard: each category's key picks it (a digit or a letter; j and k move between items), a
 * multiple-choice field's key toggles its category, and an item is done when every compared field has a value.
 * Pure functions over a codebook version.
 */
import type { CodebookDefinition, CodeValue, FieldDef, KeptValue } from '../../../shared/coding/codebook';
import { isCompared, isUnread } from '../../../shared/coding/codebook';

export interface KeyTarget {
  field: FieldDef;
  value: string;
}

/** key → the field and category it picks */
export function keyMap(definition: CodebookDefinition): Map<string, KeyTarget> {
  const map = new Map<string, KeyTarget>();
  for (const field of definition.fields)
    for (const c of field.categories) if (c.key && !map.has(c.key)) map.set(c.key, { field, value: c.value });
  return map;
}

/**
 * The value a key press leaves: one choice picked (again: cleared), or a multiple choice toggled. A value this
 * Skein cannot read is replaced by the choice.
 */
export function pressed(field: FieldDef, current: KeptValue | null | undefined, value: string): CodeValue | null {
  if (!field.multiple) return current === value ? null : value;
  const chosen = new Set(Array.isArray(current) ? current : []);
  if (chosen.has(value)) chosen.delete(value);
  else chosen.add(value);
  return chosen.size === 0 ? null : [...chosen].sort();
}

/** Whether every compared field has a value. */
export function isDone(definition: CodebookDefinition, values: ReadonlyArray<{ field: string }>): boolean {
  const have = new Set(values.map((v) => v.field));
  const fields = definition.fields.filter(isCompared);
  return fields.length > 0 && fields.every((f) => have.has(f.key));
}

/** words for a value this Skein cannot read, after its text as written */
export const UNREAD_WORDS = 'as written; this Skein cannot read it';

/** Words for the items a page left out because this Skein does not code their kind (a newer Skein's). */
export function otherKindsWords(count: number, where: 'queue' | 'disagreements'): string {
  const items = count === 1 ? 'One item here is' : `${count} items here are`;
  const them = count === 1 ? 'it' : 'them';
  const left = where === 'queue' ? 'left out of this queue' : 'left out of this list';
  return `${items} of a kind this Skein does not code (a newer Skein may have added ${them}): ${left}, and kept in the project for the Skein that codes ${them}.`;
}

/** A value in words: categories by their labels; one this Skein cannot read, as written and said so. */
export function valueLabel(field: FieldDef | undefined, value: KeptValue | null | undefined): string {
  if (value === null || value === undefined) return '—';
  if (isUnread(value)) return `${value.unread} (${UNREAD_WORDS})`;
  const label = (v: string) => field?.categories.find((c) => c.value === v)?.label ?? v;
  return Array.isArray(value)
    ? value.map(label).join(', ')
    : field?.type === 'text' || field?.type === 'note'
      ? value
      : label(value);
}
