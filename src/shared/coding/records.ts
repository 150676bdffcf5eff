/**
 * What a project keeps of coding, as the archive stores it and the bridge carries it: codebooks and
 * their versions, coders (people and models), one value per item × field × coder with its time and codebook
 * version, adjudicated values apart from the coders', samples and their assignment, and opted-out accounts.
 */
import { z } from 'zod';
import { CodebookDefinition, CodedKind, FieldKey, KeptValue } from './codebook';

const CodebookVersion = z.object({
  version: z.number().int().min(1),
  definition: CodebookDefinition,
  createdAt: z.number(),
  /** what changed, in the researcher's words */
  note: z.string().max(2000).default(''),
});
export type CodebookVersion = z.infer<typeof CodebookVersion>;

export const CodebookSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: z.number(),
  /** the version new values are made under */
  version: z.number().int(),
  /** values coded under any version */
  codings: z.number().int(),
});
export type CodebookSummary = z.infer<typeof CodebookSummary>;

export const Codebook = CodebookSummary.extend({ versions: z.array(CodebookVersion).min(1) });
export type Codebook = z.infer<typeof Codebook>;

/** A model coder's settings: stored with the coder, and with every value it makes. */
export const ModelSettings = z.object({
  /** the endpoint's model name (`llama3.1:8b`, `gpt-4o-mini`) */
  model: z.string().trim().min(1).max(200),
  temperature: z.number().min(0).max(2).default(0),
  maxTokens: z.number().int().min(1).max(4096).default(64),
  /** one prompt per field key; a field without one is not coded by the model */
  prompts: z.record(FieldKey, z.string().max(8000)).default({}),
});
export type ModelSettings = z.infer<typeof ModelSettings>;
export type ModelSettingsInput = z.input<typeof ModelSettings>;

export const CoderKind = z.enum(['person', 'model']);
export type CoderKind = z.infer<typeof CoderKind>;

export const Coder = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: CoderKind,
  model: ModelSettings.nullable(),
  createdAt: z.number(),
  /** when this coder chose to see agreement and other coders' values (null: still blind) */
  revealedAt: z.number().nullable(),
});
export type Coder = z.infer<typeof Coder>;

export const CoderName = z.string().trim().min(1).max(80);

/** The person coding at a computer became `to` (from `from`, or nobody), recorded in the project. */
export const CoderSwitch = z.object({
  from: z.number().int().nullable(),
  to: z.number().int(),
  /** the name that computer's Skein records answers as */
  researcher: z.string(),
  at: z.number(),
});
export type CoderSwitch = z.infer<typeof CoderSwitch>;

/** One value: an item × field × coder, with when and under which codebook version. */
export const Coding = z.object({
  kind: CodedKind,
  id: z.string(),
  field: FieldKey,
  coder: z.number().int(),
  value: KeptValue,
  codedAt: z.number(),
  version: z.number().int(),
  /** a model's value: the model, the prompt and the settings it was made with, and its answer as received */
  detail: z.unknown().nullable().optional(),
});
export type Coding = z.infer<typeof Coding>;

/** A value decided in reconciliation, kept apart from the coders' values. */
export const Adjudication = z.object({
  kind: CodedKind,
  id: z.string(),
  field: FieldKey,
  value: KeptValue,
  decidedAt: z.number(),
  /** who decided (a coder's name, or the researcher's own words) */
  decidedBy: z.string(),
  note: z.string(),
  version: z.number().int(),
});
export type Adjudication = z.infer<typeof Adjudication>;

/** What a sample's items are stratified by: the post's day, week or month (UTC), its author, language or type. */
export const Stratum = z.enum(['day', 'week', 'month', 'author', 'lang', 'type']);
export type Stratum = z.infer<typeof Stratum>;

export const SampleMethod = z.enum(['random', 'stratified']);
export type SampleMethod = z.infer<typeof SampleMethod>;

/** How a sample was drawn: enough to draw it again from the same project. */
export const SampleDefinition = z.object({
  /** the archive search it was drawn from (its text and filters; a collection) */
  source: z.record(z.string(), z.unknown()),
  /** in plain words: "posts matching “heron” in collection 3" */
  sourceLabel: z.string(),
  kind: CodedKind,
  method: SampleMethod,
  stratum: Stratum.nullable(),
  size: z.number().int(),
  seed: z.string(),
  /** items the source held when drawn */
  population: z.number().int(),
  /** per stratum: how many the source held and how many were drawn (proportional allocation, largest remainder) */
  strata: z.array(z.object({ value: z.string(), population: z.number().int(), drawn: z.number().int() })),
  /** share of the sample every assigned coder codes (double coding), 0..1 */
  overlap: z.number().min(0).max(1),
  coders: z.array(z.number().int()),
});
export type SampleDefinition = z.infer<typeof SampleDefinition>;

export const SampleSummary = z.object({
  id: z.number().int(),
  codebook: z.number().int(),
  name: z.string(),
  createdAt: z.number(),
  /** null where this Skein cannot read how it was drawn (a newer Skein's way, or damaged): its items still code */
  definition: SampleDefinition.nullable(),
  items: z.number().int(),
  /** per assigned coder: items assigned, and how many of them have every compared field coded */
  progress: z.array(z.object({ coder: z.number().int(), assigned: z.number().int(), done: z.number().int() })),
});
export type SampleSummary = z.infer<typeof SampleSummary>;

/** An item of a sample as the project keeps it: its place in the draw, its stratum, whether it is double-coded. */
export const SampleItem = z.object({
  position: z.number().int(),
  kind: CodedKind,
  id: z.string(),
  stratum: z.string().nullable(),
});
export type SampleItem = z.infer<typeof SampleItem>;

/** One coder's queue entry: the item, its place in the coder's queue, and whether others code it too. */
export const Assignment = z.object({
  coder: z.number().int(),
  position: z.number().int(),
  kind: CodedKind,
  id: z.string(),
  overlap: z.boolean(),
});
export type Assignment = z.infer<typeof Assignment>;

/** An account whose items are left out of every export (the researcher marked it: the person opted out). */
export const OptOut = z.object({
  /** the account's id when known */
  userId: z.string().nullable(),
  /** its handle, without @, when known */
  handle: z.string().nullable(),
  addedAt: z.number(),
  note: z.string(),
});
export type OptOut = z.infer<typeof OptOut>;
