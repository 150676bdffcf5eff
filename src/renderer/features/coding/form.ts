/**
 * The coding forms' plain logic: drawing a sample, the share-and-cite package, a model coder and the model
 * endpoint. Their fields, first values, what stops them in words, and the request each sends to main; also
 * what a drawn sample represents, in the words the page shows. Kept apart from React so it is tested on its own.
 */
import { marginOfError } from '../../../shared/coding/margin';
import type { Coder, ModelSettingsInput, SampleMethod, Stratum } from '../../../shared/coding/records';
import {
  REVIEW_MAX_ITEMS,
  type Citation,
  type CitationInput,
  type DrawSampleRequest,
  type ModelEndpoint,
  type ShareCollectionInput,
  type ShareInput,
} from '../../../shared/ipc/coding';
import type { SampleSource } from './queries';

/** A count typed by the person: a whole number, 0 for anything else. */
const whole = (text: string) => Math.max(0, Math.floor(Number(text) || 0));

// ---- drawing a sample ----

export interface SampleFields {
  name: string;
  kind: 'post' | 'user';
  /** words of an archive search (empty: any) */
  text: string;
  /** @handle (empty: anyone) */
  author: string;
  /** a collection's id (empty: the whole project) */
  collection: string;
  method: SampleMethod;
  stratum: Stratum;
  size: string;
  seed: string;
  /** the percentage every coder codes */
  overlap: string;
  /** the coders it is assigned to */
  coders: number[];
}

/** A new sample: 100 posts stratified by day, 20 % double-coded, with the seed given. */
export function newSample(seed: string): SampleFields {
  return {
    name: 'Sample 1',
    kind: 'post',
    text: '',
    author: '',
    collection: '',
    method: 'stratified',
    stratum: 'day',
    size: '100',
    seed,
    overlap: '20',
    coders: [],
  };
}

/** The part of the project the sample is drawn from. */
export function sampleSource(f: SampleFields): SampleSource {
  const author = f.author.trim();
  return {
    kind: f.kind,
    text: f.text.trim(),
    ...(author ? { author: author.replace(/^@/, '') } : {}),
    ...(f.collection ? { collection: Number(f.collection) } : {}),
  };
}

/** The coders, with one added or taken away. */
export function withCoder(coders: readonly number[], id: number, on: boolean): number[] {
  return on ? [...coders, id] : coders.filter((x) => x !== id);
}

/** How many items are drawn from a source of `total`: the size asked for, at most all of them. */
export function drawnCount(f: SampleFields, total: number): number {
  return Math.min(whole(f.size), total);
}

/** Why the sample cannot be drawn yet, in words; null when it can. */
export function sampleProblem(f: SampleFields, total: number): string | null {
  if (f.coders.length === 0) return 'Assign the sample to at least one coder.';
  if (drawnCount(f, total) === 0)
    return total === 0 ? 'The source holds nothing to draw from.' : 'Give a size of at least 1.';
  return null;
}

/** The sample main is asked to draw and deal out. */
export function drawRequest(f: SampleFields, codebook: number): DrawSampleRequest {
  return {
    codebook,
    name: f.name.trim() || 'Sample',
    source: sampleSource(f),
    size: whole(f.size),
    seed: f.seed,
    method: f.method,
    ...(f.method === 'stratified' ? { stratum: f.stratum } : {}),
    coders: f.coders,
    overlap: (Number(f.overlap) || 0) / 100,
  };
}

/** What the sample represents: its share of the source, the margin of error of a share, how it is dealt out. */
export function representsWords(f: SampleFields, population: { label: string; total: number } | undefined): string {
  if (!population) return 'Counting…';
  const { total } = population;
  const drawn = drawnCount(f, total);
  const moe = marginOfError(drawn, total);
  const noun = f.kind === 'user' ? 'accounts' : 'posts';
  const coders = f.coders.length;
  const shared = coders > 1 ? Math.round((drawn * (Number(f.overlap) || 0)) / 100) : 0;
  const share = total ? ((drawn / total) * 100).toFixed(1) : '0';
  const margin =
    moe !== null && drawn > 0 ? `; a share measured on it is within ±${(moe * 100).toFixed(1)} points (95 %)` : '';
  const dealt =
    coders > 1
      ? ` ${shared} double-coded by all ${coders} coders, the rest dealt out: about ${Math.ceil((drawn - shared) / coders) + shared} each.`
      : '';
  return `The source, ${population.label}, holds ${total.toLocaleString()} ${noun}. ${drawn.toLocaleString()} of them is ${share} %${margin}.${dealt}`;
}

/** A stratum's part of the sample (proportional allocation). */
export function stratumShare(count: number, drawn: number, total: number): number {
  return total ? Math.round((count * drawn) / total) : 0;
}

// ---- the share-and-cite package ----

/** what a package is of: the coded sample chosen above, or a collection of the project (no coding needed) */
export type ShareOf = 'sample' | 'collection';

export interface ShareFields {
  of: ShareOf;
  /** the collection's id, when `of` is a collection ('' none chosen) */
  collection: string;
  /** the package for review: pseudonymised, cannot be re-hydrated */
  review: boolean;
  /** the package for re-hydration: the real post ids only */
  rehydration: boolean;
  /** the review package carries the post texts, pseudonymised (off: pseudonyms only) */
  texts: boolean;
  /** accounts with at least this many followers keep their names (empty: none) */
  publicFigures: string;
  title: string;
  /** one per line: Family, Given; ORCID */
  authors: string;
  description: string;
  /** separated by commas */
  keywords: string;
  license: string;
  version: string;
}

