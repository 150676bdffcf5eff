/**
 * A codebook (the coding workbench): the fields coders fill in for each post or account — a category (single
 * or multiple choice, each choice with a description and examples), an ordinal scale (levels in order), free
 * text, or a note — and the one key that picks each choice while coding. A codebook is versioned: a change
 * after coding started becomes a new version, and every value says which version it was made under.
 *
 * Pure zod: main checks every definition and value the renderer sends with these, and the renderer builds its
 * forms from them.
 */
import { z } from 'zod';

/** What can be coded: a post or an account, by its id. */
export const CodedKind = z.enum(['post', 'user']);
export type CodedKind = z.infer<typeof CodedKind>;

/** Keys that move between items while coding (`j`/`k` as in every list of Skein): never a category's key. */
const NAVIGATION_KEYS: readonly string[] = ['j', 'k'];

/** The keys a category may take, in the order they are handed out: digits first, then letters. */
const CATEGORY_KEYS: readonly string[] = [...'1234567890abcdefghilmnopqrstuvwxyz'];

const CategoryKey = z
  .string()
  .regex(/^[0-9a-z]$/, 'one digit or lower-case letter')
  .refine((k) => !NAVIGATION_KEYS.includes(k), { message: 'j and k move between items' });

export const CategoryDef = z.object({
  /** what is stored and exported (`supportive`, `3`) */
  value: z
    .string()
    .trim()
    .min(1)
    .max(80)
    .regex(/^[^\s|]([^|]*[^\s|])?$/, 'no |, no spaces at either end'),
  label: z.string().trim().min(1).max(120),
  description: z.string().max(2000).default(''),
  examples: z.array(z.string().max(500)).max(20).default([]),
  /** the key that picks it while coding (assigned when absent) */
  key: CategoryKey.optional(),
});
export type CategoryDef = z.infer<typeof CategoryDef>;

/** category: choices; ordinal: levels, lowest first; text: free text; note: a coder's remark, not compared. */
export const FieldType = z.enum(['category', 'ordinal', 'text', 'note']);
export type FieldType = z.infer<typeof FieldType>;

export const FieldKey = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'lower-case letters, digits and _, from a letter');

export const FieldDef = z.object({
  /** the column name in exports (`stance`) */
  key: FieldKey,
  label: z.string().trim().min(1).max(120),
  description: z.string().max(4000).default(''),
  type: FieldType,
  /** category fields: more than one choice may apply */
  multiple: z.boolean().default(false),
  /** category: the choices; ordinal: the levels, lowest first; text and note: none */
  categories: z.array(CategoryDef).max(40).default([]),
});
export type FieldDef = z.infer<typeof FieldDef>;

export const CodebookDefinition = z.object({ fields: z.array(FieldDef).min(1).max(30) }).superRefine((def, ctx) => {
  const keys = new Set<string>();
  const pressed = new Map<string, string>();
  def.fields.forEach((f, i) => {
    if (keys.has(f.key))
      ctx.addIssue({ code: 'custom', path: ['fields', i, 'key'], message: `two fields are called ${f.key}` });
    keys.add(f.key);
    const choosing = f.type === 'category' || f.type === 'ordinal';
    if (choosing && f.categories.length < 2)
      ctx.addIssue({
        code: 'custom',
        path: ['fields', i, 'categories'],
        message: `${f.label} needs at least two ${f.type === 'ordinal' ? 'levels' : 'categories'}`,
      });
    if (!choosing && f.categories.length > 0)
      ctx.addIssue({
        code: 'custom',
        path: ['fields', i, 'categories'],
        message: `a ${f.type} field has no categories`,
      });
    if (f.multiple && f.type !== 'category')
      ctx.addIssue({ code: 'custom', path: ['fields', i, 'multiple'], message: 'only a category field is multiple' });
    const values = new Set<string>();
    f.categories.forEach((c, j) => {
      if (values.has(c.value))
        ctx.addIssue({
          code: 'custom',
          path: ['fields', i, 'categories', j, 'value'],
          message: `${f.label} has two categories “${c.value}”`,
        });
      values.add(c.value);
      if (c.key === undefined) return;
      const other = pressed.get(c.key);
      if (other !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['fields', i, 'categories', j, 'key'],
          message: `the key ${c.key} already picks ${other}`,
        });
      pressed.set(c.key, `${f.label}: ${c.label}`);
    });
  });
});
export type CodebookDefinition = z.infer<typeof CodebookDefinition>;
export type CodebookDefinitionInput = z.input<typeof CodebookDefinition>;

