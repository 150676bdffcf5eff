/**
 * Coding's rows read as records, once for both stores: the executor hands text back as it was written on
 * either (a PostgreSQL schema's NUL-safe codec is its business), so numbers, flags and nulls read the same.
 */
import type { CodebookDefinition, CodedKind, CodeValue } from '../../../shared/coding/codebook';
import type { Adjudication, Coder, Coding, ModelSettings } from '../../../shared/coding/records';

type Row = Record<string, unknown>;

/** a text column (a number read as its digits; null reads as '') */
export const text = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : '';

export const textOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : text(v));

export const parse = <T>(v: unknown): T => JSON.parse(text(v)) as T;

/**
 * A codebook version's definition as kept: a damaged one (not JSON) reads as a definition with no fields, which
 * the coding service refuses to open in words and an export's code columns pass over.
 */
export function definitionOf(v: unknown): CodebookDefinition {
  try {
    return parse<CodebookDefinition>(v);
  } catch {
    return { fields: [] };
  }
}

export const coderOf = (r: Row): Coder => ({
  id: Number(r.id),
  name: text(r.name),
  kind: r.kind === 'model' ? 'model' : 'person',
  model: r.model === null ? null : parse<ModelSettings>(r.model),
  createdAt: Number(r.created_at),
  revealedAt: r.revealed_at === null || r.revealed_at === undefined ? null : Number(r.revealed_at),
});

export const codingOf = (r: Row): Coding => ({
  kind: text(r.item_kind) as CodedKind,
  id: text(r.item_id),
  field: text(r.field),
  coder: Number(r.coder),
  value: parse<CodeValue>(r.value),
  codedAt: Number(r.coded_at),
  version: Number(r.version),
  detail: r.detail === null || r.detail === undefined ? null : parse<unknown>(r.detail),
});

export const adjudicationOf = (r: Row): Adjudication => ({
  kind: text(r.item_kind) as CodedKind,
  id: text(r.item_id),
  field: text(r.field),
  value: parse<CodeValue>(r.value),
  decidedAt: Number(r.decided_at),
  decidedBy: text(r.decided_by),
  note: text(r.note),
  version: Number(r.version),
});