/** The form starts from the citation the last package was made with, if any. */
export function shareFields(saved: Citation | null, of: ShareOf = 'sample'): ShareFields {
  return {
    of,
    collection: '',
    review: true,
    rehydration: false,
    texts: false,
    publicFigures: '',
    title: saved?.title ?? '',
    authors:
      saved?.authors.map((a) => [`${a.familyNames}, ${a.givenNames}`, a.orcid].filter(Boolean).join('; ')).join('\n') ??
      '',
    description: saved?.description ?? '',
    keywords: saved?.keywords.join(', ') ?? '',
    license: saved?.license ?? 'CC-BY-4.0',
    version: saved?.version ?? '1.0',
  };
}

/** The citation as CITATION.cff and DataCite will carry it. */
export function citationInput(f: ShareFields): CitationInput {
  return {
    title: f.title.trim() || (f.of === 'sample' ? 'Coded sample' : 'Collected dataset'),
    authors: f.authors
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .map((line) => {
        const [name = '', orcid] = line.split(';').map((x) => x.trim());
        const [family = '', given = ''] = name.split(',').map((x) => x.trim());
        return { familyNames: family || name, givenNames: given, ...(orcid ? { orcid } : {}) };
      }),
    description: f.description,
    keywords: f.keywords
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
    license: f.license.trim() || 'CC-BY-4.0',
    version: f.version.trim() || '1.0',
  };
}

/** Why the package cannot be made yet, in words; null when it can. */
export function shareProblem(
  f: ShareFields,
  sample: number | null,
  keySet = true,
  /** the chosen collection's items, when known */
  collectionItems?: number,
): string | null {
  if (f.of === 'sample' && sample === null) return 'Choose a sample first.';
  if (f.of === 'collection' && f.collection === '') return 'Choose a collection first.';
  if (f.of === 'collection' && f.review && collectionItems !== undefined && collectionItems > REVIEW_MAX_ITEMS)
    return `A package for review holds at most ${REVIEW_MAX_ITEMS.toLocaleString('en-US')} items and this collection has ${collectionItems.toLocaleString('en-US')}: make only the package for re-hydration, or draw a sample of it (Samples) and share that.`;
  if (!f.review && !f.rehydration) return 'Choose a package: for review, for re-hydration, or both.';
  if (f.review && !keySet)
    return 'Pseudonymising needs a key: generate one or enter your team’s above (the package for re-hydration needs none).';
  if (!f.authors.trim()) return 'Name at least one author.';
  return null;
}

/** The packages asked for and how to cite them, whatever they are of. */
function packagesAsked(f: ShareFields) {
  const threshold = Math.floor(Number(f.publicFigures));
  return {
    review: f.review,
    rehydration: f.rehydration,
    includeTexts: f.review && f.texts,
    ...(f.publicFigures.trim() && threshold > 0 ? { publicFigureFollowers: threshold } : {}),
    citation: citationInput(f),
  };
}

/** The package of a coded sample main is asked to write. */
export function shareRequest(
  f: ShareFields,
  codebook: number,
  sample: number,
): ShareInput & { review: boolean; rehydration: boolean; includeTexts: boolean } {
  return { codebook, sample, ...packagesAsked(f) };
}

/** The package of a collection main is asked to write. */
export function shareCollectionRequest(
  f: ShareFields,
): ShareCollectionInput & { review: boolean; rehydration: boolean; includeTexts: boolean } {
  return { collection: Number(f.collection), ...packagesAsked(f) };
}

// ---- a model coder and where its calls go ----

export interface ModelCoderFields {
  name: string;
  model: string;
  temperature: string;
  /** one prompt per field key (empty: the model leaves that field) */
  prompts: Record<string, string>;
}

/** A model coder's settings, or a new one's. */
export function modelCoderFields(coder?: Coder): ModelCoderFields {
  return {
    name: coder?.name ?? 'Model',
    model: coder?.model?.model ?? 'skein-standin-1',
    temperature: String(coder?.model?.temperature ?? 0),
    prompts: coder?.model?.prompts ?? {},
  };
}

/** The settings stored with the coder (a temperature that is not a number is 0). */
export function modelSettings(f: ModelCoderFields): ModelSettingsInput {
  return { model: f.model, temperature: Number(f.temperature) || 0, prompts: f.prompts };
}

export interface EndpointFields {
  kind: ModelEndpoint['kind'];
  baseUrl: string;
  /** a new key (empty: keep the one set, if any) */
  key: string;
}

/** The endpoint as main has it; a new one points at a local Ollama. */
export function endpointFields(endpoint: ModelEndpoint | undefined): EndpointFields {
  return { kind: endpoint?.kind ?? 'none', baseUrl: endpoint?.baseUrl ?? 'http://localhost:11434/v1', key: '' };
}

/** Where model calls go, as main is told: a URL and key only for an endpoint of one's own. */
export function endpointRequest(f: EndpointFields): { kind: EndpointFields['kind']; baseUrl?: string; key?: string } {
  return {
    kind: f.kind,
    ...(f.kind === 'custom' ? { baseUrl: f.baseUrl, ...(f.key.trim() ? { key: f.key } : {}) } : {}),
  };
}
