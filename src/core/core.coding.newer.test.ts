/**
 * Coding in a project a newer Skein wrote into (a team's shared project, a file passed along). A codebook with a
 * field of a kind this Skein has no form for, or a damaged one, is refused in words when opened, and the project's
 * other codebooks open as usual. Values of a shape this Skein cannot read (or damaged ones), model settings and
 * samples' drawings it cannot read are shown and exported as written, never taken for a category, counted in
 * agreement or reported as a bug.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { DatabaseSync } from 'node:sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '.';
import { createDispatcher } from './bridge/dispatch';
import { unreadableVersion } from './coding/service';
import { aCitation } from './coding/testing/citation';
import { STANCE } from './coding/testing/codebooks';
import { codedProject, writeAsANewerSkein } from './coding/testing/coded-project';
import { call as bridgeCall } from './testing/bridge-call';
import { startSandbox, type Sandbox } from '../sandbox';
import { demoCores } from './testing/demo-cores';

const cores = demoCores('skein-coding-newer');
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, size: 'small' });
  cores.sandboxes.push(sandbox);
});

const core = (dir: string) =>
  cores.core(dir, {
    apiBaseUrl: sandbox.baseUrl,
    apiKey: 'k',
    workers: undefined,
    confirm: async () => true,
  }).core;
async function answer(c: Core, channel: string, input?: unknown) {
  return createDispatcher(c.handlers).dispatch(`skein:${channel}`, input, { senderId: 1 });
}

describe('codebooks a newer Skein wrote into', () => {
  it('refuses in words to open one with a field of an unknown kind or a damaged version; opens the others', async () => {
    const dir = cores.folder();
    let c = core(dir);
    for (const name of ['Stance', 'Newer', 'Damaged']) {
      const made = await answer(c, 'coding.saveCodebook', { name, definition: STANCE });
      expect(made.ok).toBe(true);
    }
    await c.dispose();
    const db = new DatabaseSync(join(dir, 'projects', 'Default.skein'));
    const newer = { fields: [...STANCE.fields, { key: 'rating', label: 'Rating', type: 'stars', max: 5 }] };
    db.prepare(
      `INSERT INTO codebook_versions (codebook, version, definition, note, created_at) VALUES (2, 2, ?, 'stars', 5)`,
    ).run(JSON.stringify(newer));
    db.exec(`UPDATE codebook_versions SET definition = '{"fields": [' WHERE codebook = 3`);
    db.close();

    c = core(dir);
    try {
      const list = await answer(c, 'coding.codebooks');
      expect(list.ok && (list.data as Array<{ name: string }>).map((b) => b.name)).toEqual([
        'Stance',
        'Newer',
        'Damaged',
      ]);
      const opened = await answer(c, 'coding.codebook', { id: 1 });
      expect(opened.ok).toBe(true);
      const refused = await answer(c, 'coding.codebook', { id: 2 });
      expect(refused.ok ? null : refused.error).toMatchObject({
        code: 'unreadable',
        message:
          'This Skein cannot open the codebook “Newer”: its version 2 has a field (“rating”) of a kind this Skein does not know (“stars”). A newer Skein may have made it; the project’s other codebooks open as usual.',
      });
      const damaged = await answer(c, 'coding.codebook', { id: 3 });
      expect(damaged.ok ? null : damaged.error).toMatchObject({ code: 'unreadable' });
      expect(damaged.ok ? '' : damaged.error.message).toContain('its version 1 is damaged in this project');
      // nothing is written under a version this Skein would misread
      const saved = await answer(c, 'coding.saveCodebook', { id: 2, name: 'Newer', definition: STANCE });
      expect(saved.ok ? null : saved.error.code).toBe('unreadable');
    } finally {
      await c.dispose();
    }
  }, 60_000);

  it('says what it cannot read in a version', () => {
    expect(unreadableVersion(STANCE)).toBeNull();
    expect(unreadableVersion({ fields: [{ key: 'x', type: 'stars' }] })).toBe(
      'has a field (“x”) of a kind this Skein does not know (“stars”)',
    );
    for (const damaged of [
      null,
      {},
      { fields: [] },
      { fields: 'x' },
      { fields: [null] },
      { fields: [{ type: 'text' }] },
    ])
      expect(unreadableVersion(damaged)).toBe('is damaged in this project');
    // an own key of every object is not a kind either
    expect(unreadableVersion({ fields: [{ key: 'x', type: 'constructor' }] })).toContain('“constructor”');
  });
});

/** a coded project (`codedProject`) in a folder of its own, and how to open it again: saves answered from `saves` */
async function aCodedProject() {
  const dir = cores.folder();
  const saves: string[] = [];
  const open = () =>
    cores.core(dir, {
      apiBaseUrl: sandbox.baseUrl,
      apiKey: 'k',
      workers: undefined,
      confirm: async () => true,
      chooseSavePath: async () => saves.shift() ?? null,
    }).core;
  const c = open();
  try {
    return { dir, saves, open, made: await codedProject(c, sandbox.examples.bigThreadPostId) };
  } finally {
    await c.dispose();
  }
}

