/**
 * Hydration end to end against the sandbox: an id import, hydrated by the export machinery in batches of 100,
 * with the sandbox's ledger as the judge of what was bought; a restart mid-job buys nothing twice; the ids that
 * did not come back are listed with why, and "retry the missing" asks only for those.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViewDescriptor } from '../../shared/ipc/export';
import { startSandbox, type Sandbox } from '../../sandbox';
import { createIdsFeature } from './handlers';
import { MAYBE_ROUNDED } from '../../shared/ids/id-token';
import type { ExportManifest } from '../formats';
import { NOT_RETURNED } from '../export/missing-ids';
import type { ProjectItems } from '../export/project-items';
import { sandboxExporter, walk } from '../export/testing/sandbox-export';

let sandbox: Sandbox;
let known: string[];
/** the raw posts of `known`, as the sandbox sends them */
let rawOf: Map<string, unknown>;
const MISSING = ['1999999999999999991', '1999999999999999992', '1999999999999999993'];

beforeAll(async () => {
  sandbox = await startSandbox({ size: 'small', now: () => Date.UTC(2026, 10, 22, 2, 13, 21) });
  const pages = await walk(sandbox.baseUrl, 'postRepliesV2', {
    tweetId: sandbox.examples.bigThreadPostId,
    queryType: 'Latest',
  });
  known = [...new Set(pages.flatMap((p) => p.items.map((i) => (i as { id: string }).id)))].slice(0, 247);
  rawOf = new Map(pages.flatMap((p) => p.items.map((i) => [(i as { id: string }).id, i] as const)));
});
afterAll(async () => sandbox?.close());

async function control<T>(path: string, method = 'GET'): Promise<T> {
  const res = await fetch(`${sandbox.baseUrl}${path}`, { method });
  return (res.status === 204 ? undefined : await res.json()) as T;
}
const ledger = () => control<{ totals: { calls: number; credits: number } }>('/__sandbox/usage').then((l) => l.totals);

async function idsFeature(userDataDir?: string) {
  return createIdsFeature({
    userDataDir: userDataDir ?? (await mkdtemp(join(tmpdir(), 'skein-ids-'))),
    now: () => Date.UTC(2026, 10, 23),
  });
}

function hydration(importId: string): ViewDescriptor {
  return { kind: 'postsByIds', operation: 'postsByIds', params: {}, idsFrom: importId, title: 'ids.csv' };
}

