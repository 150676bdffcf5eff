/**
 * Parameter validation derived from the catalog: the typed params the
 * renderer sends (`paramsSchema`), the raw query strings a server sees
 * (`querySchema`, defaults applied), and their serialization.
 */
import { z } from 'zod';
import { MAX_IDS_PER_CALL, operation, type OperationId, type ParamSpec } from './catalog';
import { scalarText } from '../scalar-text';

const ID_LIST = /^\d+(,\d+)*$/;

function paramSchema(p: ParamSpec): z.ZodType {
  switch (p.type) {
    case 'string': {
      const s = z.string().min(1, `${p.name} must not be empty`);
      return p.enum ? z.enum(p.enum as [string, ...string[]]) : s;
    }
    case 'idList':
      return z
        .string()
        .transform((v) => v.replace(/\s+/g, ''))
        .pipe(
          z
            .string()
            .regex(ID_LIST, `${p.name} must be numeric ids separated by commas`)
            .refine((v) => v.split(',').length <= (p.max ?? MAX_IDS_PER_CALL), {
              message: `${p.name} accepts at most ${p.max ?? MAX_IDS_PER_CALL} ids`,
            }),
        );
    case 'integer': {
      let n = z.number().int(`${p.name} must be an integer`);
      if (p.min !== undefined) n = n.min(p.min, `${p.name} must be at least ${p.min}`);
      if (p.max !== undefined) n = n.max(p.max, `${p.name} must be at most ${p.max}`);
      return n;
    }
    case 'boolean':
      return z.boolean();
  }
}

/**
 * Schema of an operation's typed params (as the renderer sends them through
 * the bridge). Unknown parameters are refused.
 */
const paramsCache = new Map<OperationId, z.ZodType<Record<string, string | number | boolean>>>();
const queryCache = new Map<OperationId, z.ZodType<Record<string, string | number | boolean | undefined>>>();

export function paramsSchema(id: OperationId): z.ZodType<Record<string, string | number | boolean>> {
  const hit = paramsCache.get(id);
  if (hit) return hit;
  const shape: Record<string, z.ZodType> = {};
  for (const p of operation(id).params) {
    const s = paramSchema(p);
    shape[p.name] = p.required ? s : s.optional();
  }
  const schema = z.strictObject(shape) as unknown as z.ZodType<Record<string, string | number | boolean>>;
  paramsCache.set(id, schema);
  return schema;
}

/**
 * Schema of an operation's raw query string values (as an HTTP server sees
 * them): integers and booleans arrive as text. Defaults are applied.
 */
export function querySchema(id: OperationId): z.ZodType<Record<string, string | number | boolean | undefined>> {
  const hit = queryCache.get(id);
  if (hit) return hit;
  const shape: Record<string, z.ZodType> = {};
  for (const p of operation(id).params) {
    let s: z.ZodType;
    if (p.type === 'integer') {
      s = z
        .string()
        .regex(/^-?\d+$/, `${p.name} must be an integer`)
        .transform(Number)
        .pipe(paramSchema(p) as z.ZodType<number, number>);
    } else if (p.type === 'boolean') {
      s = z.enum(['true', 'false'], `${p.name} must be true or false`).transform((v) => v === 'true');
    } else {
      s = paramSchema(p);
    }
    shape[p.name] = p.required ? s : p.default !== undefined ? s.optional().default(p.default as never) : s.optional();
  }
  const schema = z.looseObject(shape) as unknown as z.ZodType<Record<string, string | number | boolean | undefined>>;
  queryCache.set(id, schema);
  return schema;
}

/** Serialize typed params into the query string the API expects. */
export function toQueryString(id: OperationId, params: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const p of operation(id).params) {
    const v = params[p.name];
    if (v === undefined || v === null || v === '') continue;
    q.set(p.name, scalarText(v));
  }
  return q.toString();
}