describe('values a newer Skein wrote', () => {
  it('shows, compares and exports them as written, and never takes them for a category', async () => {
    const { dir, saves, open, made: p } = await aCodedProject();
    const db = new DatabaseSync(join(dir, 'projects', 'Default.skein'));
    writeAsANewerSkein(db, p);
    db.close();

    const c = open();
    const call = <T>(channel: string, input?: unknown) => bridgeCall<T>(c, `skein:${channel}`, input);
    try {
      const coders = await call<Array<{ name: string; model: unknown }>>('coding.coders');
      expect(coders.find((x) => x.name === 'Bot')?.model).toBeNull();
      const [sample] = await call<Array<{ definition: unknown; items: number }>>('coding.samples', {
        codebook: p.codebook,
      });
      expect(sample).toMatchObject({ definition: null, items: 6 });

      // the coder's own values, as written: the object's text, the damaged note's text
      const queue = await call<{ entries: Array<{ id: string; values: Array<{ field: string; value: unknown }> }> }>(
        'coding.queue',
        { sample: p.sample, coder: p.ana, limit: 10 },
      );
      const of = (id: string, field: string) =>
        queue.entries.find((e) => e.id === id)?.values.find((v) => v.field === field)?.value;
      expect(of(p.ids[0]!, 'stance')).toEqual({ unread: '{"stars":4}' });
      expect(of(p.ids[2]!, 'memo')).toEqual({ unread: '{' });
      expect(of(p.ids[3]!, 'stance')).toBe('for');

      // agreement leaves the two unread values out, and says so
      const report = await call<{ rows: Array<{ field: string; units: number; unread?: number }> }>(
        'coding.agreement',
        { codebook: p.codebook, sample: p.sample, viewer: p.ana },
      );
      expect(report.rows.find((r) => r.field === 'stance')).toMatchObject({ units: 4, unread: 2 });

      // reconciliation lists them beside the others, with the decisions as written
      const open6 = await call<{
        items: Array<{ id: string; values: Array<{ value: unknown }>; adjudication: { value: unknown } | null }>;
      }>('coding.disagreements', { codebook: p.codebook, sample: p.sample, viewer: p.ana, limit: 10 });
      expect(open6.items).toHaveLength(6);
      const first = open6.items.find((i) => i.id === p.ids[0]);
      expect(first?.values.map((v) => v.value)).toEqual([{ unread: '{"stars":4}' }, 'against']);
      expect(first?.adjudication?.value).toEqual({ unread: '{"x":1}' });
      expect(open6.items.find((i) => i.id === p.ids[1])?.adjudication?.value).toEqual({ unread: 'nope' });

      // exports write them as written
      const table = join(dir, 'annotations.csv');
      const qdpx = join(dir, 'project.qdpx');
      saves.push(table);
      await call('coding.exportAnnotations', { codebook: p.codebook, sample: p.sample });
      const csv = readFileSync(table, 'utf8');
      expect(csv).toContain(`${p.ids[0]},post,stance,"{""stars"":4}",Ana`);
      expect(csv).toContain(`${p.ids[1]},post,stance,7,Ben`);
      expect(csv).toContain(`${p.ids[1]},post,stance,nope,adjudicated`);
      // ReCal compares whole items: the two with a value it cannot read are left out, as agreement leaves them
      const recal = join(dir, 'recal.csv');
      saves.push(recal);
      const written = await call<{ items: number }>('coding.exportRecal', {
        codebook: p.codebook,
        sample: p.sample,
        field: 'stance',
      });
      expect(written.items).toBe(4);
      saves.push(qdpx);
      await call('coding.exportQdpx', { codebook: p.codebook, sample: p.sample });
      const qde = strFromU8(unzipSync(readFileSync(qdpx))['project.qde']!);
      expect(qde).toContain('<Description>{"stars":4} (as written; this Skein cannot read it)</Description>');

      // what needs what this Skein cannot read is refused in words
      const share = await answer(c, 'coding.sharePackage', {
        codebook: p.codebook,
        sample: p.sample,
        review: false,
        rehydration: true,
        citation: aCitation,
      });
      expect(share.ok ? null : share.error).toMatchObject({ code: 'unreadable' });
      expect(share.ok ? '' : share.error.message).toContain('cannot read how the sample “Pilot” was drawn');
      const run = await answer(c, 'coding.runModel', { codebook: p.codebook, sample: p.sample, coder: p.bot });
      expect(run.ok ? null : run.error).toMatchObject({ code: 'unreadable' });
      expect(run.ok ? '' : run.error.message).toContain('cannot read Bot’s model settings');
    } finally {
      await c.dispose();
    }
  }, 60_000);
});