const readJsonl = async (path: string) =>
  (await readFile(path, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { item: { id: string } });

describe('hydrating an id import', () => {
  it('buys ⌈n/100⌉ calls, keeps the order, survives a restart without buying again, and lists the missing', async () => {
    expect(known.length).toBe(247);
    const userDataDir = await mkdtemp(join(tmpdir(), 'skein-ids-'));
    const ids = await idsFeature(userDataDir);
    const asked = [...known.slice(0, 120), ...MISSING, ...known.slice(120)];
    // a CSV exported by Skein for spreadsheets: ="…" ids, a BOM, a repeated id, two ids a spreadsheet damaged
    const csv = [
      '\ufeffid,text',
      ...asked.map((id, i) => `="${id}",post ${i}`),
      `="${asked[0]!}",again`,
      '1.23457E+18,damaged',
      '1234567890123450000,rounded',
    ].join('\r\n');
    const imp = ids.store.create('posts', 'ids.csv', { format: 'csv', column: 'id', header: true });
    // lines cut anywhere between pieces
    for (let i = 0; i < csv.length; i += 777) ids.store.append(imp.importId, csv.slice(i, i + 777));
    const sealed = await ids.store.seal(imp.importId);
    expect(sealed).toMatchObject({ ids: 250, sealed: true, report: { duplicates: 1, damagedTotal: 2 } });
    expect(sealed.report?.damaged.map((d) => d.line)).toEqual([253, 254]);

    await control('/__sandbox/usage/reset', 'POST');
    await control('/__sandbox/requests', 'DELETE');
    let killed = false;
    const first = await sandboxExporter(sandbox.baseUrl, null, {
      ids,
      // the process dies as the third batch would leave
      onSend: (n) => {
        if (n === 3) {
          killed = true;
          return 'kill';
        }
      },
    });
    const target = join(first.dir, 'hydrated.jsonl');
    const view = hydration(imp.importId);
    expect(await first.service.estimate(view, 'all')).toMatchObject({ calls: 3 });
    const job = await first.service.start({ view, format: 'jsonl', scope: 'all', targetPath: target });
    for (let i = 0; i < 3000 && !killed; i++) await new Promise((r) => setTimeout(r, 10));
    expect(killed).toBe(true);
    expect((await ledger()).calls).toBe(2);

    // a restart (new process, same folders): the job resumes with the third batch only
    const restarted = await idsFeature(userDataDir);
    const second = await sandboxExporter(sandbox.baseUrl, null, { stateDir: first.stateDir, ids: restarted });
    expect((await second.service.list())[0]).toMatchObject({ id: job.id, status: 'interrupted', resumable: true });
    await second.service.resume(job.id);
    expect(await second.service.settled(job.id)).toMatchObject({ status: 'complete', error: null });
    expect((await ledger()).calls).toBe(3);

    const lines = await readJsonl(target);
    expect(lines.map((l) => l.item.id)).toEqual(asked.filter((id) => !MISSING.includes(id)));

    const missing = await restarted.store.missing(job.id, 0, 200);
    expect(missing).toEqual({ total: 3, ids: MISSING.map((id) => ({ id, reason: NOT_RETURNED })) });

    // retry the missing: one call for exactly those three
    const retry = await restarted.store.retryMissing(job.id);
    expect(retry).toMatchObject({ ids: 3, sealed: true, label: 'Missing from ids.csv' });
    const third = await sandboxExporter(sandbox.baseUrl, null, { ids: restarted });
    const retried = await third.service.start({
      view: hydration(retry.importId),
      format: 'jsonl',
      scope: 'all',
      targetPath: join(third.dir, 'retry.jsonl'),
    });
    expect(await third.service.settled(retried.id)).toMatchObject({ status: 'complete' });
    expect((await ledger()).calls).toBe(4);
    const log = await control<{ requests: Array<{ url: string }> }>('/__sandbox/requests');
    expect(new URL(log.requests.at(-1)!.url, sandbox.baseUrl).searchParams.get('tweet_ids')).toBe(MISSING.join(','));
  });

  it('takes the ids the project already holds from it, free, and buys only the rest (or all, when asked)', async () => {
    const ids = await idsFeature();
    const imp = await ids.store.createFrom('posts', 'dataset.txt', known);
    // the project holds 130 of the 247, received at a known time
    const heldAt = Date.UTC(2026, 10, 20, 9, 30);
    const inProject = new Set(known.filter((_, i) => i % 19 !== 0).slice(0, 130));
    const project: ProjectItems = {
      held: async (kind, list, withRaw) =>
        kind !== 'post'
          ? []
          : list
              .filter((id) => inProject.has(id))
              .map((id) => ({ id, raw: withRaw ? JSON.stringify(rawOf.get(id)) : '', at: heldAt })),
    };
    await control('/__sandbox/usage/reset', 'POST');
    const { dir, service } = await sandboxExporter(sandbox.baseUrl, null, { ids, project });
    const view = hydration(imp.importId);
    expect(await service.estimate(view, 'all')).toMatchObject({ calls: 2, alreadyInProject: 130 });
    expect(await service.estimate({ ...view, refetchHeld: true }, 'all')).toMatchObject({ calls: 3 });

    const target = join(dir, 'free.jsonl');
    const job = await service.start({ view, format: 'jsonl', scope: 'all', targetPath: target });
    expect(await service.settled(job.id)).toMatchObject({ status: 'complete', progress: { calls: 2 } });
    expect((await ledger()).calls).toBe(2); // ⌈117/100⌉, not ⌈247/100⌉
    const lines = await readJsonl(target);
    // the held ones first, as the project received them, then the bought ones; every id once
    expect(lines.map((l) => l.item.id)).toEqual([
      ...known.filter((id) => inProject.has(id)),
      ...known.filter((id) => !inProject.has(id)),
    ]);
    expect(lines[0]?.item).toEqual(rawOf.get(lines[0]!.item.id));
    const manifest = JSON.parse(await readFile(`${target}.manifest.json`, 'utf8')) as {
      pages: Array<{ from_project?: boolean; fetched_at: string; calls: number }>;
      id_list: { ids: number; already_in_project: number; calls: number };
    };
    expect(manifest.id_list).toMatchObject({ ids: 247, already_in_project: 130, calls: 2 });
    expect(manifest.pages.filter((p) => p.from_project)).toEqual([
      expect.objectContaining({ fetched_at: new Date(heldAt).toISOString(), calls: 0 }),
      expect.objectContaining({ fetched_at: new Date(heldAt).toISOString(), calls: 0 }),
    ]);

    // fetch them again anyway: fresh counters, every batch bought
    const again = await service.start({
      view: { ...view, refetchHeld: true },
      format: 'jsonl',
      scope: 'all',
      targetPath: join(dir, 'again.jsonl'),
    });
    expect(await service.settled(again.id)).toMatchObject({ status: 'complete', progress: { calls: 3 } });
    expect((await ledger()).calls).toBe(5);
  });

  it('refuses a view that names an unknown or unfinished import, before any call', async () => {
    const ids = await idsFeature();
    const { service } = await sandboxExporter(sandbox.baseUrl, null, { ids });
    await expect(service.estimate(hydration('imp-0000000000000000'), 'all')).rejects.toMatchObject({
      code: 'not-found',
    });
    const open = ids.store.create('posts', 'half', { format: 'txt' });
    await expect(service.estimate(hydration(open.importId), 'all')).rejects.toMatchObject({ code: 'not-found' });
  });
});

describe('an id a spreadsheet may have rounded, among 100 or more intact ids', () => {
  it('is asked for, and when it does not come back it is reported apart, never as a deleted post', async () => {
    const ids = await idsFeature();
    const rounded = '2006378618355240000';
    const list = [...known.slice(0, 120), rounded, MISSING[0]!];
    const imp = ids.store.create('posts', 'dataset.txt', { format: 'txt' });
    ids.store.append(imp.importId, `${list.join('\n')}\n`);
    // among 121 intact long ids, one that ends in zeros is accepted: a real id can (1 in 10,000 do)
    expect(await ids.store.seal(imp.importId)).toMatchObject({ ids: 122, report: { damagedTotal: 0 } });

    const { dir, service } = await sandboxExporter(sandbox.baseUrl, null, { ids });
    const target = join(dir, 'hydrated.jsonl');
    const job = await service.start({
      view: hydration(imp.importId),
      format: 'jsonl',
      scope: 'all',
      targetPath: target,
    });
    expect(await service.settled(job.id)).toMatchObject({ status: 'complete' });
    expect((await readJsonl(target)).map((l) => l.item.id)).toEqual(known.slice(0, 120));

    // the missing list says what each one may be
    const missing = await ids.store.missing(job.id, 0, 10);
    expect(missing?.total).toBe(2);
    expect(missing?.ids).toEqual(
      expect.arrayContaining([
        { id: rounded, reason: MAYBE_ROUNDED },
        { id: MISSING[0], reason: NOT_RETURNED },
      ]),
    );
    expect(MAYBE_ROUNDED).toMatch(/may be a spreadsheet-rounded id/);
    expect(await ids.store.hydrations(imp.importId)).toEqual([
      expect.objectContaining({ jobId: job.id, missing: 2, possiblyRounded: 1 }),
    ]);
    // the manifest counts it apart: attrition (ids_not_found) holds only the id that looks intact
    const manifest = JSON.parse(await readFile(`${target}.manifest.json`, 'utf8')) as ExportManifest;
    expect(manifest.ids_not_found).toEqual([MISSING[0]]);
    expect(manifest.ids_not_found_total).toBe(1);
    expect(manifest.ids_possibly_rounded).toMatchObject({ total: 1, listed: [rounded] });
    expect(manifest.ids_possibly_rounded?.note).toMatch(/not counted in ids_not_found/);
  });
});
