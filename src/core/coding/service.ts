/**
 * The rules of coding, over a project's coding tables and items (store.ts, in the archive's worker): a codebook
 * changed after values were made under it becomes a new version; every value is checked against the version
 * it is made under; a model's values are written by its run only, never by a person; agreement and the
 * others' values stay hidden from a coder until they choose to see them; a sample is drawn reproducibly and
 * assigned with overlap; opted-out accounts are kept by id and handle.
 */
import {
  assignKeys,
  canonicalValue,
  CodedKind,
  FieldType,
  isCompared,
  isUnread,
  valueProblem,
  type CodebookDefinition,
  type CodeValue,
  type FieldDef,
} from '../../shared/coding/codebook';
import type {
  Adjudication,
  Codebook,
  Coder,
  Coding,
  ModelSettings,
  OptOut,
  SampleSummary,
  Stratum,
} from '../../shared/coding/records';
import { makeError, SkeinError } from '../../shared/errors';
import { ArchiveQuery, type ArchiveQueryParsed } from '../../shared/ipc/archive';
import type {
  AgreementReport,
  AgreementRow,
  CodingValue,
  Disagreement,
  DrawSampleInput,
  Population,
  Queue,
} from '../../shared/ipc/coding';
import { agreementRows, BOOTSTRAP } from './agreement/report';
import { disagree } from './resolve';
import { assign, drawSample } from './sampling';
import type { Handle, StoreOf } from './store';

/**
 * Items of a kind this Skein codes, and how many others were left out: a newer Skein may have added items of another
 * kind to a sample (or coded them); they stay in the project for it, and are never shown here as posts or accounts.
 */
function ofCodedKinds<T extends { kind: string }>(items: readonly T[]): { coded: T[]; otherKinds: number } {
  const coded = items.filter((i) => CodedKind.safeParse(i.kind).success);
  return { coded, otherKinds: items.length - coded.length };
}

/** the reply's count of items left out, only where there were some */
const leftOut = (otherKinds: number): { otherKinds?: number } => (otherKinds > 0 ? { otherKinds } : {});

/** each agreement row with how many of its field's values this Skein cannot read, and so left out of it */
function withUnread(rows: AgreementRow[], codings: readonly Coding[]): AgreementRow[] {
  const unread = new Map<string, number>();
  for (const c of codings) if (isUnread(c.value)) unread.set(c.field, (unread.get(c.field) ?? 0) + 1);
  return rows.map((r) => (unread.has(r.field) ? { ...r, unread: unread.get(r.field) } : r));
}

export type { Handle };

export interface CodingServiceDeps {
  /** a project's coding tables and the archive's items it reads */
  store: StoreOf;
  /** the project of the mode Skein is in (the demo project in demo mode) */
  handle: () => Promise<Handle>;
  now: () => number;
}

function badInput(field: string, message: string): SkeinError {
  return new SkeinError('bad-input', message, { fields: [{ field, message }], action: 'Correct it and try again.' });
}

function notFound(what: string): SkeinError {
  return new SkeinError('not-found', `${what} is not in this project.`, {
    action: 'It may belong to another project: switch projects, or reload the view.',
  });
}

/** The version new values are made under, and its definition. */
export function currentVersion(codebook: Codebook): { version: number; definition: CodebookDefinition } {
  const last = codebook.versions[codebook.versions.length - 1]!;
  return { version: last.version, definition: last.definition };
}

/** A value as the page sees it: without its item (the page asked by item) or a model's detail. */
const valueOf = (v: Coding): CodingValue => ({
  field: v.field,
  coder: v.coder,
  value: v.value,
  codedAt: v.codedAt,
  version: v.version,
});

/** A source's label in plain words: "posts matching “heron”, in collection 3, from 2026-11-01". */
function sourceLabel(q: ArchiveQueryParsed): string {
  const parts = [q.kind === 'user' ? 'accounts' : 'posts'];
  if (q.text) parts.push(`matching “${q.text}”`);
  if (q.collection !== undefined) parts.push(`in collection ${q.collection}`);
  if (q.author) parts.push(`by @${q.author.replace(/^@/, '')}`);
  if (q.lang) parts.push(`in ${q.lang}`);
  if (q.from !== undefined) parts.push(`from ${new Date(q.from).toISOString().slice(0, 10)}`);
  if (q.to !== undefined) parts.push(`before ${new Date(q.to).toISOString().slice(0, 10)}`);
  for (const flag of ['media', 'reply', 'quote', 'retweet'] as const)
    if (q[flag] !== undefined)
      parts.push(`${q[flag] ? 'with' : 'without'} ${flag === 'retweet' ? 'reposts' : `${flag}s`}`);
  return `${parts.join(' ')} in this project`;
}

