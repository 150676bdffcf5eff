/**
 * REFI-QDA project exchange (`.qdpx`: a zip of `project.qde` and `sources/`), the file QualCoder, MAXQDA, NVivo
 * and ATLAS.ti open. Each coded post or account is a text source (its text in `sources/<guid>.txt`); each value
 * of a coder is a selection of the whole text, made by that coder (a `<User>`), holding a coding per chosen code
 * (a text field's value is the selection's description). Adjudicated values are a user of their own
 * ("Adjudicated"), apart from the coders'. Skein reads its own files back whole (`readQdpx`): codebook, coders,
 * values with their times, adjudications. Validated against the REFI-QDA schema in refi.test.ts.
 */
import { XMLParser } from 'fast-xml-parser';
import { strFromU8, strToU8, zipSync, type Zippable } from 'fflate';
import { checkXml, UnsafeFile, unzipOne } from './bounded';
import {
  canonicalValue,
  isUnread,
  type CodebookDefinition,
  type CodedKind,
  type CodeValue,
  type KeptValue,
} from '../../../shared/coding/codebook';
import type { Adjudication, Coder, Coding } from '../../../shared/coding/records';
import { categoryGuid, codebookFromCodes, codesXml, fieldGuid, textOf } from './refi-codes';
import { codePoints, guidOf, xmlAttr, xmlDateTime, xmlText } from './xml';

const PROJECT_NS = 'urn:QDA-XML:project:1.0';
const CODEBOOK_NS = 'urn:QDA-XML:codebook:1.0';
const ADJUDICATED = 'skein:adjudicated';

export interface QdaSource {
  kind: CodedKind;
  id: string;
  /** the text coded (a post's full text; an account's handle, name and bio) */
  text: string;
  /** a source's name: "post 123… by @handle" */
  label: string;
  /** what a researcher wants beside it: link, author, time */
  description: string;
  createdAt: number | null;
}

export interface QdaProjectInput {
  projectName: string;
  app: { name: string; version: string };
  now: number;
  codebook: { id: number; name: string; version: number; definition: CodebookDefinition };
  coders: readonly Coder[];
  sources: readonly QdaSource[];
  codings: readonly Coding[];
  adjudications: readonly Adjudication[];
}

const userId = (c: Coder) => `skein:coder:${c.kind}:${c.id}`;

