/**
 * The two packages a coded sample (or a collection of the project) leaves by, each named for what it allows, with a
 * README inside that says so and how to cite it (CITATION.cff, DataCite).
 *
 * For review (`writeReviewPackage`), what a study deposits beside its paper: every value and the final codes,
 * the codebook (`.qdc` and CSV), the agreement report, a manifest, CITATION.cff and DataCite metadata; the items
 * as pseudonyms (with their texts only when asked). Always pseudonymised — ids, handles and names, in fields, in
 * texts, in the coders' notes, in the codebook's examples and in a stratum's values, replaced by keyed
 * pseudonyms (`pseudonym.ts`) — so it cannot be re-hydrated.
 *
 * For re-hydration (`writeRehydrationPackage`): the platform's real ids of the items, one per line, and nothing
 * else about them — no text, no handle, no name, no code — so another researcher can fetch the items again
 * under their own terms. Opted-out accounts' items are left out of both.
 *
 * A collection's package for review (`writeCollectionReviewPackage`) is the same without codes: its items as
 * pseudonyms, their authors' and times (texts only when asked), and how the collection was named and made.
 */
import { strToU8, zipSync, type Zippable } from 'fflate';
import type { CodebookDefinition, CodedKind, KeptValue } from '../../../shared/coding/codebook';
import { isUnread, valueText } from '../../../shared/coding/codebook';
import type {
  Adjudication,
  Coder,
  Coding,
  OptOut,
  SampleDefinition,
  SampleSummary,
} from '../../../shared/coding/records';

/** a sample whose drawing this Skein reads: a package says how it was drawn */
export type DrawnSample = SampleSummary & { definition: SampleDefinition };
import type { AgreementReport, Citation } from '../../../shared/ipc/coding';
import { resolveValues, resolvedKey } from '../resolve';
import { createPseudonymiser, type KnownAccount, type Pseudonymiser } from './pseudonym';
import { qdcXml } from './refi-project';
import { annotationTable, codebookCsv, csv } from './tables';
import { readAccount, readPost } from './items';
import { agreementMarkdown, agreementCsv } from './report-files';

export interface ShareItem {
  kind: CodedKind;
  id: string;
  /** the raw item as the project last received it; null when it holds none */
  raw: unknown;
  /** held in the project, but its kept JSON no longer reads: whose it is cannot be told */
  damaged?: boolean;
  stratum: string | null;
}

/**
 * Why an item stays out of what leaves the project for the people who opted out: theirs, or (while anyone has opted
 * out) kept damaged in the project, so that whose it is cannot be told; null when it goes out.
 */
export function leftOutAs(
  item: { kind: CodedKind; raw: unknown; damaged?: boolean },
  optOuts: readonly OptOut[],
): 'opted-out' | 'damaged' | null {
  if (optOuts.length === 0) return null;
  if (item.damaged) return 'damaged';
  return optedOutOf(item.kind, item.raw, optOuts) ? 'opted-out' : null;
}

/** how many items a package or file left out, and why */
export interface LeftOut {
  droppedOptedOut: number;
  droppedDamaged: number;
}

/** counts the items left out, by why */
export function leftOutCounts(why: ReadonlyArray<ReturnType<typeof leftOutAs>>): LeftOut {
  return {
    droppedOptedOut: why.filter((w) => w === 'opted-out').length,
    droppedDamaged: why.filter((w) => w === 'damaged').length,
  };
}

/** what a package or file says of the damaged items it left out ('' when none) */
export function damagedLeftOutSentence(droppedDamaged: number): string {
  const one = droppedDamaged === 1;
  return droppedDamaged > 0
    ? `${droppedDamaged} item${one ? '' : 's'} kept damaged in the project ${one ? 'was' : 'were'} left out too: while accounts are opted out, whose ${one ? 'it is' : 'they are'} cannot be told.`
    : '';
}

/** what a package says of the items it left out ('' when none) */
function leftOutSentence({ droppedOptedOut, droppedDamaged }: LeftOut): string {
  return [
    droppedOptedOut > 0 ? `${droppedOptedOut} items of accounts that opted out were left out.` : '',
    damagedLeftOutSentence(droppedDamaged),
  ]
    .filter(Boolean)
    .join(' ');
}