/**
 * Why this Skein cannot open a codebook's version, or null: a field of a kind it has no form, check or agreement
 * for (a newer Skein added it, on a shared project), or a damaged record. Opening such a codebook is refused in
 * words, so that nothing is coded or compared under a version this Skein would misread (an export's code columns
 * still carry its values, as written: policy.ts).
 */
export function unreadableVersion(definition: unknown): string | null {
  const fields = (definition as { fields?: unknown } | null)?.fields;
  if (!Array.isArray(fields) || fields.length === 0) return 'is damaged in this project';
  for (const f of fields as Array<{ key?: unknown; type?: unknown } | null>) {
    if (typeof f?.key !== 'string') return 'is damaged in this project';
    if (!FieldType.safeParse(f.type).success)
      return `has a field (“${f.key}”) of a kind this Skein does not know (“${String(f.type)}”)`;
  }
  return null;
}

export function createCodingService(deps: CodingServiceDeps) {
  const store = async () => deps.store(await deps.handle());

  const codebook = async (id: number): Promise<Codebook> => {
    const found = await (await store()).codebook(id);
    if (!found) throw notFound('This codebook');
    for (const v of found.versions) {
      const why = unreadableVersion(v.definition);
      if (why)
        throw makeError(
          'unreadable',
          `This Skein cannot open the codebook “${found.name}”: its version ${v.version} ${why}. A newer Skein may have made it; the project’s other codebooks open as usual.`,
        );
    }
    return found;
  };

  const coder = async (id: number): Promise<Coder> => {
    const found = await (await store()).coder(id);
    if (!found) throw notFound('This coder');
    return found;
  };

  const fieldOf = (definition: CodebookDefinition, key: string): FieldDef => {
    const field = definition.fields.find((f) => f.key === key);
    if (!field) throw badInput('field', `The codebook's current version has no field “${key}”.`);
    return field;
  };

  const checked = (field: FieldDef, value: CodeValue): CodeValue => {
    const problem = valueProblem(field, value);
    if (problem !== null) throw badInput('value', problem);
    return canonicalValue(value);
  };

  const revealed = async (viewer: number): Promise<Coder> => {
    const c = await coder(viewer);
    if (c.revealedAt === null)
      throw makeError('forbidden', `${c.name} has not chosen to see agreement yet: coding stays blind until then.`, {
        action: 'Choose “See agreement” when your coding is done; Skein records when you did.',
      });
    return c;
  };

  /** The compared fields' keys of a codebook's current version (what "done" means for an item). */
  const compared = (cb: Codebook) =>
    currentVersion(cb)
      .definition.fields.filter(isCompared)
      .map((f) => f.key);

  const samples = async (codebookId: number): Promise<SampleSummary[]> => {
    const cb = await codebook(codebookId);
    return (await store()).samples(cb.id, compared(cb));
  };

  const agreementOf = async (codebookId: number, sample?: number): Promise<AgreementReport> => {
    const cb = await codebook(codebookId);
    const { version, definition } = currentVersion(cb);
    const codings = await (await store()).codings(cb.id, sample ?? null);
    const coders = await (await store()).coders();
    const involved = new Set(codings.map((c) => c.coder));
    return {
      codebook: cb.id,
      version,
      sample: sample ?? null,
      coders: coders
        .filter((c) => involved.has(c.id))
        .map((c) => ({ id: c.id, name: c.name, kind: c.kind, blindUntil: c.revealedAt })),
      rows: withUnread(
        await agreementRows(
          definition,
          codings.flatMap((c) =>
            isUnread(c.value) ? [] : [{ unit: `${c.kind}:${c.id}`, coder: c.coder, field: c.field, value: c.value }],
          ),
        ),
        codings,
      ),
      bootstrap: { ...BOOTSTRAP },
      computedAt: deps.now(),
    };
  };

  const sourceOf = (source: Record<string, unknown>): ArchiveQueryParsed =>
    ArchiveQuery.parse({ ...source, project: 'current', sort: 'time' });

  return {
    /** the coding store of the project of the mode Skein is in, as of this call */
    store,
    codebook,
    coder,
    codebooks: async () => (await store()).codebooks(),

    async saveCodebook(input: {
      id?: number;
      name: string;
      definition: CodebookDefinition;
      note?: string;
    }): Promise<Codebook> {
      const definition = assignKeys(input.definition);
      const note = input.note ?? '';
      if (input.id === undefined) {
        const id = await (await store()).createCodebook(input.name, definition, note);
        return codebook(id);
      }
      const existing = await codebook(input.id);
      const { version, definition: before } = currentVersion(existing);
      if (JSON.stringify(before) === JSON.stringify(definition) && existing.name === input.name) return existing;
      const used = await (await store()).usedVersion(existing.id, version);
      // values were made under the current version: they keep it, and the change is the next one
      const next = used && JSON.stringify(before) !== JSON.stringify(definition) ? version + 1 : version;
      await (await store()).putVersion(existing.id, input.name, next, definition, note);
      return codebook(existing.id);
    },

    coders: async () => (await store()).coders(),

    async addCoder(input: { name: string; kind: 'person' | 'model'; model?: ModelSettings }): Promise<Coder> {
      const taken = await (await store()).coderByName(input.name);
      if (taken) throw badInput('name', `A coder is already called ${taken.name}.`);
      if (input.kind === 'model' && !input.model) throw badInput('model', 'A model coder needs its model and prompts.');
      return (await store()).addCoder(input.name, input.kind, input.kind === 'model' ? input.model! : null);
    },

    async updateCoder(input: { id: number; name?: string; model?: ModelSettings }): Promise<Coder> {
      const c = await coder(input.id);
      if (input.name !== undefined && input.name.toLowerCase() !== c.name.toLowerCase()) {
        const taken = await (await store()).coderByName(input.name);
        if (taken) throw badInput('name', `A coder is already called ${taken.name}.`);
      }
      if (input.model !== undefined && c.kind !== 'model')
        throw badInput('model', `${c.name} is a person, not a model.`);
      const updated = await (await store()).updateCoder(c.id, { name: input.name, model: input.model });
      return updated ?? c;
    },

    async reveal(id: number): Promise<Coder> {
      await coder(id);
      return (await (await store()).reveal(id))!;
    },

    /** A person's value (null, or empty text, clears it). A model's values are its run's alone. */
    async code(input: {
      codebook: number;
      coder: number;
      kind: CodedKind;
      id: string;
      field: string;
      value: CodeValue | null;
    }): Promise<CodingValue | null> {
      const c = await coder(input.coder);
      if (c.kind === 'model')
        throw makeError(
          'forbidden',
          `${c.name} is a model: its values are made by its run and never changed by hand.`,
          {
            action: 'Code as a person, or record the decided value in reconciliation.',
          },
        );
      const cb = await codebook(input.codebook);
      const { version, definition } = currentVersion(cb);
      const field = fieldOf(definition, input.field);
      const empty =
        input.value === null || input.value === '' || (Array.isArray(input.value) && input.value.length === 0);
      if (empty) {
        await (await store()).clearCoding(cb.id, input.kind, input.id, field.key, c.id);
        return null;
      }
      const saved = {
        field: field.key,
        coder: c.id,
        value: checked(field, input.value!),
        version,
        codedAt: deps.now(),
      };
      await (await store()).setCoding({ codebook: cb.id, kind: input.kind, id: input.id, ...saved });
      return saved;
    },

    async values(input: { codebook: number; coder: number; kind: CodedKind; ids: string[] }) {
      const list = await (await store()).valuesOf(input.codebook, input.coder, input.kind, input.ids);
      return list.map((v) => ({ id: v.id, ...valueOf(v) }));
    },

    async population(input: { source: Record<string, unknown>; stratum?: Stratum }): Promise<Population> {
      const q = sourceOf(input.source);
      const counted = await (await store()).groupCounts(q, input.stratum ?? null, 200);
      return {
        total: counted.total,
        strata: counted.groups,
        strataCount: counted.groupCount,
        label: sourceLabel(q),
      };
    },

    async drawSample(input: DrawSampleInput): Promise<SampleSummary> {
      const cb = await codebook(input.codebook);
      for (const id of input.coders) await coder(id);
      if (new Set(input.coders).size !== input.coders.length) throw badInput('coders', 'A coder is listed twice.');
      if (input.method === 'stratified' && !input.stratum) throw badInput('stratum', 'Choose what to stratify by.');
      const q = sourceOf(input.source);
      const stratum = input.method === 'stratified' ? (input.stratum ?? null) : null;
      const project = await store();
      // the project counts and ranks in SQL: only the drawn items cross from its worker
      const drawn = await drawSample(
        {
          counts: async () => {
            const c = await project.groupCounts(q, stratum, Number.MAX_SAFE_INTEGER);
            return new Map(stratum === null ? [['', c.total]] : c.groups.map((g) => [g.value, g.count]));
          },
          lowest: (prefix, quotas) => project.lowestRanked(q, stratum, prefix, quotas),
        },
        { kind: q.kind, size: input.size, seed: input.seed, stratified: stratum !== null },
      );
      if (drawn.items.length === 0)
        throw new SkeinError('not-found', 'The source holds no items to draw from.', {
          action: 'Browse or hydrate some items into this project first, or change the search.',
        });
      const assignments = assign(drawn.items, input.coders, input.overlap, input.seed);
      const definition = {
        source: { ...input.source },
        sourceLabel: sourceLabel(q),
        kind: q.kind,
        method: input.method,
        stratum,
        size: drawn.items.length,
        seed: input.seed,
        population: drawn.population,
        strata: drawn.strata,
        overlap: input.overlap,
        coders: input.coders,
      };
      const id = await project.addSample(cb.id, input.name, definition, drawn.items, assignments);
      const [summary] = await project.samples(cb.id, compared(cb), id);
      return summary!;
    },

    samples,

    async queue(input: { sample: number; coder: number; offset: number; limit: number }): Promise<Queue> {
      const sample = await (await store()).sample(input.sample);
      if (!sample) throw notFound('This sample');
      const cb = await codebook(sample.codebook);
      const coding = await store();
      const page = await coding.assignments(input.sample, input.coder, input.offset, input.limit);
      const { coded: entries, otherKinds } = ofCodedKinds(page.entries);
      const { total } = page;
      const items = await coding.itemCards(entries.map((e) => ({ kind: e.kind, id: e.id })));
      // a reply is read with the post it answers, from the project too: coding spends no call
      const parentOf = (item: unknown): string | null => {
        const id = (item as { inReplyToId?: unknown } | null)?.inReplyToId;
        return typeof id === 'string' && /^\d{1,25}$/.test(id) ? id : null;
      };
      const parentIds = [
        ...new Set(items.flatMap((i) => (i.kind === 'post' && parentOf(i.item) ? [parentOf(i.item)!] : []))),
      ];
      const parents = new Map(
        (parentIds.length ? await coding.itemCards(parentIds.map((id) => ({ kind: 'post' as const, id }))) : [])
          .filter((p) => p.item !== null)
          .map((p) => [p.id, p.item]),
      );
      const values: Coding[] = [];
      for (const kind of ['post', 'user'] as const) {
        const ids = entries.filter((e) => e.kind === kind).map((e) => e.id);
        if (ids.length) values.push(...(await (await store()).valuesOf(cb.id, input.coder, kind, ids)));
      }
      const progress = (await samples(cb.id))
        .find((s) => s.id === input.sample)
        ?.progress.find((p) => p.coder === input.coder);
      return {
        entries: entries.map((e, i) => ({
          kind: e.kind,
          id: e.id,
          item: items[i]?.item ?? null,
          ...(items[i]?.damaged ? { damaged: true as const } : {}),
          position: e.position,
          parent: parents.get(parentOf(items[i]?.item ?? null) ?? '') ?? null,
          values: values.filter((v) => v.kind === e.kind && v.id === e.id).map(valueOf),
        })),
        total,
        done: progress?.done ?? 0,
        nextOffset: input.offset + page.entries.length < total ? input.offset + page.entries.length : null,
        ...leftOut(otherKinds),
      };
    },

    /** Agreement over a codebook's values (of a sample's items): for files; a coder's view asks through `agreement`. */
    agreementOf,

    async agreement(input: { codebook: number; sample?: number; viewer: number }): Promise<AgreementReport> {
      await revealed(input.viewer);
      return agreementOf(input.codebook, input.sample);
    },

    async disagreements(input: {
      codebook: number;
      sample?: number;
      viewer: number;
      field?: string;
      unresolvedOnly: boolean;
      offset: number;
      limit: number;
    }): Promise<{ items: Disagreement[]; total: number; nextOffset: number | null }> {
      await revealed(input.viewer);
      const cb = await codebook(input.codebook);
      const fields = compared(cb);
      const codings = await (await store()).codings(cb.id, input.sample ?? null);
      const adjudications = await (await store()).adjudications(cb.id, input.sample ?? null);
      const decided = new Map(adjudications.map((a) => [`${a.kind}:${a.id}:${a.field}`, a]));
      const cells = new Map<string, Coding[]>();
      for (const c of codings) {
        if (!fields.includes(c.field) || (input.field && c.field !== input.field)) continue;
        const k = `${c.kind}:${c.id}:${c.field}`;
        const list = cells.get(k) ?? [];
        list.push(c);
        cells.set(k, list);
      }
      const open = [...cells.entries()]
        .filter(([k, list]) => disagree(list) && (!input.unresolvedOnly || !decided.has(k)))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      const slice = open.slice(input.offset, input.offset + input.limit);
      const { coded: page, otherKinds } = ofCodedKinds(
        slice.map(([key, list]) => ({ key, list, kind: list[0]!.kind, id: list[0]!.id })),
      );
      const items = await (await store()).itemCards(page.map(({ kind, id }) => ({ kind, id })));
      return {
        items: page.map(({ key, list, kind, id }, i) => ({
          kind,
          id,
          item: items[i]?.item ?? null,
          ...(items[i]?.damaged ? { damaged: true as const } : {}),
          field: list[0]!.field,
          values: list.map(valueOf),
          adjudication: decided.get(key) ?? null,
        })),
        total: open.length,
        nextOffset: input.offset + slice.length < open.length ? input.offset + slice.length : null,
        ...leftOut(otherKinds),
      };
    },

    async adjudicate(input: {
      codebook: number;
      kind: CodedKind;
      id: string;
      field: string;
      value: CodeValue | null;
      decidedBy: string;
      note: string;
    }) {
      const cb = await codebook(input.codebook);
      const { version, definition } = currentVersion(cb);
      const field = fieldOf(definition, input.field);
      if (input.value === null) {
        await (await store()).clearAdjudication(cb.id, input.kind, input.id, field.key);
        return null;
      }
      const value = checked(field, input.value);
      const decided: Adjudication = {
        kind: input.kind,
        id: input.id,
        field: field.key,
        value,
        version,
        decidedAt: deps.now(),
        decidedBy: input.decidedBy,
        note: input.note,
      };
      await (await store()).adjudicate({ codebook: cb.id, ...decided, value });
      return decided;
    },

    optOuts: async (): Promise<OptOut[]> => (await store()).optOuts(),

    async optOut(account: string, note: string): Promise<OptOut[]> {
      const ref = accountRef(account);
      const known = await (await store()).accountOf(ref);
      return (await store()).addOptOut(known.userId, known.handle ?? ref.handle ?? null, note);
    },

    async optIn(account: string): Promise<OptOut[]> {
      const ref = accountRef(account);
      const known = await (await store()).accountOf(ref);
      return (await store()).removeOptOut({ userId: known.userId ?? ref.userId, handle: known.handle ?? ref.handle });
    },
  };
}

export type CodingService = ReturnType<typeof createCodingService>;

/** `@handle`, a handle, or a numeric id. */
function accountRef(account: string): { userId?: string; handle?: string } {
  const text = account.trim();
  if (/^\d{1,25}$/.test(text)) return { userId: text };
  const handle = text.replace(/^@/, '');
  if (!/^[A-Za-z0-9_]{1,50}$/.test(handle)) throw badInput('account', 'Give an @handle or a numeric account id.');
  return { handle };
}
