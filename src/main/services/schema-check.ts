/**
 * Check-only validators compiled from zod schemas (the schemas stay the one
 * source of truth; nothing here restates a field).
 *
 * Why: zod's `safeParse` builds a new copy of every object, array and tuple it
 * validates, plus a result object per node. On main's data path the readers
 * already hand over fresh objects (and the bridge handler a fresh envelope), so
 * that copy and its garbage were most of the validation cost of a 20-post page.
 * A compiled check walks the same schema and only answers yes or no.
 *
 * The contract is one-sided, so it can never let through what zod would refuse:
 * `true` means zod accepts the value AND its output would equal the value
 * (loose objects keep unknown keys as they are; a stripping or strict object
 * must have no key outside its shape; nothing is defaulted or transformed), so
 * the value can be used as it is. `false` only means "not proven": the caller
 * asks zod, which stays the authority for the verdict, the output and the error
 * message (`validatorOf`, `normalizePage` and the dispatcher all do that).
 *
 * Only plain constructs are compiled: string (regex checks), number (safe-integer
 * checks), boolean, literal, enum, unknown, optional, nullable, array, tuple
 * without rest or optional items, object, lazy (recursion). Anything else (other
 * checks such as lengths, refinements, transforms, defaults, unions, records…)
 * makes `compileCheck` return null for the whole schema, and zod is used for it.
 * Untrusted bridge input is always parsed by zod, never by this.
 */
import { z } from 'zod';

export type Check = (value: unknown) => boolean;

type Schema = z.core.$ZodType;

class Unsupported extends Error {}

const compiled = new WeakMap<Schema, Check | null>();

/** A check-only validator equivalent to `schema` (see the header), or null when the schema uses what it does not compile. */
export function compileCheck(schema: Schema): Check | null {
  if (compiled.has(schema)) return compiled.get(schema) ?? null;
  let check: Check | null;
  try {
    check = build(schema, new Map());
  } catch (e) {
    if (!(e instanceof Unsupported)) throw e;
    check = null;
  }
  compiled.set(schema, check);
  return check;
}

/**
 * Whether zod accepts `value` as it is: the compiled check when it says yes,
 * zod's own verdict otherwise (or always, for a schema that does not compile).
 * For filters that keep the original value (entities, urls).
 */
export function validatorOf(schema: z.ZodType): Check {
  const check = compileCheck(schema);
  if (!check) return (v) => schema.safeParse(v).success;
  return (v) => check(v) || schema.safeParse(v).success;
}

function isPlainRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** one node; `cells` holds the schemas being compiled so a recursive schema (lazy) refers to itself */
function build(schema: Schema, cells: Map<Schema, { check?: Check }>): Check {
  const cell = cells.get(schema);
  if (cell) return (v) => cell.check!(v);
  const own: { check?: Check } = {};
  cells.set(schema, own);
  own.check = node(schema, cells);
  return own.check;
}

