/**
 * Query validation through the shared catalog's `querySchema(id)`, with zod's
 * issues turned into the FastAPI error body the spec shows:
 * `{detail: [{loc: ["query", name], msg, type}]}`.
 */
import type { z } from 'zod';
import { operation, querySchema, type OperationId, type ParamSpec } from '../shared/api';

export interface DetailItem {
  loc: ['query', string];
  msg: string;
  type: string;
  input?: unknown;
}

export type QueryValues = Record<string, string | number | boolean | undefined>;

export type Parsed = { ok: true; params: QueryValues } | { ok: false; detail: DetailItem[] };

/** `querySchema` builds a new schema per call (and zod compiles it on first use): keep one per operation */
const schemas = new Map<OperationId, ReturnType<typeof querySchema>>();

export function parseQuery(id: OperationId, raw: Record<string, unknown>): Parsed {
  let schema = schemas.get(id);
  if (!schema) schemas.set(id, (schema = querySchema(id)));
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, params: result.data };
  const specs = new Map(operation(id).params.map((p) => [p.name, p] as const));
  const seen = new Set<string>();
  const detail: DetailItem[] = [];
  for (const issue of result.error.issues) {
    const name = String(issue.path[0] ?? '');
    if (seen.has(name)) continue; // one entry per parameter
    seen.add(name);
    detail.push(detailFor(name, raw[name], issue, specs.get(name)));
  }
  return { ok: false, detail };
}

function detailFor(name: string, input: unknown, issue: z.core.$ZodIssue, spec: ParamSpec | undefined): DetailItem {
  const loc: DetailItem['loc'] = ['query', name];
  if (input === undefined) return { loc, msg: 'Field required', type: 'missing' };
  if (Array.isArray(input)) return { loc, msg: `${name} must be given once`, type: 'string_type', input };
  return { loc, msg: issue.message, type: typeFor(issue, spec), input };
}

/** FastAPI/pydantic error types, as close as the zod issue allows */
function typeFor(issue: z.core.$ZodIssue, spec: ParamSpec | undefined): string {
  if (spec?.enum) return 'enum';
  switch (issue.code) {
    case 'too_small':
      return issue.origin === 'string' ? 'string_too_short' : 'greater_than_equal';
    case 'too_big':
      return 'less_than_equal';
    case 'invalid_format':
    case 'invalid_value':
      if (spec?.type === 'integer') return 'int_parsing';
      if (spec?.type === 'boolean') return 'bool_parsing';
      return 'value_error';
    default:
      return 'value_error';
  }
}

/** The field-notes variant: HTTP 400 with one string `detail`. */
export function detailAsString(detail: readonly DetailItem[]): string {
  return detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; ');
}

export function cursorError(cursor: unknown): DetailItem {
  return {
    loc: ['query', 'cursor'],
    msg: 'Invalid cursor: pass next_cursor from the previous page unchanged',
    type: 'value_error',
    input: cursor,
  };
}
