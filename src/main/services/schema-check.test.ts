import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ITEM_SCHEMAS } from '../../shared/api/catalog';
import { postFixture, userFixture } from '../../shared/api/fixtures';
import { MediaEntity, UrlEntity } from '../../shared/api/schemas';
import { ApiCallInput, ApiCallOutput } from '../../shared/ipc/api';
import { compileCheck, validatorOf } from './schema-check';

/** every value reachable in `v` replaced, one at a time, by each of `replacements` (and each key deleted) */
function* mutations(v: unknown, replacements: unknown[]): Generator<unknown> {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      for (const r of replacements) yield v.map((x, j) => (j === i ? r : x));
      for (const m of mutations(v[i], replacements)) yield v.map((x, j) => (j === i ? m : x));
    }
    yield [...v, 'extra'];
    yield v.slice(1);
    return;
  }
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      for (const r of replacements) yield { ...o, [k]: r };
      const { [k]: _gone, ...rest } = o;
      yield rest;
      for (const m of mutations(o[k], replacements)) yield { ...o, [k]: m };
    }
    yield { ...o, unknownKey: { any: 'thing' } };
  }
}

const REPLACEMENTS = [undefined, null, '', 'abc', '123', 0, -1, 1.5, 2 ** 53, Number.NaN, true, [], {}, [1, 2]];

/** the one-sided contract: a compiled `true` means zod accepts the value and gives it back equal */
function expectAgrees(schema: z.ZodType, value: unknown) {
  const check = compileCheck(schema)!;
  const parsed = schema.safeParse(value);
  if (check(value)) {
    expect(parsed.success, JSON.stringify(value)).toBe(true);
    expect(parsed.data).toEqual(value);
  }
  return { compiled: check(value), zod: parsed.success };
}