function node(schema: Schema, cells: Map<Schema, { check?: Check }>): Check {
  const zod = schema._zod;
  // a schema that is its own check (z.email(), z.int()…) or has a coercion is not compiled
  if ('check' in zod || (zod.def as { coerce?: boolean }).coerce) throw new Unsupported();
  const checks = zod.def.checks ?? [];
  const def = zod.def;
  switch (def.type) {
    case 'string': {
      const patterns = checks.map((c) => {
        if (!(c instanceof z.core.$ZodCheckRegex) || c._zod.def.when) throw new Unsupported();
        return c._zod.def.pattern;
      });
      return (v) => {
        if (typeof v !== 'string') return false;
        for (const p of patterns) {
          p.lastIndex = 0;
          if (!p.test(v)) return false;
        }
        return true;
      };
    }
    case 'number': {
      let safeInt = false;
      for (const c of checks) {
        if (!(c instanceof z.core.$ZodCheckNumberFormat) || c._zod.def.format !== 'safeint' || c._zod.def.when) throw new Unsupported();
        safeInt = true;
      }
      return safeInt ? (v) => Number.isSafeInteger(v) : (v) => typeof v === 'number' && Number.isFinite(v);
    }
    case 'boolean':
      noChecks(checks);
      return (v) => typeof v === 'boolean';
    case 'unknown':
      noChecks(checks);
      return () => true;
    case 'literal': {
      noChecks(checks);
      const values = new Set<unknown>((def as z.core.$ZodLiteralDef<z.core.util.Literal>).values);
      return (v) => values.has(v);
    }
    case 'optional': {
      noChecks(checks);
      if (zod.traits.has('$ZodExactOptional')) throw new Unsupported();
      const inner = (def as z.core.$ZodOptionalDef).innerType;
      // a defaulted inner substitutes a value for undefined: not "as it is"
      if (inner._zod.optin === 'defaulted') throw new Unsupported();
      const check = build(inner, cells);
      return (v) => v === undefined || check(v);
    }
    case 'nullable': {
      noChecks(checks);
      const check = build((def as z.core.$ZodNullableDef).innerType, cells);
      return (v) => v === null || check(v);
    }
    case 'lazy':
      noChecks(checks);
      return build((zod as z.core.$ZodLazyInternals).innerType, cells);
    case 'array': {
      // length checks (min/max/length) are not compiled
      noChecks(checks);
      const element = build((def as z.core.$ZodArrayDef).element, cells);
      return (v) => {
        if (!Array.isArray(v)) return false;
        for (const x of v) if (!element(x)) return false;
        return true;
      };
    }
    case 'tuple': {
      noChecks(checks);
      const d = def as z.core.$ZodTupleDef;
      if (d.rest || d.items.some((i) => i._zod.optin !== undefined || i._zod.optout !== undefined)) throw new Unsupported();
      const items = d.items.map((i) => build(i, cells));
      return (v) => {
        if (!Array.isArray(v) || v.length !== items.length) return false;
        for (let i = 0; i < items.length; i++) if (!items[i]!(v[i])) return false;
        return true;
      };
    }
    case 'enum': {
      noChecks(checks);
      const values = new Set<unknown>(Object.values((def as z.core.$ZodEnumDef).entries));
      return (v) => values.has(v);
    }
    case 'object': {
      noChecks(checks);
      const d = def as z.core.$ZodObjectDef;
      // loose: unknown keys are kept as they are; stripping (z.object) or strict: a value with a key
      // outside the shape is not proven (zod drops it, or refuses it)
      const loose = d.catchall !== undefined && d.catchall._zod.def.type === 'unknown';
      if (!loose && d.catchall !== undefined && d.catchall._zod.def.type !== 'never') throw new Unsupported();
      const keySet = new Set(Object.keys(d.shape));
      const fields = Object.keys(d.shape).map((key): Field => {
        const field = d.shape[key]!;
        const check = build(field, cells);
        const { optin, optout } = field._zod;
        if (optin === 'defaulted' || (optin === undefined && optout !== undefined)) throw new Unsupported();
        // zod: an absent key is fine when the field is optional (optin and optout both "optional")
        return { key, check, absentOk: optin === 'optional' && optout === 'optional', ...primitive(field) };
      });
      if (Object.getOwnPropertySymbols(d.shape).length > 0) throw new Unsupported();
      if (fields.every((f) => IDENTIFIER.test(f.key))) return generatedObjectCheck(fields, loose ? null : keySet);
      return (v) => {
        // zod leaves an own `__proto__` key out of its output: let zod handle such a value
        if (!isPlainRecord(v) || Object.hasOwn(v, '__proto__')) return false;
        if (!loose) for (const key in v) if (!keySet.has(key)) return false;
        for (const f of fields) {
          const x = v[f.key];
          if (x === undefined && !(f.key in v)) {
            if (f.absentOk) continue;
            return false;
          }
          if (!fieldOk(f, x)) return false;
        }
        return true;
      };
    }
    default:
      throw new Unsupported();
  }
}

