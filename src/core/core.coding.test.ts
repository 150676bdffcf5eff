/**
 * The coding workbench wired into the core, through the bridge's handlers over the demo project:
 * a codebook, a stratified sample drawn from what was browsed, two coders with 20 % overlap, blind until they
 * choose, agreement equal to a computation written here from its definition; a `.qdpx` and a `.qdc` that come
 * back whole; a pseudonymised share package in which no original id, handle or name of the sample is found,
 * with the same pseudonyms for the same key, others for another, and the key in no file; opted-out accounts
 * left out of every export; codes as extra columns of the Archive view's export.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '.';
import { createDispatcher } from './bridge/dispatch';
import type { Sandbox } from '../sandbox';
import { billionLaughs } from './coding/testing/hostile-files';
import { testCoreDeps } from './testing/core-deps';

const dirs: string[] = [];
const sandboxes: Sandbox[] = [];
const ctx = { senderId: 1 };

let core: Core;
let dir: string;
const saves: string[] = [];
const logged: string[] = [];

async function call<T = Record<string, unknown>>(channel: string, input?: unknown): Promise<T> {
  const res = await createDispatcher(core.handlers).dispatch(`skein:${channel}`, input, ctx);
  if (!res.ok) throw new Error(`${channel}: ${res.error.code}: ${res.error.message}`);
  return res.data as T;
}

async function failure(channel: string, input?: unknown): Promise<string> {
  const res = await createDispatcher(core.handlers).dispatch(`skein:${channel}`, input, ctx);
  if (res.ok) throw new Error(`${channel} should have failed`);
  return res.error.code;
}

/** The next save dialog answers this file (in the test's folder). */
function saveAs(name: string): string {
  const path = join(dir, name);
  saves.push(path);
  return path;
}

async function upload(kind: 'qdpx' | 'qdc' | 'codebook-csv', file: string, codebook?: number) {
  const bytes = readFileSync(file);
  const { upload: id } = await call<{ upload: string }>('coding.uploadBegin', {
    kind,
    name: file.split('/').pop(),
    size: bytes.length,
  });
  for (let i = 0; i < bytes.length; i += 300_000)
    await call('coding.uploadAppend', { upload: id, base64: bytes.subarray(i, i + 300_000).toString('base64') });
  return call<Record<string, unknown>>('coding.uploadFinish', { upload: id, ...(codebook ? { codebook } : {}) });
}

const definition = {
  fields: [
    {
      key: 'stance',
      label: 'Stance',
      type: 'category',
      categories: [
        { value: 'support', label: 'Supports', examples: ['see the thread'] },
        { value: 'oppose', label: 'Opposes' },
        { value: 'neutral', label: 'Neither' },
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
};

/** A coder's deterministic choice: the two coders agree on most items, not all. */
function stanceOf(id: string, coder: 'ana' | 'ben'): string {
  const n = Number(id.slice(-3));
  const base = ['support', 'oppose', 'neutral'][n % 3]!;
  if (coder === 'ben' && n % 4 === 0) return base === 'support' ? 'oppose' : 'support';
  return base;
}

/** Krippendorff's nominal α from its definition, by brute force over pairs of values (no coincidence matrix). */
function referenceAlpha(units: string[][]): number {
  const pairable = units.filter((u) => u.length >= 2);
  let observed = 0;
  let n = 0;
  const all: string[] = [];
  for (const u of pairable) {
    n += u.length;
    all.push(...u);
    let d = 0;
    for (let i = 0; i < u.length; i++) for (let j = 0; j < u.length; j++) if (i !== j && u[i] !== u[j]) d++;
    observed += d / (u.length - 1);
  }
  let expected = 0;
  for (let i = 0; i < all.length; i++)
    for (let j = 0; j < all.length; j++) if (i !== j && all[i] !== all[j]) expected++;
  return 1 - ((n - 1) * observed) / expected;
}

function referenceCohen(pairs: Array<[string, string]>): number {
  const n = pairs.length;
  const po = pairs.filter(([a, b]) => a === b).length / n;
  const values = new Set(pairs.flat());
  let pe = 0;
  for (const v of values)
    pe += (pairs.filter(([a]) => a === v).length / n) * (pairs.filter(([, b]) => b === v).length / n);
  return (po - pe) / (1 - pe);
}

let codebookId: number;
let ana: number;
let ben: number;
let sampleId: number;
let sampleItems: Array<{ id: string }> = [];
const identities = { ids: new Set<string>(), handles: new Set<string>(), names: new Set<string>() };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'skein-core-coding-'));
  dirs.push(dir);
  core = createCore(
    testCoreDeps(dir, sandboxes, {
      chooseSavePath: async () => saves.shift() ?? null,
      // a keyring that encrypts in memory: the keys are never in a file in clear
      secretStorage: {
        isEncryptionAvailable: async () => true,
        backend: () => 'gnome_libsecret',
        encryptString: async (plain) => new Uint8Array(Buffer.from(plain).map((b) => b ^ 0x5a)),
        decryptString: async (bytes) =>
          Buffer.from(bytes)
            .map((b) => b ^ 0x5a)
            .toString(),
      },
      log: { error: (m, e) => logged.push(`${m} ${String(e)}`), warn: (m) => logged.push(m) },
    }),
  );
  // browse: the demo's big thread, page after page, until the demo project holds enough posts
  const examples = await call<{ bigThreadPostId: string }>('demo.examples');
  let cursor: string | null = null;
  for (let page = 0; page < 12; page++) {
    const answer: { paging: { nextCursor: string | null } | null } = await call('api.call', {
      operation: 'postRepliesV2',
      params: { tweetId: examples.bigThreadPostId, ...(cursor ? { cursor } : {}) },
      callId: `p${page}`,
    });
    cursor = answer.paging?.nextCursor ?? null;
    if (!cursor) break;
  }
}, 120_000);

