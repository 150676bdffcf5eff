/**
 * The files a coding project is written to, each where main's save dialog says (the page never names a path),
 * atomically: the annotation table, ReCal's CSV, a REFI-QDA project or codebook, a codebook CSV, the share
 * package. Opted-out accounts' items are left out of every one of them.
 */
import { basename, dirname, extname, join, resolve } from 'node:path';
import { isCompared, type CodedKind } from '../../shared/coding/codebook';
import type { Coding } from '../../shared/coding/records';
import { makeError, SkeinError } from '../../shared/errors';
import { ArchiveQuery } from '../../shared/ipc/archive';
import { REVIEW_MAX_ITEMS, type Citation, type SharedPackages } from '../../shared/ipc/coding';
import { writeFileAtomic } from '../files/atomic-file';
import type { ChooseSavePath } from '../ports';
import { readAccount, readPost } from './files/items';
import { qdcXml, writeQdpx, type QdaSource } from './files/refi-project';
import {
  damagedLeftOutSentence,
  keptIds,
  leftOutAs,
  leftOutCounts,
  shareRow,
  type LeftOut,
  type SharePackage,
  type ShareRow,
} from './files/share';
import { packOnThisThread, type SharePackager } from './files/packager';
import type { KnownAccount } from './files/pseudonym';
import { annotationTable, codebookCsv, recalFile } from './files/tables';
import { currentVersion, type CodingService } from './service';
import type { CodingStore } from './store';

export interface CodingExportDeps {
  service: CodingService;
  chooseSavePath: ChooseSavePath;
  now: () => number;
  app: { name: string; version: string };
  /** the current project's name, for file names and the QDA project */
  projectName: () => Promise<string>;
  /** the pseudonymisation key (never written anywhere), null when none is set */
  pseudonymKey: () => string | null;
  /** makes the share packages (in a worker of their own in the app); default: on this thread */
  pack?: SharePackager;
}

type Written = { file: string; items: number; note: string } | null;

const RAW_CHUNK = 500;

/**
 * The citation kept with the project, for the next package's form. A project this person may only read (a team's)
 * cannot keep it, and that must not keep them from sharing: the package is made and the note says so.
 */
async function keepCitation(project: CodingStore, citation: Citation): Promise<string> {
  try {
    await project.setMeta('citation', JSON.stringify(citation));
    return '';
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return ` The citation was not kept in the project for next time (${why.replace(/\.$/, '')}).`;
  }
}

/** `f`'s answer, asked for once however often it is wanted */
function once<T>(f: () => Promise<T>): () => Promise<T> {
  let answer: Promise<T> | undefined;
  return () => (answer ??= f());
}

/** what a share of a sample or of a collection asks for */
interface SharePackagesInput {
  review: boolean;
  rehydration: boolean;
  includeTexts: boolean;
  publicFigureFollowers?: number;
  citation: Citation;
}

function slug(text: string): string {
  return (
    text
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 50) || 'coding'
  );
}

const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').slice(0, 15) + 'Z';

/** A sibling of the chosen file: `x.csv` → `x.legend.csv`. */
function beside(target: string, suffix: string): string {
  const ext = extname(target);
  return join(dirname(target), `${basename(target, ext)}.${suffix}${ext || '.csv'}`);
}

/**
 * A collection's items as its packages need them, a chunk at a time: every id not of an opted-out account, and for
 * a review each one's row and the accounts it names (the raw JSON is read only when a review or an opt-out needs it).
 */