describe('compileCheck', () => {
  it('compiles every item schema and the api.call output, never the untrusted input', () => {
    for (const schema of Object.values(ITEM_SCHEMAS)) expect(compileCheck(schema)).not.toBeNull();
    expect(compileCheck(ApiCallOutput)).not.toBeNull();
    // record + union: zod only (input is always parsed by zod anyway)
    expect(compileCheck(ApiCallInput)).toBeNull();
  });

  it('agrees with zod on a valid post, and never says yes where zod says no, on thousands of variants', () => {
    const post = { ...postFixture, quoted_tweet: { ...postFixture, id: '5', quoted_tweet: null } };
    expect(expectAgrees(ITEM_SCHEMAS.post, post)).toEqual({ compiled: true, zod: true });
    let variants = 0;
    let refusedByBoth = 0;
    for (const m of mutations(post, REPLACEMENTS)) {
      const r = expectAgrees(ITEM_SCHEMAS.post, m);
      variants++;
      if (!r.zod) {
        expect(r.compiled).toBe(false);
        refusedByBoth++;
      }
    }
    expect(variants).toBeGreaterThan(1000);
    expect(refusedByBoth).toBeGreaterThan(100);
  });

  it('agrees with zod on users, urls and media entities', () => {
    for (const [schema, value] of [
      [ITEM_SCHEMAS.user, userFixture],
      [UrlEntity, { display_url: 'a', expanded_url: 'b', url: 'c', indices: [1, 2] }],
      [MediaEntity, (postFixture.entities as { media?: unknown[] } | null)?.media?.[0]],
    ] as const) {
      if (value === undefined) continue;
      expectAgrees(schema, value);
      for (const m of mutations(value, REPLACEMENTS)) expectAgrees(schema, m);
    }
  });

  it('follows zod on the details: ids by regex, safe integers, tuples, optional and nullable, literals', () => {
    const s = z.looseObject({
      id: z.string().regex(/^\d+$/),
      n: z.number().int(),
      f: z.number(),
      pair: z.tuple([z.number().int(), z.number().int()]),
      opt: z.string().optional(),
      maybe: z.string().nullable(),
      kind: z.literal('tweet'),
      mode: z.enum(['a', 'b']),
    });
    const ok = { id: '12', n: 3, f: 0.5, pair: [1, 2], maybe: null, kind: 'tweet', mode: 'a', extra: 1 };
    const check = compileCheck(s)!;
    expect(check(ok)).toBe(true);
    expect(check({ ...ok, opt: undefined })).toBe(true);
    for (const bad of [
      { ...ok, id: '12a' },
      { ...ok, n: 1.5 },
      { ...ok, n: 2 ** 53 },
      { ...ok, f: Infinity },
      { ...ok, pair: [1, 2, 3] },
      { ...ok, pair: [1] },
      { ...ok, opt: null },
      { ...ok, maybe: undefined },
      { ...ok, kind: 'user' },
      { ...ok, mode: 'c' },
      (({ maybe: _m, ...rest }) => rest)(ok),
    ]) {
      expect(check(bad)).toBe(false);
      expect(s.safeParse(bad).success).toBe(false);
    }
  });

  it('does not prove what zod would change: extra keys of a stripping or strict object, an own __proto__', () => {
    const strip = compileCheck(z.object({ a: z.string() }))!;
    expect(strip({ a: 'x' })).toBe(true);
    expect(strip({ a: 'x', b: 1 })).toBe(false);
    expect(compileCheck(z.strictObject({ a: z.string() }))!({ a: 'x', b: 1 })).toBe(false);
    const loose = compileCheck(z.looseObject({ a: z.string() }))!;
    expect(loose(JSON.parse('{"a":"x","__proto__":{"polluted":true}}'))).toBe(false);
  });

  it('checks shapes with keys that are not identifiers (no generated code for them) as zod does', () => {
    for (const [s, ok] of [
      [z.looseObject({ 'a-b': z.string(), '0': z.number().int(), 'with space': z.boolean().optional(), plain: z.string().nullable() }), { 'a-b': 'x', '0': 1, plain: null }],
      [z.object({ 'a-b': z.string(), inner: z.looseObject({ "it's": z.string() }) }), { 'a-b': 'x', inner: { "it's": 'y', more: 1 } }],
      [z.strictObject({ constructor: z.string(), $x: z.number() }), { constructor: 'c', $x: 1 }],
    ] as const) {
      expect(expectAgrees(s, ok)).toEqual({ compiled: true, zod: true });
      for (const m of mutations(ok, REPLACEMENTS)) {
        const r = expectAgrees(s, m);
        if (!r.zod) expect(r.compiled).toBe(false);
      }
    }
    // an inherited field is read as zod reads it; a missing required one is not proven
    const inheritedCheck = compileCheck(z.looseObject({ constructor: z.string() }))!;
    expect(inheritedCheck({})).toBe(false);
    expect(z.looseObject({ constructor: z.string() }).safeParse({}).success).toBe(false);
  });

  it('returns null (zod decides) for what it does not compile', () => {
    for (const s of [
      z.string().min(1),
      z.string().email(),
      z.int(),
      z.number().max(3),
      z.array(z.string()).max(2),
      z.union([z.string(), z.number()]),
      z.record(z.string(), z.string()),
      z.string().default('x'),
      z.string().transform((x) => x.length),
      z.string().refine((x) => x.length > 1),
      z.looseObject({ a: z.string().min(1) }),
      z.tuple([z.string(), z.string().optional()]),
    ]) {
      expect(compileCheck(s)).toBeNull();
    }
  });

  it('validatorOf falls back to zod for what the compiled check does not prove', () => {
    const strip = validatorOf(z.object({ a: z.string() }));
    expect(strip({ a: 'x', b: 1 })).toBe(true); // zod strips b: valid
    expect(strip({ a: 1 })).toBe(false);
    const notCompiled = validatorOf(z.string().min(2));
    expect(notCompiled('ab')).toBe(true);
    expect(notCompiled('a')).toBe(false);
  });

  it('handles recursion (quoted posts) to any depth', () => {
    let post: Record<string, unknown> = { ...postFixture, quoted_tweet: null };
    for (let i = 0; i < 6; i++) post = { ...postFixture, id: String(100 + i), quoted_tweet: post };
    expect(expectAgrees(ITEM_SCHEMAS.post, post).compiled).toBe(true);
    let inner = post;
    while ((inner.quoted_tweet as Record<string, unknown> | null)?.quoted_tweet) inner = inner.quoted_tweet as Record<string, unknown>;
    (inner.quoted_tweet as Record<string, unknown>).id = 'x';
    expect(expectAgrees(ITEM_SCHEMAS.post, post)).toEqual({ compiled: false, zod: false });
  });
});
