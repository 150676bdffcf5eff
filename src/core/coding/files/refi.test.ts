/**
 * REFI-QDA files: the `.qdpx`'s project.qde and the `.qdc` validate against the REFI-QDA schemas (xmllint-wasm), a
 * hostile text (markup, control characters, a lone surrogate) stays well-formed, and Skein reads its own files
 * back whole: codebook, coders, values, times and adjudications.
 */
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { assignKeys, CodebookDefinition } from '../../../shared/coding/codebook';
import type { Adjudication, Coder, Coding } from '../../../shared/coding/records';
import { schemaErrors } from '../../testing/xml-schema';
import { qdcXml, readQdc, readQdpx, writeQdpx } from './refi-project';

const SCHEMAS = join(import.meta.dirname, 'fixtures', 'refi-qda');
export const DEFINITION = assignKeys(
  CodebookDefinition.parse({
    fields: [
      {
        key: 'stance',
        label: 'Stance <toward> the "claim"',
        description: 'What the post says of the claim.\nRead the whole thread.',
        type: 'category',
        categories: [
          { value: 'support', label: 'Supports', description: 'Agrees', examples: ['"Yes, exactly"', 'Of course'] },
          { value: 'oppose', label: 'Opposes' },
          { value: 'neutral', label: 'Neither & both' },
        ],
      },
      {
        key: 'topics',
        label: 'Topics',
        type: 'category',
        multiple: true,
        categories: [
          { value: 'health', label: 'Health' },
          { value: 'economy', label: 'Economy' },
          { value: 'rights', label: 'Rights' },
        ],
      },
      {
        key: 'tone',
        label: 'Tone',
        type: 'ordinal',
        categories: [
          { value: '1', label: 'Calm' },
          { value: '2', label: 'Heated' },
          { value: '3', label: 'Hostile' },
        ],
      },
      { key: 'memo', label: 'Memo', type: 'note' },
    ],
  }),
);

const coders: Coder[] = [
  { id: 1, name: 'Ana', kind: 'person', model: null, createdAt: 0, revealedAt: null },
  { id: 2, name: 'Ben <b>', kind: 'person', model: null, createdAt: 0, revealedAt: 5 },
  {
    id: 3,
    name: 'llama',
    kind: 'model',
    model: { model: 'llama3', temperature: 0, maxTokens: 16, prompts: { stance: 'x' } },
    createdAt: 0,
    revealedAt: null,
  },
];

const T = Date.UTC(2026, 10, 23, 19, 54, 0);
const codings: Coding[] = [
  { kind: 'post', id: '1850000000000000001', field: 'stance', coder: 1, value: 'support', codedAt: T, version: 2 },
  {
    kind: 'post',
    id: '1850000000000000001',
    field: 'stance',
    coder: 2,
    value: 'oppose',
    codedAt: T + 1000,
    version: 2,
  },
  {
    kind: 'post',
    id: '1850000000000000001',
    field: 'stance',
    coder: 3,
    value: 'support',
    codedAt: T + 2000,
    version: 2,
  },
  {
    kind: 'post',
    id: '1850000000000000001',
    field: 'topics',
    coder: 1,
    value: ['economy', 'health'],
    codedAt: T,
    version: 2,
  },
  { kind: 'post', id: '1850000000000000001', field: 'tone', coder: 2, value: '3', codedAt: T, version: 2 },
  {
    kind: 'post',
    id: '1850000000000000001',
    field: 'memo',
    coder: 1,
    value: 'irony? <check> & "see" \u0007 thread',
    codedAt: T,
    version: 2,
  },
  { kind: 'user', id: '42', field: 'stance', coder: 1, value: 'neutral', codedAt: T, version: 2 },
];
const adjudications: Adjudication[] = [
  {
    kind: 'post',
    id: '1850000000000000001',
    field: 'stance',
    value: 'support',
    decidedAt: T + 5000,
    decidedBy: 'Ana',
    note: '',
    version: 2,
  },
];

const input = {
  projectName: 'Heron <study> & co',
  app: { name: 'Skein', version: '0.1.0' },
  now: T,
  codebook: { id: 7, name: 'Stance', version: 2, definition: DEFINITION },
  coders,
  sources: [
    {
      kind: 'post' as const,
      id: '1850000000000000001',
      text: 'Héron 🐦 <img src=x onerror=alert(1)> & "quotes"\nline \u0000two \uD800 end',
      label: 'post 1850000000000000001 by @heron',
      description: 'https://x.com/heron/status/1850000000000000001\n@heron, 2026-11-23',
      createdAt: T - 86_400_000,
    },
    {
      kind: 'user' as const,
      id: '42',
      text: '@heron — Heron\n\nBirds.',
      label: 'account @heron',
      description: '',
      createdAt: null,
    },
  ],
  codings,
  adjudications,
};