/** A codebook file (`.qdc`). */
export function qdcXml(
  codebook: { id: number; name: string; version: number; definition: CodebookDefinition },
  origin: string,
): string {
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<CodeBook xmlns="${CODEBOOK_NS}" origin="${xmlAttr(origin)}">`,
    codesXml(codebook.definition, `codebook:${codebook.id}`),
    '</CodeBook>',
    '',
  ].join('\n');
}

/** `project.qde` and the sources, zipped. */
export function writeQdpx(input: QdaProjectInput): Uint8Array {
  const scope = `codebook:${input.codebook.id}`;
  const fields = new Map(input.codebook.definition.fields.map((f) => [f.key, f]));
  const users = [...input.coders];
  const userGuid = new Map(users.map((c) => [c.id, guidOf('user', c.name)]));
  const adjudicatedGuid = guidOf('user', ADJUDICATED);
  const creator = users[0] ? userGuid.get(users[0].id)! : adjudicatedGuid;
  const files: Zippable = {};
  const out: string[] = [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<Project xmlns="${PROJECT_NS}" name="${xmlAttr(input.projectName)}" origin="${xmlAttr(`${input.app.name} ${input.app.version}`)}" creatingUserGUID="${creator}" creationDateTime="${xmlDateTime(input.now)}">`,
    '  <Users>',
    ...users.map(
      (c) => `    <User guid="${userGuid.get(c.id)}" name="${xmlAttr(c.name)}" id="${xmlAttr(userId(c))}"/>`,
    ),
    `    <User guid="${adjudicatedGuid}" name="Adjudicated" id="${ADJUDICATED}"/>`,
    '  </Users>',
    '  <CodeBook>',
    codesXml(input.codebook.definition, scope, '    '),
    '  </CodeBook>',
  ];
  const byItem = new Map<string, { codings: Coding[]; adjudications: Adjudication[] }>();
  const cell = (kind: string, id: string) => {
    const k = `${kind}:${id}`;
    let v = byItem.get(k);
    if (!v) byItem.set(k, (v = { codings: [], adjudications: [] }));
    return v;
  };
  for (const c of input.codings) cell(c.kind, c.id).codings.push(c);
  for (const a of input.adjudications) cell(a.kind, a.id).adjudications.push(a);

  const selection = (
    source: QdaSource,
    end: number,
    field: string,
    value: KeptValue,
    user: string,
    at: number,
    version: number,
    salt: string,
  ): string[] => {
    const f = fields.get(field);
    if (!f) return [];
    const guid = guidOf('selection', source.kind, source.id, field, salt);
    const lines = [
      `      <PlainTextSelection guid="${guid}" name="${xmlAttr(`${f.label} · codebook v${version}`)}" startPosition="0" endPosition="${end}" creatingUser="${user}" creationDateTime="${xmlDateTime(at)}">`,
    ];
    const refs: string[] = [];
    if (isUnread(value)) {
      // a value this Skein cannot read: kept as written, as text on the field
      lines.push(
        `        <Description>${xmlText(`${value.unread} (as written; this Skein cannot read it)`)}</Description>`,
      );
      refs.push(fieldGuid(scope, f));
    } else if (f.type === 'text' || f.type === 'note') {
      lines.push(`        <Description>${xmlText(typeof value === 'string' ? value : value.join('|'))}</Description>`);
      refs.push(fieldGuid(scope, f));
    } else {
      for (const v of Array.isArray(value) ? value : [value]) {
        const c = f.categories.find((x) => x.value === v);
        // a value of a category the exported version no longer has: kept as text on the field
        if (c) refs.push(categoryGuid(scope, f, c));
        else {
          lines.push(
            `        <Description>${xmlText(`${v} (not in codebook v${input.codebook.version})`)}</Description>`,
          );
          refs.push(fieldGuid(scope, f));
        }
      }
    }
    refs.forEach((ref, i) =>
      lines.push(
        `        <Coding guid="${guidOf('coding', guid, String(i))}" creatingUser="${user}" creationDateTime="${xmlDateTime(at)}">`,
        `          <CodeRef targetGUID="${ref}"/>`,
        '        </Coding>',
      ),
    );
    lines.push('      </PlainTextSelection>');
    return lines;
  };

  if (input.sources.length > 0) out.push('  <Sources>');
  for (const source of input.sources) {
    const guid = guidOf('source', source.kind, source.id);
    files[`sources/${guid}.txt`] = strToU8(source.text);
    const end = codePoints(source.text);
    const meta = `[skein kind=${source.kind} id=${source.id}]`;
    out.push(
      `    <TextSource guid="${guid}" name="${xmlAttr(source.label)}" plainTextPath="internal://${guid}.txt" creatingUser="${creator}"${source.createdAt !== null ? ` creationDateTime="${xmlDateTime(source.createdAt)}"` : ''}>`,
      `      <Description>${xmlText(`${source.description}\n${meta}`)}</Description>`,
    );
    const held = byItem.get(`${source.kind}:${source.id}`);
    for (const c of held?.codings ?? [])
      out.push(
        ...selection(
          source,
          end,
          c.field,
          c.value,
          userGuid.get(c.coder) ?? adjudicatedGuid,
          c.codedAt,
          c.version,
          `coder:${c.coder}`,
        ),
      );
    for (const a of held?.adjudications ?? [])
      out.push(...selection(source, end, a.field, a.value, adjudicatedGuid, a.decidedAt, a.version, 'adjudicated'));
    out.push('    </TextSource>');
  }
  if (input.sources.length > 0) out.push('  </Sources>');
  out.push(
    `  <Description>${xmlText(`Coded with ${input.app.name} ${input.app.version}: codebook “${input.codebook.name}”, version ${input.codebook.version}. Each source is one post or account; each selection is one coder's value of one field (the user “Adjudicated” holds the values decided in reconciliation).`)}</Description>`,
    '</Project>',
    '',
  );
  files['project.qde'] = strToU8(out.join('\n'));
  return zipSync(files, { level: 6, mtime: new Date(input.now) });
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  // character references (`&#233;`, `&#xE9;`) are plain XML that other tools write: read as the characters
  htmlEntities: true,
  isArray: (name) => ['Code', 'User', 'TextSource', 'PlainTextSelection', 'Coding'].includes(name),
});

type Node = Record<string, unknown>;
const asNode = (v: unknown): Node => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Node) : {});
const list = (v: unknown): Node[] => (Array.isArray(v) ? v.map(asNode) : []);
/** An attribute's text (the parser keeps attributes as text). */
const attr = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);