afterAll(async () => {
  await core?.dispose();
  for (const s of sandboxes) await s.close();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

describe('the coding workbench in the core', () => {
  it('keeps a codebook, two coders, and a stratified sample of 100 with 20 % double-coded', async () => {
    const cb = await call<{
      id: number;
      version: number;
      versions: Array<{ definition: { fields: Array<{ categories: Array<{ key?: string }> }> } }>;
    }>('coding.saveCodebook', { name: 'Stance', definition });
    codebookId = cb.id;
    expect(cb.version).toBe(1);
    // every category got a key to code it with
    expect(cb.versions[0]!.definition.fields[0]!.categories.map((c) => c.key)).toEqual(['1', '2', '3']);
    ana = (await call<{ id: number }>('coding.addCoder', { name: 'Ana', kind: 'person' })).id;
    ben = (await call<{ id: number }>('coding.addCoder', { name: 'Ben', kind: 'person' })).id;
    expect(await failure('coding.addCoder', { name: 'ana', kind: 'person' })).toBe('bad-input');

    const population = await call<{ total: number; strata: Array<{ count: number }> }>('coding.population', {
      source: { kind: 'post' },
      stratum: 'day',
    });
    expect(population.total).toBeGreaterThanOrEqual(100);
    const sample = await call<{
      id: number;
      items: number;
      definition: { strata: Array<{ drawn: number; population: number }>; population: number };
      progress: Array<{ coder: number; assigned: number }>;
    }>('coding.drawSample', {
      codebook: codebookId,
      name: 'Pilot',
      source: { kind: 'post' },
      size: 100,
      seed: 'pilot-1',
      method: 'stratified',
      stratum: 'day',
      coders: [ana, ben],
      overlap: 0.2,
    });
    sampleId = sample.id;
    expect(sample.items).toBe(100);
    expect(sample.definition.strata.reduce((s, x) => s + x.drawn, 0)).toBe(100);
    expect(sample.progress).toEqual([
      { coder: ana, assigned: 60, done: 0 },
      { coder: ben, assigned: 60, done: 0 },
    ]);
  });

  it('remembers who codes at this computer, and records every switch in the project', async () => {
    expect(await call('coding.coderHere')).toEqual({ coder: null, switches: [] });
    await call('coding.setCoderHere', { coder: ana });
    // the same person again is no switch
    await call('coding.setCoderHere', { coder: ana });
    const here = await call<{ coder: number; switches: Array<{ from: number | null; to: number }> }>(
      'coding.setCoderHere',
      { coder: ben },
    );
    expect(here.coder).toBe(ben);
    expect(here.switches.map((x) => [x.from, x.to])).toEqual([
      [ana, ben],
      [null, ana],
    ]);
    expect((await call<{ coder: number }>('coding.coderHere')).coder).toBe(ben);
    // only a person the project has codes at a computer
    expect(await failure('coding.setCoderHere', { coder: 9999 })).toBe('bad-input');
  });

  it('codes blind: each coder sees only their values, agreement only once they choose to see it', async () => {
    for (const [coder, who] of [
      [ana, 'ana'],
      [ben, 'ben'],
    ] as const) {
      const queue = await call<{
        entries: Array<{ id: string; kind: string; item: unknown; values: unknown[] }>;
        total: number;
      }>('coding.queue', {
        sample: sampleId,
        coder,
        limit: 100,
      });
      expect(queue.total).toBe(60);
      for (const e of queue.entries) {
        expect(e.item).not.toBeNull();
        expect(e.values).toEqual([]);
        await call('coding.code', {
          codebook: codebookId,
          coder,
          kind: 'post',
          id: e.id,
          field: 'stance',
          value: stanceOf(e.id, who),
        });
        await call('coding.code', {
          codebook: codebookId,
          coder,
          kind: 'post',
          id: e.id,
          field: 'tone',
          value: String((Number(e.id.slice(-2)) % 3) + 1),
        });
      }
    }
    const benQueue = await call<{ entries: Array<{ values: Array<{ coder: number }> }>; done: number }>(
      'coding.queue',
      { sample: sampleId, coder: ben, limit: 100 },
    );
    expect(benQueue.done).toBe(60);
    expect(benQueue.entries.flatMap((e) => e.values).every((v) => v.coder === ben)).toBe(true);
    // a value that does not fit the field is refused; so is a blind coder's look at agreement
    expect(
      await failure('coding.code', {
        codebook: codebookId,
        coder: ana,
        kind: 'post',
        id: '1',
        field: 'stance',
        value: 'maybe',
      }),
    ).toBe('bad-input');
    expect(await failure('coding.agreement', { codebook: codebookId, sample: sampleId, viewer: ana })).toBe(
      'forbidden',
    );
  });

  it('computes α and κ equal to a computation from their definitions', async () => {
    await call('coding.reveal', { coder: ana });
    const report = await call<{
      rows: Array<{
        field: string;
        units: number;
        coders: number;
        alpha: { nominal?: number | null; ordinal?: number | null };
        cohenKappa: number | null;
        interval: unknown;
      }>;
    }>('coding.agreement', {
      codebook: codebookId,
      sample: sampleId,
      viewer: ana,
    });
    const stance = report.rows.find((r) => r.field === 'stance')!;
    expect(stance.units).toBe(20);
    expect(stance.coders).toBe(2);
    const values = await call<Array<{ id: string; value: string }>>('coding.values', {
      codebook: codebookId,
      coder: ana,
      kind: 'post',
      ids: (
        await call<{ entries: Array<{ id: string }> }>('coding.queue', { sample: sampleId, coder: ana, limit: 100 })
      ).entries.map((e) => e.id),
    });
    const benValues = await call<Array<{ id: string; field: string; value: string }>>('coding.values', {
      codebook: codebookId,
      coder: ben,
      kind: 'post',
      ids: values.map((v) => v.id),
    });
    const pairs: Array<[string, string]> = [];
    for (const a of values.filter((v) => (v as unknown as { field: string }).field === 'stance')) {
      const b = benValues.find((x) => x.id === a.id && x.field === 'stance');
      if (b) pairs.push([a.value, b.value]);
    }
    expect(pairs).toHaveLength(20);
    expect(stance.alpha.nominal).toBeCloseTo(referenceAlpha(pairs), 10);
    expect(stance.cohenKappa).toBeCloseTo(referenceCohen(pairs), 10);
    expect(stance.interval).not.toBeNull();
    expect(report.rows.find((r) => r.field === 'tone')!.alpha.ordinal).toBe(1);
    expect(report.rows.some((r) => r.field === 'memo')).toBe(false);
  });

  it('reconciles: disagreements side by side, the decided value kept apart', async () => {
    const open = await call<{
      items: Array<{ id: string; field: string; values: Array<{ coder: number; value: string }> }>;
      total: number;
    }>('coding.disagreements', {
      codebook: codebookId,
      sample: sampleId,
      viewer: ana,
      unresolvedOnly: true,
    });
    expect(open.total).toBeGreaterThan(0);
    const first = open.items[0]!;
    expect(first.values.map((v) => v.coder).sort()).toEqual([ana, ben].sort());
    await call('coding.adjudicate', {
      codebook: codebookId,
      kind: 'post',
      id: first.id,
      field: first.field,
      value: first.values[0]!.value,
      decidedBy: 'Ana',
    });
    const after = await call<{ total: number }>('coding.disagreements', {
      codebook: codebookId,
      sample: sampleId,
      viewer: ana,
      unresolvedOnly: true,
    });
    expect(after.total).toBe(open.total - 1);
    // the coders' own values are untouched
    const still = await call<{ total: number }>('coding.disagreements', {
      codebook: codebookId,
      sample: sampleId,
      viewer: ana,
    });
    expect(still.total).toBe(open.total);
  });

  it('versions the codebook once values were made under it', async () => {
    const changed = {
      ...definition,
      fields: [
        ...definition.fields,
        {
          key: 'irony',
          label: 'Irony',
          type: 'category',
          categories: [
            { value: 'yes', label: 'Yes' },
            { value: 'no', label: 'No' },
          ],
        },
      ],
    };
    const cb = await call<{ version: number; versions: unknown[] }>('coding.saveCodebook', {
      id: codebookId,
      name: 'Stance',
      definition: changed,
      note: 'irony added',
    });
    expect(cb.version).toBe(2);
    expect(cb.versions).toHaveLength(2);
  });

  it('writes a .qdpx and a .qdc that come back whole', async () => {
    const qdpx = saveAs('pilot.qdpx');
    const written = await call<{ file: string; items: number }>('coding.exportQdpx', {
      codebook: codebookId,
      sample: sampleId,
    });
    expect(written.file).toBe(qdpx);
    expect(written.items).toBe(100);
    const imported = await upload('qdpx', qdpx);
    expect(imported).toMatchObject({ codings: 240, adjudications: 1, coders: 0, itemsNotHeld: 0 });
    const original = await call<Array<{ id: string; field: string; coder: number; value: unknown }>>('coding.values', {
      codebook: codebookId,
      coder: ana,
      kind: 'post',
      ids: (
        await call<{ entries: Array<{ id: string }> }>('coding.queue', { sample: sampleId, coder: ana, limit: 100 })
      ).entries.map((e) => e.id),
    });
    const back = await call<Array<{ id: string; field: string; coder: number; value: unknown }>>('coding.values', {
      codebook: imported.codebook,
      coder: ana,
      kind: 'post',
      ids: original.map((v) => v.id),
    });
    const key = (v: { id: string; field: string; value: unknown }) => `${v.id}|${v.field}|${JSON.stringify(v.value)}`;
    expect(back.map(key).sort()).toEqual(original.map(key).sort());

    const qdc = saveAs('stance.qdc');
    await call('coding.exportCodebook', { codebook: codebookId, format: 'qdc' });
    const fromQdc = await upload('qdc', qdc);
    const a = await call<{ versions: Array<{ definition: unknown }> }>('coding.codebook', { id: codebookId });
    const b = await call<{ versions: Array<{ definition: unknown }> }>('coding.codebook', {
      id: fromQdc.codebook as number,
    });
    expect(b.versions.at(-1)!.definition).toEqual(a.versions.at(-1)!.definition);
  });

  it(
    'refuses a zip bomb and an entity bomb with the reason, imports nothing, and goes on',
    { timeout: 60_000 },
    async () => {
      const before = (await call<unknown[]>('coding.codebooks')).length;
      const bomb = join(dir, 'bomb.qdpx');
      writeFileSync(bomb, zipSync({ 'project.qde': new Uint8Array(100 * 1024 * 1024) }, { level: 1 }));
      await expect(upload('qdpx', bomb)).rejects.toThrow(
        /bad-input: Skein cannot read bomb\.qdpx: its project\.qde would expand to 100 MB/,
      );
      const laughs = (root: string) => billionLaughs(root.replace('NAME', 'Stance &lol9;'));
      const book = `<CodeBook><Codes><Code guid="5f0c2a7e-0000-4000-8000-000000000001" name="NAME" isCodable="true"/></Codes></CodeBook>`;
      writeFileSync(join(dir, 'lol.qdc'), laughs(book));
      writeFileSync(
        join(dir, 'lol.qdpx'),
        zipSync({ 'project.qde': strToU8(laughs(`<Project name="p">${book}</Project>`)) }),
      );
      await expect(upload('qdc', join(dir, 'lol.qdc'))).rejects.toThrow(/declares a document type or entities/);
      await expect(upload('qdpx', join(dir, 'lol.qdpx'))).rejects.toThrow(/declares a document type or entities/);
      expect(await call<unknown[]>('coding.codebooks')).toHaveLength(before);
      // and the workbench still reads a good file
      const qdc = saveAs('again.qdc');
      await call('coding.exportCodebook', { codebook: codebookId, format: 'qdc' });
      expect(await upload('qdc', qdc)).toMatchObject({ codebookName: expect.any(String) });
    },
  );

  it('makes a pseudonymised package: no original id, handle or name; same key same pseudonyms; key in no file', async () => {
    const citation = {
      title: 'Pilot coding',
      authors: [{ givenNames: 'Ana', familyNames: 'Example', orcid: '0000-0002-1825-0097' }],
      keywords: ['stance'],
    };
    expect(await failure('coding.sharePackage', { codebook: codebookId, sample: sampleId, citation })).toBe(
      'bad-input',
    );
    const keyA = 'team-key-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const keyB = 'team-key-BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';
    const status = await call<{ status: { configured: boolean }; fingerprint: string }>('coding.setPseudonymKey', {
      key: keyA,
    });
    expect(status.status.configured).toBe(true);
    expect(JSON.stringify(status)).not.toContain(keyA);

    const unzipped = async (name: string) => {
      saveAs(name);
      const written = await call<{ packages: Array<{ kind: string; file: string }> }>('coding.sharePackage', {
        codebook: codebookId,
        sample: sampleId,
        includeTexts: true,
        citation,
      });
      // the package is named for what it allows, beside the name the dialog gave
      const file = join(dir, name.replace(/\.zip$/, '.for-review.zip'));
      expect(written.packages).toEqual([expect.objectContaining({ kind: 'review', file })]);
      const files = unzipSync(readFileSync(file));
      return Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strFromU8(v)]));
    };
    const one = await unzipped('share-1.zip');
    const two = await unzipped('share-2.zip');
    await call('coding.setPseudonymKey', { key: keyB });
    const three = await unzipped('share-3.zip');

    expect(Object.keys(one).sort()).toEqual(
      [
        'README.txt',
        'manifest.json',
        'items.csv',
        'annotations.csv',
        'codes.csv',
        'codebook.qdc',
        'codebook.csv',
        'agreement.csv',
        'agreement.md',
        'CITATION.cff',
        'datacite.json',
      ].sort(),
    );
    // every id, handle and name of the sample's posts and of the accounts they name
    const queue = await call<{
      entries: Array<{
        id: string;
        item: {
          author: { id: string; userName: string; name: string };
          entities?: { user_mentions?: Array<{ screen_name: string }> };
        };
      }>;
    }>('coding.queue', { sample: sampleId, coder: ana, limit: 100 });
    const benQueue = await call<typeof queue>('coding.queue', { sample: sampleId, coder: ben, limit: 100 });
    for (const e of [...queue.entries, ...benQueue.entries]) {
      identities.ids.add(e.id);
      identities.ids.add(e.item.author.id);
      identities.handles.add(e.item.author.userName);
      identities.names.add(e.item.author.name);
      for (const m of e.item.entities?.user_mentions ?? []) identities.handles.add(m.screen_name);
    }
    sampleItems = queue.entries;
    expect(identities.ids.size).toBeGreaterThan(100);
    for (const [name, content] of Object.entries(one)) {
      for (const id of identities.ids) expect(content.includes(id), `${name} holds the id ${id}`).toBe(false);
      for (const h of identities.handles) expect(content.includes(h), `${name} holds the handle ${h}`).toBe(false);
      for (const n of identities.names) expect(content.includes(n), `${name} holds the name ${n}`).toBe(false);
      expect(content.includes(keyA)).toBe(false);
    }
    expect(one['items.csv']).toBe(two['items.csv']);
    expect(one['annotations.csv']).toBe(two['annotations.csv']);
    expect(three['items.csv']).not.toBe(one['items.csv']);
    expect(one['CITATION.cff']).toContain('orcid: "https://orcid.org/0000-0002-1825-0097"');
    expect(JSON.parse(one['datacite.json']!)).toMatchObject({
      titles: [{ title: 'Pilot coding' }],
      types: { resourceTypeGeneral: 'Dataset' },
    });
    // the key is in no file Skein wrote, and in no log line
    for (const file of readdirSync(dir, { recursive: true }) as string[]) {
      const path = join(dir, file);
      if (!existsSync(path) || !file.includes('.')) continue;
      let content: string;
      try {
        content = readFileSync(path).toString('latin1');
      } catch {
        continue;
      }
      expect(content.includes(keyA), `${file} holds the key`).toBe(false);
      expect(content.includes(keyB), `${file} holds the key`).toBe(false);
    }
    expect(logged.join('\n')).not.toContain(keyA);
  });

  it('makes both packages at once, each named for what it allows; shows only a file it wrote', async () => {
    const citation = { title: 'Pilot coding', authors: [{ familyNames: 'Example', givenNames: 'Ana' }] };
    saveAs('both.zip');
    const written = await call<{ packages: Array<{ kind: string; file: string; contents: string[] }> }>(
      'coding.sharePackage',
      { codebook: codebookId, sample: sampleId, review: true, rehydration: true, citation },
    );
    expect(written.packages.map((p) => [p.kind, p.file])).toEqual([
      ['review', join(dir, 'both.for-review.zip')],
      ['rehydration', join(dir, 'both.for-rehydration.zip')],
    ]);
    const files = unzipSync(readFileSync(join(dir, 'both.for-rehydration.zip')));
    const ids = strFromU8(files['post_ids.txt']!).trim().split('\n');
    const queue = await call<{ entries: Array<{ id: string }> }>('coding.queue', {
      sample: sampleId,
      coder: ana,
      limit: 100,
    });
    // the real ids, the sample's own
    expect(ids.length).toBeGreaterThan(0);
    for (const e of queue.entries) expect(ids).toContain(e.id);
    for (const [name, bytes] of Object.entries(files))
      for (const h of identities.handles) expect(strFromU8(bytes).includes(h), `${name} holds ${h}`).toBe(false);

    // a file Skein wrote is shown (here, with no file manager, said where it is); any other path is refused
    expect(await call('coding.showInFolder', { file: written.packages[1]!.file })).toMatchObject({ shown: false });
    expect(await failure('coding.showInFolder', { file: join(dir, 'elsewhere.zip') })).toBe('forbidden');
  });

  it('shares a collection with no codebook or sample: its real ids for re-hydration, pseudonyms for review', async () => {
    // what a researcher has before any coding: a collection of the project (a saved search here)
    const collection = await call<{ id: number; name: string; items: number }>('archive.saveSearch', {
      project: 'demo',
      kind: 'post',
      name: 'Everything so far',
    });
    expect(collection.items).toBeGreaterThan(50);
    const hits: Array<{ id: string; item: { author: { id: string; userName: string; name: string } } }> = [];
    for (let offset: number | null = 0; offset !== null;) {
      const page: { hits: typeof hits; nextOffset: number | null } = await call('archive.search', {
        project: 'demo',
        collection: collection.id,
        offset,
        limit: 200,
      });
      hits.push(...page.hits);
      offset = page.nextOffset;
    }
    expect(hits).toHaveLength(collection.items);
    // an account that opted out is left out of both
    const out = hits[0]!.item.author;
    await call('coding.optOut', { account: `@${out.userName}`, note: 'asked by email' });
    const theirs = new Set(hits.filter((h) => h.item.author.id === out.id).map((h) => h.id));
    const citation = { title: 'Everything so far', authors: [{ familyNames: 'Example', givenNames: 'Ana' }] };
    saveAs('collection.zip');
    const written = await call<{ packages: Array<{ kind: string; file: string; items: number; note: string }> }>(
      'coding.shareCollection',
      { collection: collection.id, review: true, rehydration: true, includeTexts: true, citation },
    );
    expect(written.packages.map((p) => [p.kind, p.file])).toEqual([
      ['review', join(dir, 'collection.for-review.zip')],
      ['rehydration', join(dir, 'collection.for-rehydration.zip')],
    ]);
    expect(written.packages[1]!.note).toContain(`${theirs.size} items of opted-out accounts were left out`);

    const rehydration = unzipSync(readFileSync(join(dir, 'collection.for-rehydration.zip')));
    const ids = strFromU8(rehydration['post_ids.txt']!).trim().split('\n');
    expect(ids.sort()).toEqual(
      hits
        .map((h) => h.id)
        .filter((id) => !theirs.has(id))
        .sort(),
    );
    expect(Object.keys(rehydration)).toEqual(expect.arrayContaining(['CITATION.cff', 'datacite.json', 'README.txt']));

    const review = Object.fromEntries(
      Object.entries(unzipSync(readFileSync(join(dir, 'collection.for-review.zip')))).map(([k, v]) => [
        k,
        strFromU8(v),
      ]),
    );
    expect(review['items.csv']!.trim().split('\n')).toHaveLength(ids.length + 1);
    for (const [name, content] of Object.entries(review))
      for (const h of hits.slice(0, 40)) {
        expect(content.includes(h.id), `${name} holds the id ${h.id}`).toBe(false);
        expect(content.includes(h.item.author.userName), `${name} holds @${h.item.author.userName}`).toBe(false);
      }
    // the citation is kept with the project, for the next package
    expect(await call('coding.citation')).toMatchObject({ title: 'Everything so far' });
    await call('coding.optIn', { account: out.id });
  });

  it('leaves an opted-out account out of every export, and writes codes as extra columns', async () => {
    const author = (sampleItems[0] as unknown as { item: { author: { userName: string; id: string } } }).item.author;
    await call('coding.optOut', { account: `@${author.userName}`, note: 'asked by email' });
    const outs = await call<Array<{ userId: string | null; handle: string | null }>>('coding.optOuts');
    expect(outs).toEqual([expect.objectContaining({ userId: author.id, handle: author.userName })]);

    saveAs('annotations.csv');
    await call('coding.exportAnnotations', { codebook: codebookId, sample: sampleId });
    const annotations = readFileSync(join(dir, 'annotations.csv'), 'utf8');
    expect(annotations.split('\n')[0]).toBe('item_id,item_kind,field,value,coder,coder_kind,coded_at,codebook_version');
    const theirs = sampleItems
      .filter((e) => (e as unknown as { item: { author: { id: string } } }).item.author.id === author.id)
      .map((e) => e.id);
    expect(theirs.length).toBeGreaterThan(0);
    for (const id of theirs) expect(annotations).not.toContain(id);

    // the Archive view's export of the project: codes as columns, the opted-out account's posts left out
    saveAs('archive.csv');
    const written = await call<{ file: string; items: number }>('archive.export', {
      project: 'demo',
      kind: 'post',
      format: 'csv',
      csvFlavour: 'analysis',
    });
    const csv = readFileSync(written.file, 'utf8');
    const header = csv.split('\n')[0]!.split(',');
    // two codebooks hold values (the .qdpx and .qdc imported above made more): each one's columns carry its name
    expect(header).toEqual(
      expect.arrayContaining([
        'code_stance_stance',
        'code_stance_stance_status',
        'code_stance_tone',
        'code_stance_memo',
      ]),
    );
    // no row of theirs (a reply to their post still names it in inReplyToId: that row is the replier's)
    const rows = csv.split('\n');
    expect(rows.length).toBeGreaterThan(100);
    for (const id of theirs) expect(rows.some((line) => line.startsWith(`${id},`))).toBe(false);
    const manifest = JSON.parse(readFileSync(`${written.file}.manifest.json`, 'utf8')) as {
      codes: { columns: string[] };
      left_out: { accounts: number };
    };
    expect(manifest.codes.columns).toContain('code_stance_stance');
    // one account, known by its id and its handle: counted once
    expect(manifest.left_out.accounts).toBe(1);

    // an id list has no columns: its codes go in a table beside it
    saveAs('archive.txt');
    const ids = await call<{ file: string }>('archive.export', { project: 'demo', kind: 'post', format: 'ids' });
    expect(readFileSync(`${ids.file}.codes.csv`, 'utf8').split('\n')[0]).toMatch(/^item_id,code_stance_stance,/);
    await call('coding.optIn', { account: author.id });
    expect(await call('coding.optOuts')).toEqual([]);
  });
});