/**
 * Most fields are plain strings, numbers or booleans (maybe nullable). Testing those inline in the
 * object's loop, instead of through one closure per field, is what makes the check cheap: a call
 * site shared by every field of every schema cannot be inlined by the JIT.
 */
const enum Kind {
  Other,
  String,
  Number,
  SafeInt,
  Boolean,
}

interface Field {
  key: string;
  /** the field's full check (used for Kind.Other) */
  check: Check;
  absentOk: boolean;
  kind: Kind;
  /** a primitive kind that also accepts null */
  nullOk: boolean;
}

function fieldOk(f: Field, x: unknown): boolean {
  switch (f.kind) {
    case Kind.String:
      return typeof x === 'string' || (f.nullOk && x === null);
    case Kind.Number:
      return (typeof x === 'number' && Number.isFinite(x)) || (f.nullOk && x === null);
    case Kind.SafeInt:
      return Number.isSafeInteger(x) || (f.nullOk && x === null);
    case Kind.Boolean:
      return typeof x === 'boolean' || (f.nullOk && x === null);
    default:
      return f.check(x);
  }
}

/** a key that can be written as `v.key` in generated code */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * The object check above, written out as code for one shape: the same tests in the same order,
 * with `v.name` reads (a property load the JIT caches per site) instead of `v[f.key]` in a loop
 * shared by every field of every schema (a generic keyed load each time): ~2.4x faster on a page
 * of posts. Only identifier keys from the schema itself go into the source (nothing from the data),
 * and nested checks are passed in as values.
 */
function generatedObjectCheck(fields: Field[], keySet: Set<string> | null): Check {
  const lines = [
    // zod leaves an own `__proto__` key out of its output: let zod handle such a value
    "if (typeof v !== 'object' || v === null || isArray(v) || hasOwn(v, '__proto__')) return false;",
    ...(keySet ? ['for (const key in v) if (!keySet.has(key)) return false;'] : []),
    'let x;',
  ];
  fields.forEach((f, i) => {
    const orNull = f.nullOk ? ' || x === null' : '';
    const test = {
      [Kind.String]: `typeof x === 'string'${orNull}`,
      [Kind.Number]: `(typeof x === 'number' && numberIsFinite(x))${orNull}`,
      [Kind.SafeInt]: `isSafeInteger(x)${orNull}`,
      [Kind.Boolean]: `typeof x === 'boolean'${orNull}`,
      [Kind.Other]: `checks[${i}](x)`,
    }[f.kind];
    lines.push(`x = v.${f.key};`);
    lines.push(`if (x === undefined && !('${f.key}' in v)) { ${f.absentOk ? '' : 'return false;'} } else if (!(${test})) return false;`);
  });
  lines.push('return true;');
  const make = new Function('checks', 'keySet', 'isArray', 'hasOwn', 'numberIsFinite', 'isSafeInteger', `return function check(v) {\n${lines.join('\n')}\n};`);
  return make(
    fields.map((f) => f.check),
    keySet,
    Array.isArray,
    Object.hasOwn,
    Number.isFinite,
    Number.isSafeInteger,
  ) as Check;
}

/** the inline kind of a field: only a plain string/number/boolean (checks already vetted by `node`), maybe nullable */
function primitive(schema: Schema): { kind: Kind; nullOk: boolean } {
  const def = schema._zod.def;
  if (def.type === 'nullable') {
    const inner = primitive((def as z.core.$ZodNullableDef).innerType);
    return inner.kind === Kind.Other ? { kind: Kind.Other, nullOk: false } : { kind: inner.kind, nullOk: true };
  }
  const checks = def.checks ?? [];
  if (def.type === 'string' && checks.length === 0) return { kind: Kind.String, nullOk: false };
  if (def.type === 'boolean') return { kind: Kind.Boolean, nullOk: false };
  if (def.type === 'number') return { kind: checks.length === 0 ? Kind.Number : Kind.SafeInt, nullOk: false };
  return { kind: Kind.Other, nullOk: false };
}

function noChecks(checks: readonly unknown[]): void {
  if (checks.length > 0) throw new Unsupported();
}
