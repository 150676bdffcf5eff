/**
 * The `coding` namespace of the bridge (the coding workbench): codebooks, coders (people and models), samples and their
 * assignment, coding by keyboard, blind agreement, reconciliation, and the files a coding project is shared
 * with (an annotation table, REFI-QDA `.qdpx` and `.qdc`, ReCal's CSV, the share packages for review and for
 * re-hydration).
 *
 * Every function works on the project of the mode Skein is in (the demo project in demo mode). No input names a
 * path: files are written where main's save dialog says, and read from what the person picked in the page,
 * sent in slices (`upload*`). The pseudonymisation key and a model endpoint's key never come back: the page
 * learns whether they are set, and where they are kept.
 */
import { z } from 'zod';
import { CodebookDefinition, CodedKind, CodeValue, FieldKey, KeptValue } from '../coding/codebook';
import {
  Adjudication,
  Codebook,
  CodebookSummary,
  Coder,
  CoderKind,
  CoderName,
  CoderSwitch,
  ModelSettings,
  OptOut,
  SampleMethod,
  SampleSummary,
  Stratum,
} from '../coding/records';
import { ArchiveQuery } from './archive';
import { fn } from './define';
import { CredentialsStatus } from './settings';

const CodebookId = z.number().int().positive();
const CoderId = z.number().int().positive();
const SampleId = z.number().int().positive();
const ItemId = z.string().regex(/^\d{1,25}$/, 'a numeric id');

const CodebookName = z.string().trim().min(1).max(120);

/** One row of an agreement report: a field (or one category of a multiple-choice field) and its figures. */
export const AgreementRow = z.object({
  field: FieldKey,
  label: z.string(),
  /** a multiple-choice field's category, read as present or absent; null for the field as a whole */
  category: z.string().nullable(),
  /** the levels α is computed at, the first one the main figure */
  levels: z.array(z.enum(['nominal', 'ordinal', 'interval'])),
  /** units (items) with two values or more: what agreement is computed over */
  units: z.number().int(),
  coders: z.number().int(),
  /** pairable values */
  values: z.number().int(),
  alpha: z.object({
    nominal: z.number().nullable().optional(),
    ordinal: z.number().nullable().optional(),
    interval: z.number().nullable().optional(),
  }),
  /** 95 % percentile bootstrap interval of the first level's α (units resampled) */
  interval: z
    .object({
      level: z.enum(['nominal', 'ordinal', 'interval']),
      low: z.number(),
      high: z.number(),
      draws: z.number().int(),
    })
    .nullable(),
  /** two coders only */
  cohenKappa: z.number().nullable(),
  fleissKappa: z.number().nullable(),
  /** units Fleiss' κ is computed over (those coded by the most common number of coders) */
  fleissUnits: z.number().int(),
  percent: z.number().nullable(),
  /** values of the field this Skein cannot read (a newer Skein's, or damaged): left out of every figure */
  unread: z.number().int().optional(),
});
export type AgreementRow = z.infer<typeof AgreementRow>;

export const AgreementReport = z.object({
  codebook: z.number().int(),
  version: z.number().int(),
  sample: z.number().int().nullable(),
  coders: z.array(
    z.object({ id: z.number().int(), name: z.string(), kind: CoderKind, blindUntil: z.number().nullable() }),
  ),
  rows: z.array(AgreementRow),
  /** how the interval was drawn */
  bootstrap: z.object({ draws: z.number().int(), seed: z.number().int(), level: z.number() }),
  computedAt: z.number(),
});
export type AgreementReport = z.infer<typeof AgreementReport>;

/**
 * An item as the coding views show it: its card (a post cut to a card, or an account), or null when the project no
 * longer holds it, or holds it `damaged` (its kept JSON no longer reads; a hydration of its id mends it).
 */
export const CodedItem = z.object({
  kind: CodedKind,
  id: ItemId,
  item: z.unknown().nullable(),
  damaged: z.literal(true).optional(),
});
export type CodedItem = z.infer<typeof CodedItem>;

/** A value as the coding views show it (one coder's, or in reconciliation every coder's). */
export const CodingValue = z.object({
  field: FieldKey,
  coder: z.number().int(),
  value: KeptValue,
  codedAt: z.number(),
  version: z.number().int(),
});
export type CodingValue = z.infer<typeof CodingValue>;

export const QueueEntry = CodedItem.extend({
  position: z.number().int(),
  /** the post a reply answers, as the project holds it (null: not a reply, or not in the project) */
  parent: z.unknown().nullable().default(null),
  /** this coder's values only: coding is blind */
  values: z.array(CodingValue),
});
export type QueueEntry = z.infer<typeof QueueEntry>;

/**
 * Items of this page of a kind this Skein does not code (a newer Skein may have added them): left out of the page,
 * kept in the project; absent when none were.
 */
