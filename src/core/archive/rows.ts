/**
 * The coding tables' rows read as records, once for both stores: each store hands in how it reads a
 * text column (a project file's as stored; a team project's decoded, postgres/text.ts). Numbers, flags and
 * nulls read the same on both.
 */
import type { CodedKind, CodeValue } from '../../shared/coding/codebook';
import type { Adjudication, Coder, Coding, ModelSettings } from '../../shared/coding/records';

type Row = Record<string, unknown>;

/** A project file's text column as stored (SQLite hands back text, numbers or null; null reads as ''). */
export const storedText = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : '';

/** The readers of one store, given how it reads a text column (a number read as its digits). */
export function rowReaders(text: (v: unknown) => string) {
  const parse = <T>(v: unknown): T => JSON.parse(text(v)) as T;
  const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
  return {
    parse,
    coder: (r: Row): Coder => ({
      id: Number(r.id),
      name: text(r.name),
      kind: r.kind === 'model' ? 'model' : 'person',
      model: r.model === null ? null : parse<ModelSettings>(r.model),
      createdAt: Number(r.created_at),
      revealedAt: numOrNull(r.revealed_at),
    }),
    coding: (r: Row): Coding => ({
      kind: text(r.item_kind) as CodedKind,
      id: text(r.item_id),
      field: text(r.field),
      coder: Number(r.coder),
      value: parse<CodeValue>(r.value),
      codedAt: Number(r.coded_at),
      version: Number(r.version),
      detail: r.detail === null || r.detail === undefined ? null : parse<unknown>(r.detail),
    }),
    adjudication: (r: Row): Adjudication => ({
      kind: text(r.item_kind) as CodedKind,
      id: text(r.item_id),
      field: text(r.field),
      value: parse<CodeValue>(r.value),
      decidedAt: Number(r.decided_at),
      decidedBy: text(r.decided_by),
      note: text(r.note),
      version: Number(r.version),
    }),
  };
}
