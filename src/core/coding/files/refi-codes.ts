/**
 * A codebook as REFI-QDA codes (the `<Codes>` of a `.qdc` codebook file and of a `.qdpx` project) and back.
 * Each field is a code; a category or ordinal field's choices are its child codes (the ones a coder applies);
 * a text or note field is a codable code of its own, its values written as the selection's description. What
 * REFI-QDA has no place for — a field's key and type, a category's value, key and examples — is kept in the
 * code's description, on a last line `[skein …]` other tools show as text, so a codebook survives a round trip
 * through Skein and is readable everywhere else. A codebook made by another tool (no such lines) reads as one
 * single-choice field per code with children, and one multiple-choice field of the codes without.
 */
import { CodebookDefinition, type CategoryDef, type FieldDef } from '../../../shared/coding/codebook';
import { guidOf, xmlAttr, xmlText } from './xml';

/** Colours QDA tools show codes in, one per field. */
const PALETTE = [
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#9467bd',
  '#ff7f0e',
  '#17becf',
  '#8c564b',
  '#e377c2',
  '#7f7f7f',
  '#bcbd22',
];

const META = /\n?\[skein ([^\]\n]*)\]\s*$/;

function metaLine(values: Record<string, string | boolean>): string {
  return `[skein ${Object.entries(values)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join(' ')}]`;
}

function readMeta(description: string): { text: string; meta: Record<string, string> | null } {
  const m = META.exec(description);
  if (!m) return { text: description, meta: null };
  const meta: Record<string, string> = {};
  for (const pair of m[1]!.split(' ')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    try {
      meta[pair.slice(0, eq)] = decodeURIComponent(pair.slice(eq + 1));
    } catch {
      // a damaged value is left out
    }
  }
  return { text: description.slice(0, m.index), meta };
}

/** The GUID of a field's code and of a category's code, stable per codebook and version. */
export function fieldGuid(scope: string, field: FieldDef): string {
  return guidOf(scope, 'field', field.key);
}
export function categoryGuid(scope: string, field: FieldDef, category: CategoryDef): string {
  return guidOf(scope, 'category', field.key, category.value);
}

function categoryDescription(c: CategoryDef): string {
  const lines = [c.description, ...c.examples.map((e) => `Example: ${e.replace(/\n/g, ' ')}`)].filter((l) => l !== '');
  return [...lines, metaLine({ value: c.value, ...(c.key ? { key: c.key } : {}) })].join('\n');
}

/** The `<Codes>` element of a codebook (indented by `indent`). */
export function codesXml(definition: CodebookDefinition, scope: string, indent = '  '): string {
  const out: string[] = [`${indent}<Codes>`];
  definition.fields.forEach((f, i) => {
    const color = PALETTE[i % PALETTE.length]!;
    const codable = f.type === 'text' || f.type === 'note';
    const description = [f.description, metaLine({ field: f.key, type: f.type, multiple: f.multiple })]
      .filter((l) => l !== '')
      .join('\n');
    out.push(
      `${indent}  <Code guid="${fieldGuid(scope, f)}" name="${xmlAttr(f.label)}" isCodable="${codable}" color="${color}">`,
      `${indent}    <Description>${xmlText(description)}</Description>`,
    );
    for (const c of f.categories)
      out.push(
        `${indent}    <Code guid="${categoryGuid(scope, f, c)}" name="${xmlAttr(c.label)}" isCodable="true" color="${color}">`,
        `${indent}      <Description>${xmlText(categoryDescription(c))}</Description>`,
        `${indent}    </Code>`,
      );
    out.push(`${indent}  </Code>`);
  });
  out.push(`${indent}</Codes>`);
  return out.join('\n');
}

/** A code as the XML parser reads it (attributes without prefix, children as arrays). */
export interface CodeNode {
  guid?: string;
  name?: string;
  isCodable?: string;
  Description?: unknown;
  Code?: CodeNode[];
}

/** An element's text (the parser gives a string, or an object with `#text`). */
export function textOf(node: unknown): string {
  if (typeof node === 'string') return node;
  if (typeof node === 'number') return String(node);
  if (node && typeof node === 'object' && '#text' in node) return textOf(node['#text']);
  return '';
}

/** Where each code GUID points: a field, and for a choice its value. */
export interface CodeMap {
  definition: CodebookDefinition;
  byGuid: Map<string, { field: string; value: string | null }>;
  warnings: string[];
}

function slug(text: string, taken: Set<string>): string {
  const base =
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .replace(/^(?=\d)/, 'f_')
      .slice(0, 36) || 'field';
  let key = /^[a-z]/.test(base) ? base : `f_${base}`;
  for (let n = 2; taken.has(key); n++) key = `${base.slice(0, 33)}_${n}`;
  taken.add(key);
  return key;
}