const OtherKinds = z.number().int().positive().optional();

export const Queue = z.object({
  entries: z.array(QueueEntry),
  total: z.number().int(),
  /** items with every compared field coded by this coder */
  done: z.number().int(),
  nextOffset: z.number().int().nullable(),
  otherKinds: OtherKinds,
});
export type Queue = z.infer<typeof Queue>;

export const Disagreement = CodedItem.extend({
  field: FieldKey,
  values: z.array(CodingValue),
  adjudication: Adjudication.nullable(),
});
export type Disagreement = z.infer<typeof Disagreement>;

/** The share of a population a sample's size represents, and the margin of error of a share measured on it. */
export const Population = z.object({
  total: z.number().int(),
  /** the largest strata first (at most 200 listed) */
  strata: z.array(z.object({ value: z.string(), count: z.number().int() })),
  /** strata in all */
  strataCount: z.number().int(),
  label: z.string(),
});
export type Population = z.infer<typeof Population>;

const SampleSource = ArchiveQuery.omit({ project: true, sort: true });

export const DrawSampleInput = z.object({
  codebook: CodebookId,
  name: z.string().trim().min(1).max(120),
  source: SampleSource,
  size: z.number().int().min(1).max(100_000),
  /** any text; the same seed over the same project draws the same items */
  seed: z.string().trim().min(1).max(100),
  method: SampleMethod,
  stratum: Stratum.optional(),
  coders: z.array(CoderId).min(1).max(20),
  /** share of the sample every coder codes: 0.2 → 20 % double-coded */
  overlap: z.number().min(0).max(1),
});
export type DrawSampleInput = z.infer<typeof DrawSampleInput>;
/** what the page sends (defaults not yet filled in) */
export type DrawSampleRequest = z.input<typeof DrawSampleInput>;

const Scope = z.object({ codebook: CodebookId, sample: SampleId.optional() });

/** Citation fields of a share package (CITATION.cff and DataCite), kept with the project for next time. */
export const Citation = z.object({
  title: z.string().trim().min(1).max(300),
  authors: z
    .array(
      z.object({
        givenNames: z.string().trim().max(120).default(''),
        familyNames: z.string().trim().min(1).max(120),
        orcid: z
          .string()
          .regex(/^(\d{4}-){3}\d{3}[\dX]$/, 'an ORCID iD: 0000-0000-0000-0000')
          .optional(),
        affiliation: z.string().trim().max(300).optional(),
      }),
    )
    .min(1)
    .max(50),
  description: z.string().max(5000).default(''),
  keywords: z.array(z.string().trim().min(1).max(80)).max(30).default([]),
  license: z.string().trim().min(1).max(80).default('CC-BY-4.0'),
  version: z.string().trim().min(1).max(40).default('1.0'),
  publisher: z.string().trim().max(200).default(''),
});
export type Citation = z.infer<typeof Citation>;
export type CitationInput = z.input<typeof Citation>;

const ShareChoice = z.object({
  /** the package for review: ids, handles, names and @mentions replaced by keyed pseudonyms; cannot be re-hydrated */
  review: z.boolean().default(true),
  /** the package for re-hydration: the platform's real ids only, nothing else of the items */
  rehydration: z.boolean().default(false),
  /** the review package carries the post texts, pseudonymised (off: pseudonyms only) */
  includeTexts: z.boolean().default(false),
  /** accounts with at least this many followers keep their id, handle and name (public figures); absent: none */
  publicFigureFollowers: z.number().int().min(1).optional(),
  citation: Citation,
});
const ShareInput = Scope.extend({ sample: SampleId }).extend(ShareChoice.shape);
export type ShareInput = z.input<typeof ShareInput>;
/**
 * the most items a collection's package for review holds: its pseudonymiser looks for every account's name in every
 * text, which grows with both (100,000 posts with texts: ~6.6 s, within the files worker's 512 MB heap)
 */
export const REVIEW_MAX_ITEMS = 100_000;

/** the same packages of a collection of the project (no codes: no codebook or sample needed) */
const ShareCollectionInput = ShareChoice.extend({ collection: z.number().int().positive() });
export type ShareCollectionInput = z.input<typeof ShareCollectionInput>;

/** Who codes at this computer in the current project (null: nobody chosen yet), and the switches recorded. */
const CoderHere = z.object({ coder: CoderId.nullable(), switches: z.array(CoderSwitch) });
export type CoderHere = z.infer<typeof CoderHere>;

/** What a written file or package holds, for the page to say. */
const Written = z.object({ file: z.string(), items: z.number().int(), note: z.string() }).nullable();

const SharePackageKind = z.enum(['review', 'rehydration']);

/** The packages one click wrote, each with what it holds; null when the save dialog was cancelled. */
const SharedPackages = z
  .object({
    packages: z.array(
      z.object({
        kind: SharePackageKind,
        file: z.string(),
        items: z.number().int(),
        note: z.string(),
        /** the files inside */
        contents: z.array(z.string()),
      }),
    ),
  })
  .nullable();