/** a manifest's counts of the items left out (the damaged ones only when there are any) */
const leftOutManifest = ({ droppedOptedOut, droppedDamaged }: LeftOut) => ({
  dropped_opted_out: droppedOptedOut,
  ...(droppedDamaged > 0 ? { dropped_damaged: droppedDamaged } : {}),
});

export interface ShareInput {
  app: { name: string; version: string };
  now: number;
  codebook: { id: number; name: string; version: number; definition: CodebookDefinition };
  sample: DrawnSample;
  coders: readonly Coder[];
  items: readonly ShareItem[];
  codings: readonly Coding[];
  adjudications: readonly Adjudication[];
  agreement: AgreementReport;
  optOuts: readonly OptOut[];
  citation: Citation;
  includeTexts: boolean;
  publicFigureFollowers?: number;
  /** the pseudonymisation key; used here, written nowhere */
  key: string;
}

export interface SharePackage {
  zip: Uint8Array;
  /** the files inside, by name */
  files: string[];
  items: number;
  droppedOptedOut: number;
  droppedDamaged: number;
  /** the review package's key fingerprint; null for re-hydration (nothing is pseudonymised) */
  keyFingerprint: string | null;
}

/** A YAML double-quoted scalar. */
const yaml = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

function citationCff(c: Citation, date: string, abstract: string): string {
  const lines = [
    'cff-version: 1.2.0',
    'message: "If you use this dataset, please cite it as below."',
    'type: dataset',
    `title: ${yaml(c.title)}`,
    'authors:',
  ];
  for (const a of c.authors) {
    lines.push(`  - family-names: ${yaml(a.familyNames)}`);
    if (a.givenNames) lines.push(`    given-names: ${yaml(a.givenNames)}`);
    if (a.orcid) lines.push(`    orcid: ${yaml(`https://orcid.org/${a.orcid}`)}`);
    if (a.affiliation) lines.push(`    affiliation: ${yaml(a.affiliation)}`);
  }
  lines.push(`version: ${yaml(c.version)}`, `date-released: ${date}`, `license: ${yaml(c.license)}`);
  if (c.keywords.length) lines.push('keywords:', ...c.keywords.map((k) => `  - ${yaml(k)}`));
  lines.push(`abstract: ${yaml(abstract)}`);
  return `${lines.join('\n')}\n`;
}

function dataCite(
  c: Citation,
  input: { date: string; abstract: string; methods: string; files: string[]; items: number; resourceType: string },
) {
  return {
    types: { resourceTypeGeneral: 'Dataset', resourceType: input.resourceType },
    titles: [{ title: c.title }],
    creators: c.authors.map((a) => ({
      name: a.givenNames ? `${a.familyNames}, ${a.givenNames}` : a.familyNames,
      nameType: 'Personal',
      ...(a.givenNames ? { givenName: a.givenNames } : {}),
      familyName: a.familyNames,
      ...(a.orcid
        ? {
            nameIdentifiers: [
              {
                nameIdentifier: `https://orcid.org/${a.orcid}`,
                nameIdentifierScheme: 'ORCID',
                schemeUri: 'https://orcid.org',
              },
            ],
          }
        : {}),
      ...(a.affiliation ? { affiliation: [{ name: a.affiliation }] } : {}),
    })),
    publisher: { name: c.publisher || c.authors.map((a) => a.familyNames).join(', ') },
    publicationYear: input.date.slice(0, 4),
    subjects: c.keywords.map((subject) => ({ subject })),
    dates: [{ date: input.date, dateType: 'Created' }],
    version: c.version,
    rightsList: [{ rights: c.license, rightsIdentifier: c.license, rightsIdentifierScheme: 'SPDX' }],
    descriptions: [
      { description: input.abstract, descriptionType: 'Abstract' },
      { description: input.methods, descriptionType: 'Methods' },
    ],
    formats: ['text/csv', 'text/plain', 'application/xml', 'application/json'],
    sizes: [`${input.items} items`, `${input.files.length} files`],
  };
}

/** Whether an opted-out account wrote this item, is it, or is the author of the post it reposts or quotes. */
export function optedOutOf(kind: CodedKind, raw: unknown, optOuts: readonly OptOut[]): boolean {
  if (optOuts.length === 0 || raw === null) return false;
  const ids = new Set(optOuts.flatMap((o) => (o.userId ? [o.userId] : [])));
  const handles = new Set(optOuts.flatMap((o) => (o.handle ? [o.handle.toLowerCase()] : [])));
  const hit = (a: { id: string | null; handle: string | null } | null) =>
    !!a && ((a.id !== null && ids.has(a.id)) || (a.handle !== null && handles.has(a.handle.toLowerCase())));
  if (kind === 'user') return hit(readAccount(raw));
  const post = readPost(raw);
  return hit(post.author) || hit(post.quotedAuthor) || hit(post.repostedAuthor);
}

/**
 * What a package says of an item, read once from its raw JSON (nothing else of it is kept): a collection of a
 * hundred thousand posts is read a chunk at a time into these.
 */
export interface ShareRow {
  kind: CodedKind;
  id: string;
  authorId: string | null;
  createdAt: string | null;
  /** a post's text (a repost's original whole), an account's bio; '' when none or not held */
  text: string;
  stratum: string | null;
}

/** An item's row, and every account it names (for the pseudonymiser to find in texts). */
export function shareRow(item: ShareItem): { row: ShareRow; accounts: KnownAccount[] } {
  const { kind, id, raw, stratum } = item;
  if (raw === null) return { row: { kind, id, authorId: null, createdAt: null, text: '', stratum }, accounts: [] };
  if (kind === 'user') {
    const a = readAccount(raw);
    return { row: { kind, id, authorId: null, createdAt: null, text: a.bio ?? '', stratum }, accounts: [a] };
  }
  const p = readPost(raw);
  return {
    row: { kind, id, authorId: p.author?.id ?? null, createdAt: p.createdAt, text: p.text, stratum },
    accounts: p.accounts,
  };
}

interface Pseudonymising {
  key: string;
  accounts: readonly KnownAccount[];
  optOuts: readonly OptOut[];
  publicFigureFollowers?: number;
}

function pseudonymiserFor(p: Pseudonymising): Pseudonymiser {
  if (!p.key) throw new Error('no pseudonymisation key');
  return createPseudonymiser(p.key, p.accounts, {
    ...(p.publicFigureFollowers !== undefined ? { publicFigureFollowers: p.publicFigureFollowers } : {}),
    optedOut: {
      handles: new Set(p.optOuts.flatMap((o) => (o.handle ? [o.handle.toLowerCase()] : []))),
      ids: new Set(p.optOuts.flatMap((o) => (o.userId ? [o.userId] : []))),
    },
  });
}

const itemIdOf = (pseudo: Pseudonymiser) => (kind: string, id: string) =>
  kind === 'user' ? pseudo.userId(id) : pseudo.postId(id);

/** items.csv: one row per item, its pseudonym, kind, author's pseudonym, time, (stratum,) and text if asked. */
function itemsCsv(
  rows: readonly ShareRow[],
  pseudo: Pseudonymiser,
  includeTexts: boolean,
  stratum?: (value: string | null) => string,
): string {
  const itemId = itemIdOf(pseudo);
  const out: Array<Array<string | number | null>> = [
    [
      'item_id',
      'item_kind',
      'author_id',
      'created_at',
      ...(stratum ? ['stratum'] : []),
      ...(includeTexts ? ['text'] : []),
    ],
  ];
  for (const r of rows)
    out.push([
      itemId(r.kind, r.id),
      r.kind,
      r.authorId === null ? '' : pseudo.userId(r.authorId),
      r.createdAt ?? '',
      ...(stratum ? [stratum(r.stratum)] : []),
      ...(includeTexts ? [pseudo.text(r.text)] : []),
    ]);
  return csv(out);
}

/** The manifest's account of the pseudonymisation: what it covers, the key's fingerprint (never the key). */
function pseudonymisation(pseudo: Pseudonymiser, publicFigureFollowers: number | undefined, covers: string[]) {
  return {
    method: 'HMAC-SHA-256 over the kind and the value; post ids p_…, account ids u_…, handles user_…, names Person …',
    covers,
    key_fingerprint: pseudo.fingerprint,
    key: 'not included: it stays in the key store of the computer that made this package',
    public_figures:
      publicFigureFollowers !== undefined
        ? { followers_at_least: publicFigureFollowers, note: 'these accounts keep their own id, handle and name' }
        : null,
  };
}

/** CITATION.cff and datacite.json, put into a package's files. */
function putCitation(
  put: (name: string, content: string) => void,
  c: Citation,
  input: { date: string; abstract: string; methods: string; files: string[]; items: number; resourceType: string },
): void {
  put('CITATION.cff', citationCff(c, input.date, input.abstract));
  put('datacite.json', `${JSON.stringify(dataCite(c, input), null, 2)}\n`);
}

const CITATION_FILES = ['CITATION.cff', 'datacite.json'];

/** what a package for review's README says of its pseudonyms, whatever it holds */
const PSEUDONYMISED = [
  'Every id, handle and name is replaced by a keyed pseudonym (p_…, u_…, user_…, Person …), so the items',
  'cannot be fetched again from the platform with it, and nobody can be found by it.',
];
const ASK_FOR_IDS = 'To fetch the items again, ask the authors for the package for re-hydration (real ids only).';

export function writeReviewPackage(input: ShareInput): SharePackage {
  const date = new Date(input.now).toISOString().slice(0, 10);
  const why = input.items.map((i) => leftOutAs(i, input.optOuts));
  const kept = input.items.filter((_, k) => why[k] === null);
  const keptKeys = new Set(kept.map((i) => `${i.kind}:${i.id}`));
  const left = leftOutCounts(why);
  const codings = input.codings.filter((c) => keptKeys.has(`${c.kind}:${c.id}`));
  const adjudications = input.adjudications.filter((a) => keptKeys.has(`${a.kind}:${a.id}`));

  // every account the items name: authors, mentioned, quoted, reposted, answered; and accounts coded themselves
  const read = input.items.map(shareRow);
  const pseudo = pseudonymiserFor({ ...input, accounts: read.flatMap((r) => r.accounts) });
  const itemId = itemIdOf(pseudo);
  const text = (t: string) => pseudo.text(t);
  const stratumText = (s: string | null) =>
    s === null ? '' : input.sample.definition.stratum === 'author' ? `@${pseudo.handle(s.replace(/^@/, ''))}` : s;
  const value = (field: string, v: KeptValue): KeptValue => {
    // a value this Skein cannot read may hold anything, names included: its text is pseudonymised as a note's is
    if (isUnread(v)) return { unread: text(v.unread) };
    const f = input.codebook.definition.fields.find((x) => x.key === field);
    return f && (f.type === 'text' || f.type === 'note') && typeof v === 'string' ? text(v) : v;
  };

  const files: Zippable = {};
  const put = (name: string, content: string) => (files[name] = strToU8(content));

  // the items: ids only unless texts were asked for
  const keptRows = read.filter((r) => keptKeys.has(`${r.row.kind}:${r.row.id}`)).map((r) => r.row);
  put('items.csv', itemsCsv(keptRows, pseudo, input.includeTexts, stratumText));

  const named = codings.map((c) => ({ ...c, value: value(c.field, c.value) }));
  const decided = adjudications.map((a) => ({ ...a, value: value(a.field, a.value) }));
  put('annotations.csv', annotationTable(named, decided, input.coders, itemId));
  const resolved = resolveValues(codings, adjudications);
  const fields = input.codebook.definition.fields;
  const codeRows: Array<Array<string | number>> = [
    ['item_id', 'item_kind', ...fields.flatMap((f) => [f.key, `${f.key}_status`])],
  ];
  for (const i of kept) {
    codeRows.push([
      itemId(i.kind, i.id),
      i.kind,
      ...fields.flatMap((f) => {
        const r = resolved.get(resolvedKey(i.kind, i.id, f.key));
        return r ? [valueText(r.value === null ? null : value(f.key, r.value)), r.status] : ['', 'uncoded'];
      }),
    ]);
  }
  put('codes.csv', csv(codeRows));

  // the codebook, its examples pseudonymised too (examples often quote posts)
  const definition: CodebookDefinition = {
    fields: fields.map((f) => ({
      ...f,
      description: text(f.description),
      categories: f.categories.map((c) => ({
        ...c,
        description: text(c.description),
        examples: c.examples.map(text),
      })),
    })),
  };
  const codebook = { ...input.codebook, definition };
  put('codebook.qdc', qdcXml(codebook, `${input.app.name} ${input.app.version}`));
  put('codebook.csv', codebookCsv(definition));
  put('agreement.csv', agreementCsv(input.agreement));
  put('agreement.md', agreementMarkdown(input.agreement, input.codebook.name));

  const s = input.sample.definition;
  const methods = [
    `${s.size} ${s.kind === 'user' ? 'accounts' : 'posts'} drawn from ${s.population} (${s.method === 'stratified' ? `stratified by ${s.stratum}, proportional allocation` : 'simple random sample'}; items ranked by SHA-256 of the seed “${s.seed}” and their id).`,
    `${Math.round(s.overlap * 100)} % coded by every one of ${s.coders.length} coders; codebook “${input.codebook.name}”, version ${input.codebook.version}.`,
    'Ids, handles and names are pseudonymised with a keyed hash (HMAC-SHA-256); the key is not part of this package.',
    leftOutSentence(left),
  ]
    .filter(Boolean)
    .join(' ');
  const abstract =
    input.citation.description || `${input.citation.title}: identifiers and codes of ${kept.length} items.`;
  const allFiles = [...Object.keys(files), 'manifest.json', ...CITATION_FILES, 'README.txt'];
  putCitation(put, input.citation, {
    date,
    abstract,
    methods,
    files: allFiles,
    items: kept.length,
    resourceType: 'Coded social media items (identifiers and codes)',
  });
  const manifest = {
    schema: 'skein.share/1',
    package: 'for review: pseudonymised, cannot be re-hydrated',
    app: input.app,
    created_at: new Date(input.now).toISOString(),
    project: null,
    codebook: { name: input.codebook.name, version: input.codebook.version },
    sample: {
      name: input.sample.name,
      source: '(withheld: a search may name accounts)',
      kind: s.kind,
      method: s.method,
      stratum: s.stratum,
      seed: s.seed,
      size: s.size,
      population: s.population,
      strata: s.strata.map((x) => ({ ...x, value: stratumText(x.value) })),
      overlap: s.overlap,
    },
    coders: input.coders.map((c) => ({
      name: c.name,
      kind: c.kind,
      model: c.model?.model ?? null,
      blind_until: c.revealedAt === null ? null : new Date(c.revealedAt).toISOString(),
    })),
    counts: {
      items: kept.length,
      values: codings.length,
      adjudicated: adjudications.length,
      ...leftOutManifest(left),
    },
    pseudonymisation: pseudonymisation(pseudo, input.publicFigureFollowers, [
      'post ids',
      'account ids',
      'handles',
      'names',
      '@mentions, handles, names and ids inside texts and notes',
      'codebook descriptions and examples',
      'author strata',
    ]),
    texts: input.includeTexts
      ? 'included, pseudonymised (items.csv, column text)'
      : 'not included: pseudonyms only, which cannot be re-hydrated',
    files: allFiles,
    methods,
  };
  put('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
  put(
    'README.txt',
    [
      `${input.citation.title} — package for review`,
      '',
      'What this is: the coded sample for a reviewer or a deposit beside a paper, pseudonymised.',
      ...PSEUDONYMISED,
      'It allows checking the codes, the codebook and the agreement, and recomputing them.',
      ASK_FOR_IDS,
      '',
      `Made with ${input.app.name} ${input.app.version} on ${date}. ${methods}`,
      '',
      'items.csv        one row per item: its pseudonym, kind, author pseudonym, time, stratum' +
        (input.includeTexts ? ' and text (pseudonymised)' : ''),
      'annotations.csv  one row per item x field x coder (the adjudicated values as coder "adjudicated")',
      'codes.csv        one row per item: the final value of each field and how it was reached',
      'codebook.qdc     the codebook as REFI-QDA (QualCoder, MAXQDA, NVivo, ATLAS.ti); codebook.csv the same as a table',
      'agreement.csv    Krippendorff alpha, Cohen and Fleiss kappa, percent agreement per field; agreement.md in words',
      'manifest.json    how the sample was drawn and coded',
      'CITATION.cff, datacite.json   how to cite it',
      '',
    ].join('\n'),
  );
  return {
    zip: zipSync(files, { level: 6, mtime: new Date(input.now) }),
    files: allFiles,
    items: kept.length,
    ...left,
    keyFingerprint: pseudo.fingerprint,
  };
}

/** A collection of the project, as a package names it. */
export interface SharedCollection {
  name: string;
  /** what made it: an export's view, a saved search, … */
  kind: string;
  createdAt: number;
}

/** What a package's items are: a coded sample, or a collection of the project. */
export type ShareSource =
  | { of: 'sample'; sample: DrawnSample; codebook: { name: string; version: number } }
  | { of: 'collection'; collection: SharedCollection };

export interface RehydrationInput {
  app: { name: string; version: string };
  now: number;
  citation: Citation;
  source: ShareSource;
  /** the ids to share, opted-out accounts' items already left out (`keptIds`) */
  postIds: readonly string[];
  userIds: readonly string[];
  droppedOptedOut: number;
  droppedDamaged: number;
}

/** The real ids of the items no opted-out account wrote or is (as far as can be told), by kind. */
export function keptIds(
  items: readonly ShareItem[],
  optOuts: readonly OptOut[],
): Pick<RehydrationInput, 'postIds' | 'userIds' | 'droppedOptedOut' | 'droppedDamaged'> {
  const why = items.map((i) => leftOutAs(i, optOuts));
  const kept = items.filter((_, k) => why[k] === null);
  return {
    postIds: kept.filter((i) => i.kind === 'post').map((i) => i.id),
    userIds: kept.filter((i) => i.kind === 'user').map((i) => i.id),
    ...leftOutCounts(why),
  };
}

/**
 * The package for re-hydration: the real ids, one per line, a README, a manifest of counts and method, and how to
 * cite it — nothing else of the items (no text, no handle, no name, no author, no code, no source query).
 */
export function writeRehydrationPackage(input: RehydrationInput): SharePackage {
  const date = new Date(input.now).toISOString().slice(0, 10);
  const { postIds, userIds, source } = input;
  const left = { droppedOptedOut: input.droppedOptedOut, droppedDamaged: input.droppedDamaged };
  const items = postIds.length + userIds.length;
  const files: Zippable = {};
  const put = (name: string, content: string) => (files[name] = strToU8(content));
  if (postIds.length) put('post_ids.txt', `${postIds.join('\n')}\n`);
  if (userIds.length) put('user_ids.txt', `${userIds.join('\n')}\n`);
  const allFiles = [...Object.keys(files), 'manifest.json', ...CITATION_FILES, 'README.txt'];
  const what =
    source.of === 'sample'
      ? `the sample “${source.sample.name}”, codebook “${source.codebook.name}”, version ${source.codebook.version}`
      : `the collection “${source.collection.name}” (${source.collection.kind}, made ${new Date(source.collection.createdAt).toISOString().slice(0, 10)})`;
  const methods = [`${items} items of ${what}: the platform’s ids only.`, leftOutSentence(left)]
    .filter(Boolean)
    .join(' ');
  put(
    'manifest.json',
    `${JSON.stringify(
      {
        schema: 'skein.rehydrate/1',
        package: 'for re-hydration: the platform’s real ids only',
        app: input.app,
        created_at: new Date(input.now).toISOString(),
        ...(source.of === 'sample'
          ? {
              codebook: source.codebook,
              sample: {
                name: source.sample.name,
                kind: source.sample.definition.kind,
                method: source.sample.definition.method,
                size: source.sample.definition.size,
                seed: source.sample.definition.seed,
              },
            }
          : {
              collection: {
                name: source.collection.name,
                kind: source.collection.kind,
                created_at: new Date(source.collection.createdAt).toISOString(),
              },
            }),
        counts: { posts: postIds.length, accounts: userIds.length, ...leftOutManifest(left) },
        contains: 'ids only: no text, handle, name, author or code',
        files: allFiles,
      },
      null,
      2,
    )}\n`,
  );
  putCitation(put, input.citation, {
    date,
    abstract: input.citation.description || `${input.citation.title}: the platform’s ids of ${items} items.`,
    methods,
    files: allFiles,
    items,
    resourceType: 'Social media item identifiers (to re-hydrate)',
  });
  put(
    'README.txt',
    [
      `${input.citation.title} — package for re-hydration`,
      '',
      `What this is: the platform’s own ids of the ${source.of === 'sample' ? 'coded ' : ''}items, one per line, and nothing else about them: no`,
      'text, no handle, no name, no author, no code. It allows fetching the items again (re-hydrating them) from',
      'the platform under your own access, as the platform’s terms ask of shared data; items deleted or made',
      `private since will not come back.${source.of === 'sample' ? ' Pair it with the package for review to read the codes.' : ''}`,
      '',
      `Made with ${input.app.name} ${input.app.version} on ${date}: ${items} items of ${what}.`,
      leftOutSentence(left),
      '',
      ...(postIds.length ? ['post_ids.txt     the posts’ ids, one per line'] : []),
      ...(userIds.length ? ['user_ids.txt     the accounts’ ids, one per line'] : []),
      `manifest.json    how many, from which ${source.of}`,
      'CITATION.cff, datacite.json   how to cite it',
      '',
    ]
      .filter((line, i, all) => line !== '' || all[i - 1] !== '')
      .join('\n'),
  );
  return {
    zip: zipSync(files, { level: 6, mtime: new Date(input.now) }),
    files: allFiles,
    items,
    ...left,
    keyFingerprint: null,
  };
}

export interface CollectionReviewInput extends Pseudonymising {
  app: { name: string; version: string };
  now: number;
  collection: SharedCollection;
  /** the items, opted-out accounts' already left out */
  rows: readonly ShareRow[];
  droppedOptedOut: number;
  droppedDamaged: number;
  citation: Citation;
  includeTexts: boolean;
}

/**
 * A collection's package for review: its items as pseudonyms, their authors' pseudonyms and times (and texts,
 * pseudonymised, when asked), a manifest and how to cite it. The collection's name is withheld (it may name an
 * account: “Profile of @…”), so the package cannot be re-hydrated and names nobody.
 */
export function writeCollectionReviewPackage(input: CollectionReviewInput): SharePackage {
  const date = new Date(input.now).toISOString().slice(0, 10);
  const pseudo = pseudonymiserFor(input);
  const files: Zippable = {};
  const put = (name: string, content: string) => (files[name] = strToU8(content));
  put('items.csv', itemsCsv(input.rows, pseudo, input.includeTexts));
  const items = input.rows.length;
  const made = new Date(input.collection.createdAt).toISOString().slice(0, 10);
  const methods = [
    `${items} items of a collection made with ${input.app.name} on ${made} (${input.collection.kind}).`,
    'Ids, handles and names are pseudonymised with a keyed hash (HMAC-SHA-256); the key is not part of this package.',
    leftOutSentence(input),
  ]
    .filter(Boolean)
    .join(' ');
  const allFiles = [...Object.keys(files), 'manifest.json', ...CITATION_FILES, 'README.txt'];
  putCitation(put, input.citation, {
    date,
    abstract: input.citation.description || `${input.citation.title}: ${items} social media items, pseudonymised.`,
    methods,
    files: allFiles,
    items,
    resourceType: 'Social media items (pseudonymised)',
  });
  put(
    'manifest.json',
    `${JSON.stringify(
      {
        schema: 'skein.share/1',
        package: 'for review: pseudonymised, cannot be re-hydrated',
        app: input.app,
        created_at: new Date(input.now).toISOString(),
        collection: {
          name: '(withheld: a collection’s name may name accounts)',
          kind: input.collection.kind,
          created_at: new Date(input.collection.createdAt).toISOString(),
        },
        counts: { items, ...leftOutManifest(input) },
        pseudonymisation: pseudonymisation(pseudo, input.publicFigureFollowers, [
          'post ids',
          'account ids',
          'handles',
          'names',
          '@mentions, handles, names and ids inside texts',
        ]),
        texts: input.includeTexts
          ? 'included, pseudonymised (items.csv, column text)'
          : 'not included: pseudonyms only, which cannot be re-hydrated',
        files: allFiles,
        methods,
      },
      null,
      2,
    )}\n`,
  );
  put(
    'README.txt',
    [
      `${input.citation.title} — package for review`,
      '',
      'What this is: a collected dataset for a reviewer or a deposit beside a paper, pseudonymised.',
      ...PSEUDONYMISED,
      ASK_FOR_IDS,
      '',
      `Made with ${input.app.name} ${input.app.version} on ${date}. ${methods}`,
      '',
      'items.csv        one row per item: its pseudonym, kind, author pseudonym, time' +
        (input.includeTexts ? ' and text (pseudonymised)' : ''),
      'manifest.json    what the collection was and how it was pseudonymised',
      'CITATION.cff, datacite.json   how to cite it',
      '',
    ].join('\n'),
  );
  return {
    zip: zipSync(files, { level: 6, mtime: new Date(input.now) }),
    files: allFiles,
    items,
    droppedOptedOut: input.droppedOptedOut,
    droppedDamaged: input.droppedDamaged,
    keyFingerprint: pseudo.fingerprint,
  };
}
