/**
 * One format registry (a new format is one module and one line): a format registered beside the built-in
 * ones — one module (formats/testing/toy-format.ts) and one registry line — is offered through the bridge,
 * written by an export through the core's handlers (and by the Archive view's export), and described in the
 * manifest by a section of its own. A format main does not know is refused, naming the field.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExportJob, FormatOffer } from '../shared/ipc/export';
import type { Sandbox } from '../sandbox';
import { createCore, type SaveRequest } from '.';
import { createDispatcher } from './bridge/dispatch';
import { BUILT_IN_FORMATS, type ExportManifest } from './formats';
import { toyFormat } from './formats/testing/toy-format';
import { testCoreDeps } from './testing/core-deps';

const dirs: string[] = [];
const sandboxes: Sandbox[] = [];
afterAll(async () => {
  for (const s of sandboxes) await s.close();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

describe('a format registered beside the built-in ones', () => {
  it('is offered, written and described in the manifest', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-formats-'));
    dirs.push(dir);
    let nextPath = join(dir, 'replies');
    const jobs: ExportJob[] = [];
    const dialogs: SaveRequest[] = [];
    const core = createCore(
      testCoreDeps(dir, sandboxes, {
        // the one registry line
        formats: [...BUILT_IN_FORMATS, toyFormat],
        // a re-export runs in a worker of its own, which knows only the built-in formats: this one is written here
        workers: {
          archive: new URL('./compose/archive-worker.ts', import.meta.url),
          reexport: new URL('./compose/reexport-worker.ts', import.meta.url),
          execArgv: ['--import', 'tsx'],
        },
        chooseSavePath: async (request) => {
          dialogs.push(request);
          return nextPath;
        },
        emit: (name, payload) => {
          if (name === 'export') jobs.push(payload as ExportJob);
        },
      }),
    );
    const dispatch = createDispatcher(core.handlers).dispatch;
    const call = async (channel: string, input: unknown) => {
      const res = await dispatch(channel, input, { senderId: 1 });
      if (!res.ok) throw new Error(`${channel}: ${res.error.message}`);
      return res.data;
    };

    // offered: last, after the built-in ones, as its module declares it
    const offers = (await call('skein:export.formats', undefined)) as FormatOffer[];
    expect(offers.at(-1)).toEqual({
      id: 'toy-tsv',
      format: 'toy-tsv',
      label: 'Toy TSV',
      hint: 'a format the tests register: id and text, tab-separated',
      options: {},
      kinds: ['post'],
      archive: { kinds: ['post'] },
      controls: [],
    });
    expect(offers.map((o) => o.id).slice(0, -1)).toEqual(BUILT_IN_FORMATS.flatMap((f) => f.offers.map((o) => o.id)));

    // written by an export job: the save dialog's name, extension and filter come from the module
    const ex = (await call('skein:demo.examples', undefined)) as { bigThreadPostId: string };
    const view = { kind: 'directReplies', operation: 'postReplies', params: { tweetId: ex.bigThreadPostId } };
    await call('skein:export.start', { view, format: 'toy-tsv', scope: 'loaded' });
    await expect.poll(() => jobs.at(-1)?.status, { timeout: 30_000 }).toBe('partial');
    expect(dialogs[0]).toMatchObject({
      defaultPath: expect.stringMatching(/^skein-directReplies-\d+-\d{8}T\d{6}Z\.tsv$/),
      filters: [{ name: 'Toy TSV', extensions: ['tsv'] }],
    });
    // a name typed without an extension gets the format's
    const target = join(dir, 'replies.tsv');
    expect(jobs.at(-1)?.files).toEqual([target, `${target}.manifest.json`]);
    const lines = readFileSync(target, 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => /^\d+\t/.test(l))).toBe(true);

    // described in the manifest by its own section
    const manifest = JSON.parse(readFileSync(`${target}.manifest.json`, 'utf8')) as ExportManifest;
    expect(manifest.format).toBe('toy-tsv');
    expect(manifest.files).toEqual([target, `${target}.manifest.json`]);
    expect(manifest.toy).toEqual({ columns: ['id', 'text'], rows: lines.length, note: 'one item per line' });
    expect(manifest.row_provenance).toBeNull();

    // the Archive view's export writes it too, from the project, without a call
    const kept = async () => (await call('skein:archive.collections', {})) as Array<{ id: number; items: number }>;
    await expect.poll(async () => (await kept())[0]?.items, { timeout: 10_000 }).toBe(lines.length);
    nextPath = join(dir, 'again.tsv');
    const calls = core.client.usage.snapshot().session.calls;
    const collection = (await kept())[0]!.id;
    expect(await call('skein:archive.export', { collection, format: 'toy-tsv' })).toMatchObject({ file: nextPath });
    expect(readFileSync(nextPath, 'utf8').trimEnd().split('\n')).toEqual(lines);
    const again = JSON.parse(readFileSync(`${nextPath}.manifest.json`, 'utf8')) as ExportManifest;
    expect(again).toMatchObject({ format: 'toy-tsv', toy: { columns: ['id', 'text'] }, source: { kind: 'archive' } });
    expect(core.client.usage.snapshot().session.calls).toBe(calls);
    await core.dispose();
  });

  it('a format main does not know is refused before any dialog, naming the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-formats-'));
    dirs.push(dir);
    const asked: unknown[] = [];
    const core = createCore(
      testCoreDeps(dir, sandboxes, {
        chooseSavePath: async (request) => {
          asked.push(request);
          return join(dir, 'x.tsv');
        },
      }),
    );
    const dispatch = createDispatcher(core.handlers).dispatch;
    const view = { kind: 'postsByIds', operation: 'postsByIds', params: { tweet_ids: '1' } };
    for (const [channel, input] of [
      ['skein:export.start', { view, format: 'toy-tsv', scope: 'loaded' }],
      ['skein:archive.export', { format: 'toy-tsv' }],
    ] as const) {
      const res = await dispatch(channel, input, { senderId: 1 });
      expect(res).toMatchObject({
        ok: false,
        error: { code: 'bad-input', details: { fields: [{ field: 'format' }] } },
      });
    }
    expect(asked).toEqual([]);
    await core.dispose();
  });
});