export type SharedPackages = z.infer<typeof SharedPackages>;

/** A file the person picked, sent in slices of base64 (a `.qdpx` is a zip; a `.qdc` or CSV is text). */
export const UploadKind = z.enum(['qdpx', 'qdc', 'codebook-csv']);
export type UploadKind = z.infer<typeof UploadKind>;
export const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;
/** base64 characters per slice (under the browser shell's 1 MiB body) */
export const MAX_UPLOAD_SLICE = 512 * 1024;
const UploadId = z.string().regex(/^upl-[0-9a-z]{8,40}$/);

export const ImportResult = z.object({
  codebook: z.number().int(),
  codebookName: z.string(),
  /** a new version of an existing codebook, or a new codebook */
  version: z.number().int(),
  coders: z.number().int(),
  codings: z.number().int(),
  adjudications: z.number().int(),
  /** items the file codes that this project does not hold (their values are kept all the same) */
  itemsNotHeld: z.number().int(),
  warnings: z.array(z.string()),
});
export type ImportResult = z.infer<typeof ImportResult>;

/** Where a model coder's requests go: the demo stand-in of the sandbox, or an OpenAI-compatible endpoint. */
export const ModelEndpoint = z.object({
  /** off unless configured: none, the sandbox's deterministic stand-in (demo mode), or an endpoint */
  kind: z.enum(['none', 'demo', 'custom']),
  /** `…/v1` of an OpenAI-compatible server (`http://localhost:11434/v1` for Ollama) */
  baseUrl: z.string().max(2048).nullable(),
  key: CredentialsStatus,
  /**
   * a model endpoint set up by a newer Skein (its kind, as written) or one whose address cannot be read
   * (`custom`): off here, kept in the settings until one is chosen here; null or absent: none
   */
  unreadKind: z.string().max(100).nullable().optional(),
});
export type ModelEndpoint = z.infer<typeof ModelEndpoint>;

export const ModelRun = z.object({
  id: z.string(),
  coder: z.number().int(),
  sample: z.number().int(),
  status: z.enum(['running', 'complete', 'cancelled', 'failed']),
  /** calls planned (items × fields with a prompt), made, and answers that were not a category */
  planned: z.number().int(),
  done: z.number().int(),
  unusable: z.number().int(),
  /** values already made by this coder are not asked again */
  skipped: z.number().int(),
  error: z.string().nullable(),
  startedAt: z.number(),
});
export type ModelRun = z.infer<typeof ModelRun>;

export const PseudonymKey = z.object({
  status: CredentialsStatus,
  /** a short fingerprint (an HMAC of a fixed text), to tell two keys apart without showing either */
  fingerprint: z.string().nullable(),
});
export type PseudonymKey = z.infer<typeof PseudonymKey>;

