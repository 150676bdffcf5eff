/**
 * Coding's rows read as records, once for both stores: the executor hands text back as it was written on
 * either (a PostgreSQL schema's NUL-safe codec is its business), so numbers, flags and nulls read the same.
 */
import {
  CODE_TEXT_MAX,
  CodeValue,
  UNREAD_SHOWN,
  type CodebookDefinition,
  type CodedKind,
  type KeptValue,
} from '../../../shared/coding/codebook';
import {
  ModelSettings,
  SampleDefinition,
  type Adjudication,
  type Coder,
  type Coding,
} from '../../../shared/coding/records';

type Row = Record<string, unknown>;

/** a text column (a number read as its digits; null reads as '') */
export const text = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : '';

export const textOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : text(v));

/**
 * A codebook version's definition as kept: a damaged one (not JSON) reads as a definition with no fields, which
 * the coding service refuses to open in words and an export's code columns pass over.
 */
export function definitionOf(v: unknown): CodebookDefinition {
  const definition = json(v);
  return definition === undefined ? { fields: [] } : (definition as CodebookDefinition);
}

/** JSON as written, or undefined where it is not JSON (damaged) */
function json(v: unknown): unknown {
  try {
    return JSON.parse(text(v));
  } catch {
    return undefined;
  }
}

/**
 * A value as kept: one this Skein codes (a choice, choices, text), or, where a newer Skein wrote another shape or
 * the text is damaged, the text as written, marked unread, so that no view or count takes it for a category.
 */
export function keptValueOf(v: unknown): KeptValue {
  const value = json(v);
  // one choice or a text: nearly every value, checked without the schema
  if (typeof value === 'string' ? value.length <= CODE_TEXT_MAX : CodeValue.safeParse(value).success)
    return value as CodeValue;
  const written = text(v);
  return { unread: written.length > UNREAD_SHOWN ? `${written.slice(0, UNREAD_SHOWN)}…` : written };
}

/** how a sample was drawn; null where this Skein cannot read it (a newer Skein's way of drawing, or damaged) */
export function sampleDefinitionOf(v: unknown): SampleDefinition | null {
  const definition = SampleDefinition.safeParse(json(v));
  return definition.success ? definition.data : null;
}

/** a model coder's settings; null where this Skein cannot read them (a newer Skein's, or damaged): it does not run */
function modelOf(v: unknown): ModelSettings | null {
  if (v === null || v === undefined) return null;
  const settings = ModelSettings.safeParse(json(v));
  return settings.success ? settings.data : null;
}

export const coderOf = (r: Row): Coder => ({
  id: Number(r.id),
  name: text(r.name),
  kind: r.kind === 'model' ? 'model' : 'person',
  model: modelOf(r.model),
  createdAt: Number(r.created_at),
  revealedAt: r.revealed_at === null || r.revealed_at === undefined ? null : Number(r.revealed_at),
});

export const codingOf = (r: Row): Coding => ({
  kind: text(r.item_kind) as CodedKind,
  id: text(r.item_id),
  field: text(r.field),
  coder: Number(r.coder),
  value: keptValueOf(r.value),
  codedAt: Number(r.coded_at),
  version: Number(r.version),
  // a model's record of how it coded: shown as written when it is not JSON
  detail: r.detail === null || r.detail === undefined ? null : (json(r.detail) ?? text(r.detail)),
});

export const adjudicationOf = (r: Row): Adjudication => ({
  kind: text(r.item_kind) as CodedKind,
  id: text(r.item_id),
  field: text(r.field),
  value: keptValueOf(r.value),
  decidedAt: Number(r.decided_at),
  decidedBy: text(r.decided_by),
  note: text(r.note),
  version: Number(r.version),
});