describe('items of a kind a newer Skein codes', () => {
  it('are left out where they would be shown, counted in words, and go out as written in tables', async () => {
    const { dir, saves, open, made: p } = await aCodedProject();
    const db = new DatabaseSync(join(dir, 'projects', 'Default.skein'));
    for (const table of ['codings', 'adjudications', 'assignments', 'sample_items'])
      db.prepare(`UPDATE ${table} SET item_kind = 'space' WHERE item_id = ?`).run(p.ids[0]!);
    db.close();

    const c = open();
    try {
      // the other items are coded and reconciled as usual; the one of another kind is left out and counted
      const queue = await answer(c, 'coding.queue', { sample: p.sample, coder: p.ana });
      const q = (queue.ok ? queue.data : null) as {
        entries: Array<{ id: string }>;
        total: number;
        otherKinds?: number;
      };
      expect(q.entries.map((e) => e.id)).toEqual(p.ids.slice(1));
      expect(q).toMatchObject({ total: p.ids.length, otherKinds: 1, nextOffset: null });
      const listed = await answer(c, 'coding.disagreements', { codebook: p.codebook, sample: p.sample, viewer: p.ana });
      const d = (listed.ok ? listed.data : null) as { items: Array<{ id: string; kind: string }>; otherKinds?: number };
      expect(d.items.map((i) => i.id).sort()).toEqual(p.ids.slice(1).sort());
      expect(d.items.every((i) => i.kind === 'post')).toBe(true);
      expect(d.otherKinds).toBe(1);
      const table = join(dir, 'annotations.csv');
      saves.push(table);
      expect((await answer(c, 'coding.exportAnnotations', { codebook: p.codebook, sample: p.sample })).ok).toBe(true);
      expect(readFileSync(table, 'utf8')).toContain(`${p.ids[0]},space,stance,for,Ana`);
    } finally {
      await c.dispose();
    }
  }, 60_000);
});