/** A codebook file's definition (`.qdc`), with what could not be read as it was. */
export function readQdc(text: string): ReturnType<typeof codebookFromCodes> {
  const doc = asNode(parser.parse(checkXml(text)));
  const book = asNode(doc.CodeBook);
  if (!doc.CodeBook) throw new Error('this is not a REFI-QDA codebook (no <CodeBook>)');
  return codebookFromCodes(list(asNode(book.Codes).Code));
}

export interface ReadValue {
  kind: CodedKind;
  id: string;
  field: string;
  /** the coder's name and kind; null: the adjudicated value */
  coder: { name: string; kind: 'person' | 'model' } | null;
  value: CodeValue;
  at: number;
}

export interface ReadProject {
  name: string;
  definition: CodebookDefinition;
  values: ReadValue[];
  warnings: string[];
}

const time = (v: unknown, fallback: number): number => {
  const t = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(t) ? t : fallback;
};

/** A `.qdpx`: its codebook and every value a selection holds, by item, field and coder. */
export function readQdpx(zip: Uint8Array, now: number): ReadProject {
  let qde: Uint8Array | null;
  try {
    qde = unzipOne(zip, 'project.qde');
  } catch (e) {
    if (e instanceof UnsafeFile) throw e;
    throw new Error(`this is not a REFI-QDA project (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
  if (!qde) throw new Error('this is not a REFI-QDA project (no project.qde inside)');
  const doc = asNode(parser.parse(checkXml(strFromU8(qde))));
  const project = asNode(doc.Project);
  if (!doc.Project) throw new Error('this is not a REFI-QDA project (no <Project>)');
  const codes = codebookFromCodes(list(asNode(asNode(project.CodeBook).Codes).Code));
  const warnings = [...codes.warnings];
  const users = new Map<string, { name: string; kind: 'person' | 'model' } | null>();
  for (const u of list(asNode(project.Users).User)) {
    const id = attr(u.id, '');
    users.set(
      attr(u.guid, ''),
      id === ADJUDICATED
        ? null
        : { name: attr(u.name, 'Coder'), kind: id.startsWith('skein:coder:model:') ? 'model' : 'person' },
    );
  }
  const fields = new Map(codes.definition.fields.map((f) => [f.key, f]));
  const values: ReadValue[] = [];
  let foreign = 0;
  for (const source of list(asNode(project.Sources).TextSource)) {
    const m = /\[skein kind=(post|user) id=(\d{1,25})\]/.exec(textOf(source.Description));
    if (!m) {
      foreign++;
      continue;
    }
    const kind = m[1] as CodedKind;
    const id = m[2]!;
    // one value per field and user: the codings of their selections together
    const cells = new Map<
      string,
      { field: string; coder: ReadValue['coder']; chosen: string[]; text: string | null; at: number }
    >();
    for (const sel of list(source.PlainTextSelection)) {
      const userGuid = attr(sel.creatingUser, '');
      if (!users.has(userGuid)) {
        warnings.push(`A selection by an unknown user in ${attr(source.name, 'a source')} was left out.`);
        continue;
      }
      const coder = users.get(userGuid)!;
      const at = time(sel.creationDateTime, now);
      for (const coding of list(sel.Coding)) {
        const ref = attr(asNode(coding.CodeRef).targetGUID, '');
        const target = codes.byGuid.get(ref);
        if (!target) continue;
        const k = `${target.field}\u0000${userGuid}`;
        const c = cells.get(k) ?? { field: target.field, coder, chosen: [], text: null, at };
        if (target.value !== null) c.chosen.push(target.value);
        else c.text = textOf(sel.Description);
        cells.set(k, c);
      }
    }
    for (const c of cells.values()) {
      const field = fields.get(c.field);
      if (!field) continue;
      let value: CodeValue | null;
      if (field.type === 'text' || field.type === 'note') value = c.text ?? '';
      else if (field.multiple) value = canonicalValue(c.chosen);
      else value = c.chosen[0] ?? null;
      if (value === null || value === '' || (Array.isArray(value) && value.length === 0)) continue;
      values.push({ kind, id, field: c.field, coder: c.coder, value, at: c.at });
    }
  }
  if (foreign > 0)
    warnings.push(`${foreign} sources were not made by Skein (no post or account id): their codings were left out.`);
  return { name: attr(project.name, 'Project'), definition: codes.definition, values, warnings };
}