function valueSlug(text: string, taken: Set<string>): string {
  const base = text.replace(/\|/g, '/').trim().slice(0, 76) || 'code';
  let value = base;
  for (let n = 2; taken.has(value); n++) value = `${base} ${n}`;
  taken.add(value);
  return value;
}

/** Codes (a `.qdc`'s or a project's) as a codebook definition, with where each code GUID points. */
export function codebookFromCodes(codes: readonly CodeNode[]): CodeMap {
  const warnings: string[] = [];
  const byGuid = new Map<string, { field: string; value: string | null }>();
  const fields: FieldDef[] = [];
  const keys = new Set<string>();
  const loose: CodeNode[] = [];
  for (const code of codes) {
    const { text, meta } = readMeta(textOf(code.Description));
    const children = code.Code ?? [];
    if (!meta && children.length === 0) {
      loose.push(code);
      continue;
    }
    const type = meta?.type === 'ordinal' || meta?.type === 'text' || meta?.type === 'note' ? meta.type : 'category';
    const key =
      meta?.field && /^[a-z][a-z0-9_]{0,39}$/.test(meta.field) && !keys.has(meta.field)
        ? meta.field
        : slug(code.name ?? 'field', keys);
    keys.add(key);
    const values = new Set<string>();
    const categories: CategoryDef[] = [];
    for (const child of children) {
      const c = readMeta(textOf(child.Description));
      const lines = c.text.split('\n');
      const examples = lines.filter((l) => l.startsWith('Example: ')).map((l) => l.slice('Example: '.length));
      const description = lines
        .filter((l) => !l.startsWith('Example: '))
        .join('\n')
        .trim();
      const value = c.meta?.value && !values.has(c.meta.value) ? c.meta.value : valueSlug(child.name ?? 'code', values);
      values.add(value);
      const press = c.meta?.key && /^[0-9a-z]$/.test(c.meta.key) && !'jk'.includes(c.meta.key) ? c.meta.key : undefined;
      categories.push({
        value,
        label: (child.name ?? value).trim() || value,
        description,
        examples,
        ...(press ? { key: press } : {}),
      });
      if (child.guid) byGuid.set(child.guid, { field: key, value });
      if ((child.Code ?? []).length > 0)
        warnings.push(`Codes under “${child.name ?? ''}” are one level too deep for a field and were left out.`);
    }
    const field: FieldDef = {
      key,
      label: (code.name ?? key).trim() || key,
      description: text.trim(),
      type: type === 'category' || type === 'ordinal' ? (categories.length >= 2 ? type : 'text') : type,
      multiple: type === 'category' && meta?.multiple === 'true',
      categories: type === 'category' || type === 'ordinal' ? (categories.length >= 2 ? categories : []) : [],
    };
    if ((type === 'category' || type === 'ordinal') && categories.length < 2)
      warnings.push(`“${field.label}” has fewer than two choices: read as a text field.`);
    fields.push(field);
    if (field.categories.length === 0) for (const child of children) if (child.guid) byGuid.delete(child.guid);
    if (code.guid) byGuid.set(code.guid, { field: key, value: null });
  }
  if (loose.length > 0) {
    // codes without children or Skein's line: one multiple-choice field of them
    const key = slug('codes', keys);
    const values = new Set<string>();
    const categories = loose.map((c) => {
      const value = valueSlug(c.name ?? 'code', values);
      if (c.guid) byGuid.set(c.guid, { field: key, value });
      return {
        value,
        label: (c.name ?? value).trim() || value,
        description: textOf(c.Description).trim(),
        examples: [],
      };
    });
    if (categories.length >= 2)
      fields.push({
        key,
        label: 'Codes',
        description: 'Codes without a parent, as one field.',
        type: 'category',
        multiple: true,
        categories,
      });
    else if (categories.length === 1) {
      fields.push({
        key,
        label: categories[0]!.label,
        description: categories[0]!.description,
        type: 'text',
        multiple: false,
        categories: [],
      });
      for (const [g, v] of byGuid) if (v.field === key) byGuid.set(g, { field: key, value: null });
      warnings.push(`The one code without a parent, “${categories[0]!.label}”, is read as a text field.`);
    }
  }
  // keys the file gave that collide are dropped rather than refuse the codebook
  const taken = new Set<string>();
  for (const f of fields)
    for (const c of f.categories) {
      if (c.key && taken.has(c.key)) delete c.key;
      if (c.key) taken.add(c.key);
    }
  const parsed = CodebookDefinition.safeParse({ fields });
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new Error(`the codes do not make a codebook Skein can use: ${first?.message ?? 'unknown problem'}`);
  }
  return { definition: parsed.data, byGuid, warnings };
}