async function readCollection(project: CodingStore, collection: number, review: boolean, texts: boolean) {
  const optOuts = await project.optOuts();
  const rows: ShareRow[] = [];
  const accounts = new Map<string, KnownAccount>();
  const ids = { postIds: [] as string[], userIds: [] as string[], droppedOptedOut: 0, droppedDamaged: 0 };
  const needRaw = review || optOuts.length > 0;
  for (const kind of ['post', 'user'] as const) {
    const query = ArchiveQuery.parse({ kind, collection });
    for await (const chunk of project.grouped(query, null, RAW_CHUNK)) {
      // while anyone opted out, an item kept damaged cannot be told not to be theirs (without opt-outs it is shared
      // by its id alone)
      const kept = needRaw
        ? await project.keptItems(
            kind,
            chunk.map((r) => r.id),
            true,
          )
        : { held: [], damaged: [] };
      const rawOf = new Map(kept.held.map((h) => [h.id, h.raw]));
      const damaged = new Set(kept.damaged);
      for (const { id } of chunk) {
        let raw: unknown = null;
        let unreadable = damaged.has(id);
        const text = rawOf.get(id);
        if (text !== undefined)
          try {
            raw = JSON.parse(text) as unknown;
          } catch {
            unreadable = true;
          }
        const why = leftOutAs({ kind, raw, damaged: unreadable }, optOuts);
        if (why !== null) {
          if (why === 'damaged') ids.droppedDamaged++;
          else ids.droppedOptedOut++;
          continue;
        }
        (kind === 'post' ? ids.postIds : ids.userIds).push(id);
        if (!review) continue;
        const read = shareRow({ kind, id, raw, stratum: null });
        rows.push(texts ? read.row : { ...read.row, text: '' });
        for (const a of read.accounts) accounts.set(`${a.id}\u0000${a.handle}\u0000${a.name}`, a);
      }
    }
  }
  return { rows, accounts: [...accounts.values()], optOuts, ids };
}