describe('items damaged in the project', () => {
  it('are shown as damaged, not as missing, where they would be coded and reconciled', async () => {
    const { dir, open, made: p } = await aCodedProject();
    const db = new DatabaseSync(join(dir, 'projects', 'Default.skein'));
    // one cut short, one JSON that is not an object: a file damaged on disk (or by hand) holds them so
    db.prepare(`UPDATE items SET raw = '{"id": "cu' WHERE kind = 'post' AND id = ?`).run(p.ids[0]!);
    db.prepare(`UPDATE items SET raw = '[1, 2]' WHERE kind = 'post' AND id = ?`).run(p.ids[1]!);
    db.close();

    const c = open();
    try {
      type Shown = { id: string; item: unknown; damaged?: true };
      const queue = await answer(c, 'coding.queue', { sample: p.sample, coder: p.ana });
      const entries = (queue.ok ? (queue.data as { entries: Array<Shown & { values: unknown[] }> }) : null)!.entries;
      expect(entries.map((e) => [e.id, e.item === null, e.damaged ?? false])).toEqual(
        p.ids.map((id, i) => [id, i < 2, i < 2]),
      );
      // what was coded on them is kept
      expect(entries[0]!.values.length).toBeGreaterThan(0);
      const listed = await answer(c, 'coding.disagreements', { codebook: p.codebook, sample: p.sample, viewer: p.ana });
      const items = (listed.ok ? (listed.data as { items: Shown[] }) : null)!.items;
      expect(
        items
          .filter((i) => i.damaged)
          .map((i) => i.id)
          .sort(),
      ).toEqual(p.ids.slice(0, 2).sort());
      expect(items.filter((i) => !i.damaged).every((i) => i.item !== null)).toBe(true);
    } finally {
      await c.dispose();
    }
  }, 60_000);

  it('are left out of what leaves the project while anyone opted out, since whose they are cannot be told', async () => {
    const { dir, saves, open, made: p } = await aCodedProject();
    const db = new DatabaseSync(join(dir, 'projects', 'Default.skein'));
    db.prepare(`UPDATE items SET raw = '{"id": "cu' WHERE kind = 'post' AND id = ?`).run(p.ids[0]!);
    db.close();
    const citation = { title: 'Pilot', authors: [{ familyNames: 'Example', givenNames: 'Ana' }] };
    const words =
      '1 item kept damaged in the project was left out too: while accounts are opted out, whose it is cannot be told.';
    const share = async (c: Core, name: string) => {
      saves.push(join(dir, `${name}.zip`));
      const made = await answer(c, 'coding.sharePackage', {
        codebook: p.codebook,
        sample: p.sample,
        review: false,
        rehydration: true,
        includeTexts: false,
        citation,
      });
      const note = (made.ok ? (made.data as { packages: Array<{ note: string }> }).packages[0]!.note : '') ?? '';
      const ids = strFromU8(unzipSync(readFileSync(join(dir, `${name}.for-rehydration.zip`)))['post_ids.txt']!);
      return { note, ids: ids.trim().split('\n') };
    };
    const c = open();
    try {
      // nobody opted out: the damaged item is shared by its id alone
      expect((await share(c, 'before')).ids).toContain(p.ids[0]);
      // someone (not one of these items' authors) opted out: it can no longer be told not to be theirs
      expect((await answer(c, 'coding.optOut', { account: '@someone_else', note: '' })).ok).toBe(true);
      const after = await share(c, 'after');
      expect(after.ids).not.toContain(p.ids[0]);
      expect(after.ids.sort()).toEqual(p.ids.slice(1).sort());
      expect(after.note).toContain(words);
      saves.push(join(dir, 'annotations.csv'));
      const table = await answer(c, 'coding.exportAnnotations', { codebook: p.codebook, sample: p.sample });
      expect(table.ok && (table.data as { note: string }).note).toContain(words);
      expect(readFileSync(join(dir, 'annotations.csv'), 'utf8')).not.toContain(p.ids[0]!);
      // and a collection of the project, read a chunk at a time
      const all = await answer(c, 'archive.saveSearch', { project: 'current', kind: 'post', name: 'All' });
      const collection = (all.ok ? all.data : null) as { id: number; items: number };
      saves.push(join(dir, 'all.zip'));
      const made = await answer(c, 'coding.shareCollection', {
        collection: collection.id,
        review: false,
        rehydration: true,
        includeTexts: false,
        citation,
      });
      expect(made.ok && (made.data as { packages: Array<{ note: string }> }).packages[0]!.note).toContain(words);
      const shared = strFromU8(unzipSync(readFileSync(join(dir, 'all.for-rehydration.zip')))['post_ids.txt']!);
      expect(shared.trim().split('\n')).toHaveLength(collection.items - 1);
      expect(shared).not.toContain(p.ids[0]!);
    } finally {
      await c.dispose();
    }
  }, 60_000);
});