describe('REFI-QDA project (.qdpx)', () => {
  const zip = writeQdpx(input);
  const files = unzipSync(zip);
  const qde = strFromU8(files['project.qde']!);

  it('is a zip of project.qde and one text file per source under sources/', () => {
    expect(Object.keys(files).sort()).toEqual(
      expect.arrayContaining(['project.qde', ...Object.keys(files).filter((f) => f.startsWith('sources/'))]),
    );
    expect(Object.keys(files).filter((f) => /^sources\/[0-9a-f-]{36}\.txt$/.test(f))).toHaveLength(2);
    expect(qde).toContain('xmlns="urn:QDA-XML:project:1.0"');
  });

  it('validates against the REFI-QDA project schema', async () => {
    expect(await schemaErrors(qde, SCHEMAS, 'Project.xsd')).toEqual([]);
  });

  it('keeps hostile text as text: markup escaped, characters XML cannot hold dropped', () => {
    expect(qde).not.toContain('<img');
    expect(qde).not.toContain('<check>');
    expect(qde).toContain('&lt;check&gt;');
    // eslint-disable-next-line no-control-regex
    expect(/[\u0000-\u0008]/.test(qde)).toBe(false);
  });

  it('is read back whole: codebook, every value by coder and time, the adjudicated value apart', () => {
    const read = readQdpx(zip, 0);
    expect(read.name).toBe('Heron <study> & co');
    expect(read.definition).toEqual(DEFINITION);
    const got = read.values
      .map((v) => ({ kind: v.kind, id: v.id, field: v.field, coder: v.coder?.name ?? null, value: v.value, at: v.at }))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    const want = [
      ...codings.map((c) => ({
        kind: c.kind,
        id: c.id,
        field: c.field,
        coder: coders.find((x) => x.id === c.coder)!.name,
        value: c.field === 'memo' ? 'irony? <check> & "see"  thread' : c.value,
        at: c.codedAt,
      })),
      { kind: 'post', id: '1850000000000000001', field: 'stance', coder: null, value: 'support', at: T + 5000 },
    ].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(got).toEqual(want);
    expect(read.values.find((v) => v.coder?.name === 'llama')?.coder?.kind).toBe('model');
    expect(read.warnings).toEqual([]);
  });

  it('refuses what is not a project, in plain words', () => {
    expect(() => readQdpx(new Uint8Array([1, 2, 3]), 0)).toThrow(/not a REFI-QDA project/);
  });
});

describe('REFI-QDA codebook (.qdc)', () => {
  const xml = qdcXml({ id: 7, name: 'Stance', version: 2, definition: DEFINITION }, 'Skein 0.1.0');

  it('validates against the REFI-QDA codebook schema', async () => {
    expect(await schemaErrors(xml, SCHEMAS, 'Codebook.xsd')).toEqual([]);
  });

  it('is read back as the same codebook (types, values, keys, descriptions, examples)', () => {
    expect(readQdc(xml).definition).toEqual(DEFINITION);
  });

  it('reads a codebook another tool made: parents with children as fields, loose codes as one multiple-choice field', () => {
    const foreign = `<?xml version="1.0" encoding="utf-8"?>
<CodeBook xmlns="urn:QDA-XML:codebook:1.0" origin="QualCoder">
  <Codes>
    <Code guid="6f7a3e6e-0000-4000-8000-000000000001" name="Emotion" isCodable="false">
      <Code guid="6f7a3e6e-0000-4000-8000-000000000002" name="Joy" isCodable="true"><Description>Happy</Description></Code>
      <Code guid="6f7a3e6e-0000-4000-8000-000000000003" name="Anger" isCodable="true"/>
    </Code>
    <Code guid="6f7a3e6e-0000-4000-8000-000000000004" name="Irony" isCodable="true"/>
    <Code guid="6f7a3e6e-0000-4000-8000-000000000005" name="Question" isCodable="true"/>
  </Codes>
</CodeBook>`;
    const read = readQdc(foreign);
    expect(read.definition.fields.map((f) => [f.key, f.type, f.multiple, f.categories.map((c) => c.value)])).toEqual([
      ['emotion', 'category', false, ['Joy', 'Anger']],
      ['codes', 'category', true, ['Irony', 'Question']],
    ]);
    expect(read.byGuid.get('6f7a3e6e-0000-4000-8000-000000000004')).toEqual({ field: 'codes', value: 'Irony' });
  });

  it('refuses a file that is no codebook', () => {
    expect(() => readQdc('<Project xmlns="urn:QDA-XML:project:1.0" name="x"/>')).toThrow(/not a REFI-QDA codebook/);
  });
});