export function createCodingExports(deps: CodingExportDeps) {
  const { store } = deps.service;
  const pack = deps.pack ?? packOnThisThread;

  /**
   * Raw items of these refs (the project's last received JSON), in chunks; and those it holds damaged (written as not
   * held, and, while anyone opted out, left out: whose they are cannot be told).
   */
  async function rawItems(
    refs: ReadonlyArray<{ kind: CodedKind; id: string }>,
  ): Promise<{ raw: Map<string, unknown>; damaged: Set<string> }> {
    const raw = new Map<string, unknown>();
    const damaged = new Set<string>();
    for (const kind of ['post', 'user'] as const) {
      const ids = [...new Set(refs.filter((r) => r.kind === kind).map((r) => r.id))];
      for (let i = 0; i < ids.length; i += RAW_CHUNK) {
        const slice = ids.slice(i, i + RAW_CHUNK);
        const kept = await (await store()).keptItems(kind, slice, true);
        for (const id of kept.damaged) damaged.add(`${kind}:${id}`);
        for (const item of kept.held) {
          try {
            raw.set(`${kind}:${item.id}`, JSON.parse(item.raw) as unknown);
          } catch {
            damaged.add(`${kind}:${item.id}`);
          }
        }
      }
    }
    return { raw, damaged };
  }

  /** why each of these refs stays out of what leaves the project (null: it goes out), and the counts */
  function leftOutOf(
    refs: ReadonlyArray<{ kind: CodedKind; id: string }>,
    items: { raw: Map<string, unknown>; damaged: Set<string> },
    optOuts: Parameters<typeof leftOutAs>[1],
  ): { out: Set<string>; left: LeftOut } {
    const why = new Map(
      refs.map((r) => {
        const key = `${r.kind}:${r.id}`;
        return [
          key,
          leftOutAs({ kind: r.kind, raw: items.raw.get(key) ?? null, damaged: items.damaged.has(key) }, optOuts),
        ] as const;
      }),
    );
    return {
      out: new Set([...why].flatMap(([key, w]) => (w === null ? [] : [key]))),
      left: leftOutCounts([...why.values()]),
    };
  }

  /** A scope's values, adjudications and coders, opted-out accounts' items left out. */
  async function scope(codebookId: number, sample: number | undefined) {
    const cb = await deps.service.codebook(codebookId);
    const [codings, adjudications, coders, optOuts] = await Promise.all([
      (await store()).codings(cb.id, sample ?? null),
      (await store()).adjudications(cb.id, sample ?? null),
      (await store()).coders(),
      (await store()).optOuts(),
    ]);
    const refs = [...codings, ...adjudications].map((c) => ({ kind: c.kind, id: c.id }));
    const items = await rawItems(refs);
    const { out: dropped, left } = leftOutOf(refs, items, optOuts);
    return {
      cb,
      ...currentVersion(cb),
      codings: codings.filter((c) => !dropped.has(`${c.kind}:${c.id}`)),
      adjudications: adjudications.filter((a) => !dropped.has(`${a.kind}:${a.id}`)),
      coders,
      optOuts,
      left,
    };
  }

  async function ask(title: string, name: string, ext: string, filter: string): Promise<string | null> {
    return deps.chooseSavePath({
      title,
      defaultPath: `${slug(await deps.projectName())}-${slug(name)}-${stamp(deps.now())}.${ext}`,
      filters: [{ name: filter, extensions: [ext] }],
    });
  }

  /** the files written in this session: the only ones the page may ask to show in a folder */
  const written = new Set<string>();
  const write = async (target: string, content: string | Uint8Array) => {
    await writeFileAtomic(target, async (sink) =>
      sink.write(typeof content === 'string' ? content : Buffer.from(content)),
    );
    written.add(resolve(target));
  };

  /** the pseudonymisation key a package for review needs; the choice of packages checked first */
  function keyFor(input: SharePackagesInput): string | null {
    if (!input.review && !input.rehydration)
      throw makeError('bad-input', 'Choose at least one package: for review, for re-hydration, or both.');
    const key = input.review ? deps.pseudonymKey() : null;
    if (input.review && key === null)
      throw makeError('bad-input', 'Pseudonymising needs a key: none is set.', {
        action: 'Set or generate the pseudonymisation key (Coding → Files), then make the package again.',
      });
    return key;
  }

  const publicFigures = (input: SharePackagesInput) =>
    input.publicFigureFollowers !== undefined ? { publicFigureFollowers: input.publicFigureFollowers } : {};

  /** asks where, then writes each package asked for, named for what it allows, side by side under that name */
  async function writePackages(
    input: SharePackagesInput,
    name: string,
    /** what became of the citation kept for next time, said after each package's own note ('' when kept) */
    kept: string,
    make: Record<'review' | 'rehydration', () => SharePackage | Promise<SharePackage>>,
  ): Promise<SharedPackages> {
    const both = input.review && input.rehydration;
    const chosen = await ask(
      both ? 'Save the share packages (one name for both)' : 'Save the share package',
      name,
      'zip',
      'Zip archive',
    );
    if (chosen === null) return null;
    const base = join(dirname(chosen), basename(chosen, extname(chosen)).replace(/\.for-(review|rehydration)$/, ''));
    const packages: NonNullable<SharedPackages>['packages'] = [];
    for (const kind of ['review', 'rehydration'] as const) {
      if (!input[kind]) continue;
      const pkg = await make[kind]();
      const file = `${base}.for-${kind}.zip`;
      await write(file, pkg.zip);
      const what =
        kind === 'review'
          ? `Pseudonymised (key ${pkg.keyFingerprint}), ${input.includeTexts ? 'with pseudonymised texts' : 'without texts'}: it cannot be re-hydrated.`
          : 'The platform’s real ids only: no text, no handle, no name, no code.';
      packages.push({
        kind,
        file,
        items: pkg.items,
        contents: pkg.files,
        note: `${what}${droppedNote(pkg)}${kept}`,
      });
    }
    return { packages };
  }

  const droppedNote = ({ droppedOptedOut, droppedDamaged }: LeftOut) =>
    `${droppedOptedOut > 0 ? ` ${droppedOptedOut} items of opted-out accounts were left out.` : ''}${droppedDamaged > 0 ? ` ${damagedLeftOutSentence(droppedDamaged)}` : ''}`;
  const itemsOf = (codings: readonly Coding[]) => new Set(codings.map((c) => `${c.kind}:${c.id}`)).size;

  return {
    async annotations(input: { codebook: number; sample?: number }): Promise<Written> {
      const s = await scope(input.codebook, input.sample);
      const target = await ask('Export the annotation table', `${s.cb.name}-annotations`, 'csv', 'CSV');
      if (target === null) return null;
      await write(target, annotationTable(s.codings, s.adjudications, s.coders));
      return {
        file: target,
        items: itemsOf(s.codings),
        note: `${s.codings.length} values and ${s.adjudications.length} adjudicated ones.${droppedNote(s.left)}`,
      };
    },

    async recal(input: { codebook: number; sample?: number; field: string }): Promise<Written> {
      const s = await scope(input.codebook, input.sample);
      const field = s.definition.fields.find((f) => f.key === input.field);
      if (!field || !isCompared(field))
        throw new SkeinError('bad-input', `“${input.field}” is not a category or ordinal field of this codebook.`, {
          fields: [{ field: 'field', message: 'not a compared field' }],
        });
      const file = recalFile(field, s.codings, s.coders);
      if (file.units === 0)
        throw new SkeinError('not-found', `No item of “${field.label}” was coded by every one of its coders.`, {
          action: 'ReCal takes complete rows only: code the double-coded items first.',
        });
      const target = await ask('Export for ReCal', `${s.cb.name}-${field.key}-recal`, 'csv', 'CSV');
      if (target === null) return null;
      await write(target, file.data);
      await write(beside(target, 'legend'), file.legend);
      return {
        file: target,
        items: file.units,
        note: `${file.units} items × ${file.coders} coders, no header (ReCal's form); ${basename(beside(target, 'legend'))} says which column is whom.${droppedNote(s.left)}`,
      };
    },

    async qdpx(input: { codebook: number; sample?: number }): Promise<Written> {
      const s = await scope(input.codebook, input.sample);
      const refs = new Map<string, { kind: CodedKind; id: string }>();
      if (input.sample !== undefined)
        for (const i of await (await store()).sampleItems(input.sample)) refs.set(`${i.kind}:${i.id}`, i);
      for (const c of [...s.codings, ...s.adjudications]) refs.set(`${c.kind}:${c.id}`, { kind: c.kind, id: c.id });
      const items = await rawItems([...refs.values()]);
      const { out, left } = leftOutOf([...refs.values()], items, s.optOuts);
      const sources: QdaSource[] = [];
      for (const [key, r] of refs) if (!out.has(key)) sources.push(sourceOf(r.kind, r.id, items.raw.get(key) ?? null));
      const target = await ask('Export a REFI-QDA project', s.cb.name, 'qdpx', 'REFI-QDA project');
      if (target === null) return null;
      const coders = s.coders.filter((c) => s.codings.some((x) => x.coder === c.id));
      await write(
        target,
        writeQdpx({
          projectName: await deps.projectName(),
          app: deps.app,
          now: deps.now(),
          codebook: { id: s.cb.id, name: s.cb.name, version: s.version, definition: s.definition },
          coders,
          sources,
          codings: s.codings,
          adjudications: s.adjudications,
        }),
      );
      return {
        file: target,
        items: sources.length,
        note: `${sources.length} sources, ${coders.length} coders, ${s.codings.length} values. QualCoder: Project → Import → REFI-QDA project.${droppedNote(left)}`,
      };
    },

    async codebook(input: { codebook: number; format: 'qdc' | 'csv' }): Promise<Written> {
      const cb = await deps.service.codebook(input.codebook);
      const { version, definition } = currentVersion(cb);
      const target = await ask(
        'Export the codebook',
        `${cb.name}-v${version}`,
        input.format,
        input.format === 'qdc' ? 'REFI-QDA codebook' : 'CSV',
      );
      if (target === null) return null;
      await write(
        target,
        input.format === 'qdc'
          ? qdcXml({ id: cb.id, name: cb.name, version, definition }, `${deps.app.name} ${deps.app.version}`)
          : codebookCsv(definition),
      );
      return {
        file: target,
        items: definition.fields.length,
        note: `${definition.fields.length} fields, version ${version}.`,
      };
    },

    async share(input: SharePackagesInput & { codebook: number; sample: number }): Promise<SharedPackages> {
      const key = keyFor(input);
      const s = await scope(input.codebook, input.sample);
      const sample = (await deps.service.samples(s.cb.id)).find((x) => x.id === input.sample);
      if (!sample) throw new SkeinError('not-found', 'This sample is not in this project.');
      const { definition } = sample;
      if (!definition)
        throw new SkeinError(
          'unreadable',
          `This Skein cannot read how the sample “${sample.name}” was drawn (a newer Skein may have drawn it), which its packages must say. Its values export as usual.`,
        );
      const drawn = { ...sample, definition };
      const items = await (await store()).sampleItems(input.sample);
      const { raw, damaged } = await rawItems(items);
      const shareItems = items.map((i) => ({
        kind: i.kind,
        id: i.id,
        raw: raw.get(`${i.kind}:${i.id}`) ?? null,
        ...(damaged.has(`${i.kind}:${i.id}`) ? { damaged: true } : {}),
        stratum: i.stratum,
      }));
      const kept = await keepCitation(await store(), input.citation);
      const coders = s.coders.filter(
        (c) => definition.coders.includes(c.id) || s.codings.some((x) => x.coder === c.id),
      );
      const common = { app: deps.app, now: deps.now(), citation: input.citation };
      return writePackages(input, drawn.name, kept, {
        review: async () =>
          pack.review({
            ...common,
            codebook: { id: s.cb.id, name: s.cb.name, version: s.version, definition: s.definition },
            sample: drawn,
            coders,
            items: shareItems,
            codings: s.codings,
            adjudications: s.adjudications,
            agreement: await deps.service.agreementOf(s.cb.id, input.sample),
            optOuts: s.optOuts,
            includeTexts: input.includeTexts,
            ...publicFigures(input),
            key: key!,
          }),
        rehydration: async () =>
          pack.rehydration({
            ...common,
            source: { of: 'sample', sample: drawn, codebook: { name: s.cb.name, version: s.version } },
            ...keptIds(shareItems, s.optOuts),
          }),
      });
    },

    /**
     * The same packages of a collection of the project, without codes: no codebook or sample needed. Read a chunk
     * at a time, keeping only what a package says of each item; a package for review has a bound (its
     * pseudonymiser looks for every account's name in every text), one for re-hydration none.
     */
    async shareCollection(input: SharePackagesInput & { collection: number }): Promise<SharedPackages> {
      const key = keyFor(input);
      const project = await store();
      const collection = (await project.collections()).find((c) => c.id === input.collection);
      if (!collection) throw new SkeinError('not-found', 'This collection is no longer in the project.');
      if (input.review && collection.items > REVIEW_MAX_ITEMS)
        throw makeError(
          'bad-input',
          `A package for review holds at most ${REVIEW_MAX_ITEMS.toLocaleString('en-US')} items, and “${collection.name}” has ${collection.items.toLocaleString('en-US')}: pseudonymising looks for every account’s name in every text, and a bigger one would outgrow the memory Skein gives it.`,
          {
            action:
              'Draw a sample of the collection (Coding, Samples) and share that, or make only the package for re-hydration (any size).',
          },
        );
      const kept = await keepCitation(project, input.citation);
      const common = { app: deps.app, now: deps.now(), citation: input.citation };
      const source = { name: collection.name, kind: collection.kind, createdAt: collection.createdAt };
      // read once the dialog has answered (a big collection takes a while), for whichever packages are asked
      const read = once(() => readCollection(project, input.collection, input.review, input.includeTexts));
      return writePackages(input, collection.name, kept, {
        review: async () => {
          const { rows, accounts, optOuts, ids } = await read();
          return pack.collectionReview({
            ...common,
            collection: source,
            rows,
            accounts,
            optOuts,
            droppedOptedOut: ids.droppedOptedOut,
            droppedDamaged: ids.droppedDamaged,
            includeTexts: input.includeTexts,
            ...publicFigures(input),
            key: key!,
          });
        },
        rehydration: async () =>
          pack.rehydration({
            ...common,
            source: { of: 'collection', collection: source },
            ...(await read()).ids,
          }),
      });
    },

    /** whether Skein wrote this file in this session (only those are shown in a folder) */
    wrote: (file: string) => written.has(resolve(file)),

    async citation(): Promise<Citation | null> {
      const text = await (await store()).meta('citation');
      if (text === null) return null;
      try {
        return JSON.parse(text) as Citation;
      } catch {
        return null;
      }
    },
  };
}

/** A coded item as a QDA source: its text, a name, and where it came from. */
function sourceOf(kind: CodedKind, id: string, raw: unknown): QdaSource {
  if (raw === null)
    return { kind, id, text: '(not in this project)', label: `${kind} ${id}`, description: '', createdAt: null };
  if (kind === 'user') {
    const a = readAccount(raw);
    const text = [`@${a.handle ?? id}${a.name ? ` — ${a.name}` : ''}`, a.bio ?? ''].filter(Boolean).join('\n\n');
    return {
      kind,
      id,
      text,
      label: `account @${a.handle ?? id}`,
      description: `https://x.com/${a.handle ?? `i/user/${id}`}`,
      createdAt: null,
    };
  }
  const p = readPost(raw);
  const handle = p.author?.handle ?? null;
  const created = p.createdAt ? Date.parse(p.createdAt) : NaN;
  return {
    kind,
    id,
    text: p.text,
    label: `post ${id}${handle ? ` by @${handle}` : ''}`,
    description: `https://x.com/${handle ?? 'i/web'}/status/${id}${p.createdAt ? `\n${p.createdAt}` : ''}`,
    createdAt: Number.isFinite(created) ? created : null,
  };
}

export type CodingExports = ReturnType<typeof createCodingExports>;