/**
 * Gives every category without a key the next free one (digits, then letters; never j or k), in field order,
 * so a codebook is codable by keyboard as soon as it is saved. Keys already set are kept.
 */
export function assignKeys(def: CodebookDefinition): CodebookDefinition {
  const taken = new Set(def.fields.flatMap((f) => f.categories.flatMap((c) => (c.key ? [c.key] : []))));
  const free = CATEGORY_KEYS.filter((k) => !taken.has(k));
  return {
    fields: def.fields.map((f) => ({
      ...f,
      categories: f.categories.map((c) => (c.key || free.length === 0 ? c : { ...c, key: free.shift() })),
    })),
  };
}

/** A value as stored: one choice, several (multiple choice, sorted), or text. */
/** the longest text a value holds */
export const CODE_TEXT_MAX = 20_000;
export const CodeValue = z.union([z.string().max(CODE_TEXT_MAX), z.array(z.string().max(80)).max(40)]);
export type CodeValue = z.infer<typeof CodeValue>;

/** the most of a value this Skein cannot read that is shown, as written (a cut one ends in "…") */
export const UNREAD_SHOWN = 2_000;

/**
 * A value the project keeps that this Skein cannot read: of a shape a newer Skein writes, or damaged. It comes as
 * written (its first 2,000 characters), is shown and exported as that text, and is never taken as a category,
 * compared or counted in agreement.
 */
export const UnreadValue = z.object({ unread: z.string().max(UNREAD_SHOWN + 1) });
export type UnreadValue = z.infer<typeof UnreadValue>;

/** A value as the project keeps it and this Skein reads it. */
export const KeptValue = z.union([CodeValue, UnreadValue]);
export type KeptValue = z.infer<typeof KeptValue>;

/** Whether a kept value is one this Skein cannot read. */
export const isUnread = (value: KeptValue): value is UnreadValue => typeof value === 'object' && !Array.isArray(value);

/** Why a value does not fit a field, or null when it does (main checks every value against the version coded under). */
export function valueProblem(field: FieldDef, value: CodeValue): string | null {
  const allowed = new Set(field.categories.map((c) => c.value));
  switch (field.type) {
    case 'category':
      if (field.multiple) {
        if (!Array.isArray(value)) return `${field.label} takes a list of categories`;
        const bad = value.find((v) => !allowed.has(v));
        return bad === undefined ? null : `“${bad}” is not a category of ${field.label}`;
      }
      if (typeof value !== 'string') return `${field.label} takes one category`;
      return allowed.has(value) ? null : `“${value}” is not a category of ${field.label}`;
    case 'ordinal':
      if (typeof value !== 'string') return `${field.label} takes one level`;
      return allowed.has(value) ? null : `“${value}” is not a level of ${field.label}`;
    case 'text':
    case 'note':
      return typeof value === 'string' ? null : `${field.label} takes text`;
  }
}

/** A multiple-choice value in its one stored form (sorted, no repeats); other values as they are. */
export function canonicalValue<V extends KeptValue>(value: V): V {
  return Array.isArray(value) ? ([...new Set(value)].sort() as V) : value;
}

/**
 * A value as one cell: a choice, choices joined with `|` (no category value holds one), or text; one this Skein
 * cannot read, as written.
 */
export function valueText(value: KeptValue | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.join('|');
  return typeof value === 'string' ? value : value.unread;
}

/** Whether a field's values are compared between coders (agreement, reconciliation): category and ordinal ones. */
export function isCompared(field: FieldDef): boolean {
  return field.type === 'category' || field.type === 'ordinal';
}