export const codingContract = {
  coding: {
    codebooks: fn(z.undefined(), z.array(CodebookSummary)),
    codebook: fn(z.object({ id: CodebookId }), Codebook),
    /** a new codebook, or a change to one: a new version once values were coded under the current one */
    saveCodebook: fn(
      z.object({
        id: CodebookId.optional(),
        name: CodebookName,
        definition: CodebookDefinition,
        note: z.string().max(2000).optional(),
      }),
      Codebook,
    ),
    coders: fn(z.undefined(), z.array(Coder)),
    addCoder: fn(z.object({ name: CoderName, kind: CoderKind, model: ModelSettings.optional() }), Coder),
    updateCoder: fn(z.object({ id: CoderId, name: CoderName.optional(), model: ModelSettings.optional() }), Coder),
    /** the coder chooses to see agreement and the others' values: recorded, and from then on not blind */
    reveal: fn(z.object({ coder: CoderId }), Coder),
    /** who codes at this computer in the current project (kept in main's settings), and the switches recorded */
    coderHere: fn(z.undefined(), CoderHere),
    /** the person at this computer codes as `coder` from now on; a change is recorded in the project */
    setCoderHere: fn(z.object({ coder: CoderId }), CoderHere),

    /** how many items a source holds, per stratum (no API call) */
    population: fn(z.object({ source: SampleSource, stratum: Stratum.optional() }), Population),
    drawSample: fn(DrawSampleInput, SampleSummary),
    samples: fn(z.object({ codebook: CodebookId }), z.array(SampleSummary)),
    /** a coder's queue in a sample, with their own values only */
    queue: fn(
      z.object({
        sample: SampleId,
        coder: CoderId,
        offset: z.number().int().min(0).default(0),
        limit: z.number().int().min(1).max(200).default(50),
      }),
      Queue,
    ),
    /** one coder's values of some items (coding where posts are shown) */
    values: fn(
      z.object({ codebook: CodebookId, coder: CoderId, kind: CodedKind, ids: z.array(ItemId).max(500) }),
      z.array(CodingValue.extend({ id: z.string() })),
    ),
    /** sets (or, with null, clears) one value of a person coder; a model's values are never written here */
    code: fn(
      z.object({
        codebook: CodebookId,
        coder: CoderId,
        kind: CodedKind,
        id: ItemId,
        field: FieldKey,
        value: CodeValue.nullable(),
      }),
      CodingValue.nullable(),
    ),
    /** needs the viewer to have chosen to see agreement (`reveal`) */
    agreement: fn(Scope.extend({ viewer: CoderId }), AgreementReport),
    disagreements: fn(
      Scope.extend({
        viewer: CoderId,
        field: FieldKey.optional(),
        unresolvedOnly: z.boolean().default(false),
        offset: z.number().int().min(0).default(0),
        limit: z.number().int().min(1).max(100).default(20),
      }),
      z.object({
        items: z.array(Disagreement),
        total: z.number().int(),
        nextOffset: z.number().int().nullable(),
        otherKinds: OtherKinds,
      }),
    ),
    /** the reconciled value, kept apart from the coders' values; null removes it */
    adjudicate: fn(
      z.object({
        codebook: CodebookId,
        kind: CodedKind,
        id: ItemId,
        field: FieldKey,
        value: CodeValue.nullable(),
        decidedBy: z.string().trim().min(1).max(80),
        note: z.string().max(2000).default(''),
      }),
      Adjudication.nullable(),
    ),

    optOuts: fn(z.undefined(), z.array(OptOut)),
    /** an account whose items every export leaves out: by @handle or id */
    optOut: fn(
      z.object({ account: z.string().trim().min(1).max(64), note: z.string().max(500).default('') }),
      z.array(OptOut),
    ),
    optIn: fn(z.object({ account: z.string().trim().min(1).max(64) }), z.array(OptOut)),

    /** `item_id, field, value, coder, coded_at, codebook_version` (and the adjudicated values) as CSV */
    exportAnnotations: fn(Scope, Written),
    /** ReCal's CSV of one compared field: one row per unit, one column per coder, no header */
    exportRecal: fn(Scope.extend({ field: FieldKey }), Written),
    exportQdpx: fn(Scope, Written),
    exportCodebook: fn(z.object({ codebook: CodebookId, format: z.enum(['qdc', 'csv']) }), Written),
    /** the packages asked for, beside the name the save dialog gives: `name.for-review.zip`, `name.for-rehydration.zip` */
    sharePackage: fn(ShareInput, SharedPackages),
    shareCollection: fn(ShareCollectionInput, SharedPackages),
    /** shows a file this session wrote in the system's file manager */
    showInFolder: fn(z.object({ file: z.string().max(4096) }), z.object({ shown: z.boolean(), note: z.string() })),
    citation: fn(z.undefined(), Citation.nullable()),

    uploadBegin: fn(
      z.object({ kind: UploadKind, name: z.string().max(300), size: z.number().int().min(1).max(MAX_UPLOAD_BYTES) }),
      z.object({ upload: UploadId }),
    ),
    uploadAppend: fn(
      z.object({ upload: UploadId, base64: z.string().max(MAX_UPLOAD_SLICE) }),
      z.object({ received: z.number().int() }),
    ),
    /** reads what was sent: a `.qdpx` (codebook, coders, codings) or a codebook (`.qdc`, CSV), into `codebook` or a new one */
    uploadFinish: fn(z.object({ upload: UploadId, codebook: CodebookId.optional() }), ImportResult),

    modelEndpoint: fn(z.undefined(), ModelEndpoint),
    /** `custom` with a base URL; a key given is kept like the API key, bound to that URL's origin */
    setModelEndpoint: fn(
      z.object({
        kind: z.enum(['none', 'demo', 'custom']),
        baseUrl: z.string().max(2048).optional(),
        key: z.string().max(400).optional(),
      }),
      ModelEndpoint,
    ),
    clearModelKey: fn(z.undefined(), ModelEndpoint),
    /** a model coder codes its queue in a sample: every field it has a prompt for, values it made already skipped */
    runModel: fn(z.object({ codebook: CodebookId, sample: SampleId, coder: CoderId }), ModelRun),
    modelRuns: fn(z.undefined(), z.array(ModelRun)),
    cancelModelRun: fn(z.object({ id: z.string().max(64) }), ModelRun),

    pseudonymKey: fn(z.undefined(), PseudonymKey),
    /** keeps the key given (a team's shared key), or a new random one; never sent back */
    setPseudonymKey: fn(z.object({ key: z.string().min(16).max(400).optional() }), PseudonymKey),
    clearPseudonymKey: fn(z.undefined(), PseudonymKey),
  },
};
