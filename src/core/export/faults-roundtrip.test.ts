/**
 * "Fetch everything" under faults, against the sandbox: faults injected per request through the
 * sandbox, and every run compared with the sandbox's own ledger and request log and with an export
 * made without faults. Same items in the same order; the manifest's calls and credits equal the
 * ledger's to the credit; no cursor asked for more often than the manifest says (its retries).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ExportJob, ViewDescriptor } from '../../shared/ipc/export';
import { startSandbox, type Sandbox } from '../../sandbox';
import type { ExportManifest } from '../formats';
import { sandboxExporter, type SandboxExporterOptions } from './testing/sandbox-export';

let sandbox: Sandbox;
let view: ViewDescriptor;
let baseline: JsonDoc;

interface JsonDoc {
  manifest: ExportManifest;
  items: Array<{ item: { id: string } }>;
}
const read = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as JsonDoc;

async function control<T>(path: string, method = 'GET'): Promise<T> {
  const res = await fetch(`${sandbox.baseUrl}${path}`, { method });
  return (res.status === 204 ? undefined : await res.json()) as T;
}
const ledger = () => control<{ totals: { calls: number; credits: number } }>('/__sandbox/usage').then((l) => l.totals);

/** requests the sandbox saw, per cursor ('' = first page) */
async function requestsByCursor(): Promise<Map<string, number>> {
  const { requests } = await control<{ requests: Array<{ url: string }> }>('/__sandbox/requests');
  const out = new Map<string, number>();
  for (const r of requests) {
    const cursor = new URL(r.url, sandbox.baseUrl).searchParams.get('cursor') ?? '';
    out.set(cursor, (out.get(cursor) ?? 0) + 1);
  }
  return out;
}

/** calls the manifest accounts for, per cursor: pages (retries included) and failed fetches */
function callsByCursor(m: ExportManifest): Map<string, number> {
  const out = new Map<string, number>();
  const add = (cursor: string | null, calls: number) =>
    calls > 0 && out.set(cursor ?? '', (out.get(cursor ?? '') ?? 0) + calls);
  for (const p of m.pages) add(p.cursor, p.calls);
  for (const f of m.failed_fetches) add(f.cursor, f.calls);
  return out;
}

/** The export equals the fault-free one, and its manifest equals what the sandbox counted. */
async function expectExact(doc: JsonDoc): Promise<void> {
  expect(doc.manifest.complete).toBe(true);
  expect(doc.items.map((e) => e.item.id)).toEqual(baseline.items.map((e) => e.item.id));
  expect(doc.items).toEqual(baseline.items);
  await expectLedger(doc.manifest);
}

async function expectLedger(m: ExportManifest): Promise<void> {
  const totals = await ledger();
  expect({ calls: m.counts.calls, credits: m.estimated_credits }).toEqual({
    calls: totals.calls,
    credits: totals.credits,
  });
  expect(callsByCursor(m)).toEqual(await requestsByCursor());
}

/** a fault for some requests (1-based, as they leave) */
const faults =
  (plan: Record<number, string>): SandboxExporterOptions['faultFor'] =>
  (n) =>
    plan[n];

beforeAll(async () => {
  sandbox = await startSandbox({ size: 'small', now: () => Date.UTC(2026, 10, 22, 2, 13, 21) });
  view = {
    kind: 'thread',
    operation: 'postRepliesV2',
    params: { tweetId: sandbox.examples.bigThreadPostId, queryType: 'Latest' },
    title: 'thread',
  };
  const { dir, service } = await sandboxExporter(sandbox.baseUrl);
  const job = await service.start({ view, format: 'json', scope: 'all', targetPath: join(dir, 'clean.json') });
  expect((await service.settled(job.id)).status).toBe('complete');
  baseline = await read(join(dir, 'clean.json'));
  expect(baseline.manifest.counts.pages).toBeGreaterThan(12);
});
afterAll(async () => sandbox?.close());
beforeEach(async () => {
  await control('/__sandbox/usage/reset', 'POST');
  await control('/__sandbox/requests', 'DELETE');
});

describe('fetch everything under faults equals the fault-free export, and the manifest equals the ledger', () => {
  it('5xx, a reset and a cut body are retried within their page, and every retry is counted', async () => {
    const { dir, service } = await sandboxExporter(sandbox.baseUrl, null, {
      faultFor: faults({ 2: '503', 4: 'reset', 6: 'truncate', 7: 'truncate', 9: '502' }),
    });
    const target = join(dir, 'x.json');
    const job = await service.start({ view, format: 'json', scope: 'all', targetPath: target });
    expect(await service.settled(job.id)).toMatchObject({ status: 'complete', error: null });
    const doc = await read(target);
    await expectExact(doc);
    expect(doc.manifest.counts.calls).toBe(baseline.manifest.counts.pages + 5);
    expect(doc.manifest.failed_fetches).toEqual([]);
    expect([...doc.manifest.pages].map((p) => p.cursor)).toEqual([...baseline.manifest.pages].map((p) => p.cursor));
  });

  it('a page out of retries and an unreadable answer stop the job; what they cost is in the manifest, and resume ends exact', async () => {
    const plan = { 3: '503', 4: '503', 5: '503', 6: '503', 9: 'non-json' };
    const { dir, service } = await sandboxExporter(sandbox.baseUrl, null, { faultFor: faults(plan) });
    const target = join(dir, 'x.json');
    const job = await service.start({ view, format: 'json', scope: 'all', targetPath: target });
    expect(await service.settled(job.id)).toMatchObject({
      status: 'partial',
      stopReason: 'error',
      resumable: true,
      error: { code: 'upstream' },
    });
    const stopped = await read(target);
    expect(stopped.manifest.failed_fetches).toMatchObject([{ calls: 4, credits: 60, error: 'upstream' }]);
    await expectLedger(stopped.manifest);

    await service.resume(job.id);
    expect(await service.settled(job.id)).toMatchObject({ status: 'partial', error: { code: 'malformed' } });
    await expectLedger((await read(target)).manifest);

    await service.resume(job.id);
    expect(await service.settled(job.id)).toMatchObject({ status: 'complete' });
    const doc = await read(target);
    await expectExact(doc);
    expect(doc.manifest.failed_fetches.map((f) => [f.calls, f.credits, f.error])).toEqual([
      [4, 60, 'upstream'],
      [1, 15, 'malformed'],
    ]);
  });

  it('cancel lets the page in flight arrive and keeps it: resume buys no page twice', async () => {
    let cancel: () => void = () => undefined;
    const { dir, service } = await sandboxExporter(sandbox.baseUrl, null, {
      faultFor: faults({ 5: 'latency;ms=300' }),
      onSend: (n) => {
        if (n === 5) setTimeout(cancel, 50);
      },
    });
    const target = join(dir, 'x.json');
    const job = await service.start({ view, format: 'json', scope: 'all', targetPath: target });
    cancel = () => void service.cancel(job.id);
    const cancelled = await service.settled(job.id);
    expect(cancelled).toMatchObject({ status: 'partial', stopReason: 'cancelled', resumable: true });
    // the request in flight when Cancel came was paid for: its page is in the journal
    expect(cancelled.progress).toMatchObject({ pages: 5, calls: 5 });
    await expectLedger((await read(target)).manifest);

    await service.resume(job.id);
    expect((await service.settled(job.id)).status).toBe('complete');
    const doc = await read(target);
    await expectExact(doc);
    expect((await ledger()).calls).toBe(baseline.manifest.counts.pages);
  });

  it('a rate limit is waited out, shown while it lasts, and the job goes on by itself', async () => {
    const updates: ExportJob[] = [];
    const { dir, service } = await sandboxExporter(sandbox.baseUrl, null, {
      policy: { maxAttempts: 2 },
      faultFor: faults({ 3: '429;retry-after=1', 4: '429;retry-after=1', 5: '429;retry-after=1', 6: '429' }),
      onUpdate: (j) => updates.push(j),
    });
    const target = join(dir, 'x.json');
    const job = await service.start({ view, format: 'json', scope: 'all', targetPath: target });
    expect(await service.settled(job.id)).toMatchObject({ status: 'complete', error: null });
    const waits = updates.filter((u) => u.status === 'collecting' && typeof u.progress.waitingUntil === 'number');
    expect(waits.length).toBeGreaterThanOrEqual(2);
    expect(waits.every((u) => (u.progress.waitingUntil ?? 0) > u.startedAt)).toBe(true);
    expect(updates.at(-1)?.progress.waitingUntil ?? null).toBeNull();
    const doc = await read(target);
    await expectExact(doc);
    // 429s are calls, free of charge
    expect(doc.manifest.failed_fetches.map((f) => [f.calls, f.credits, f.error])).toEqual([
      [2, 0, 'rate-limited'],
      [2, 0, 'rate-limited'],
    ]);
  });

  it('a rate limit longer than the bound stops the job (resumable), counted', async () => {
    const { dir, service } = await sandboxExporter(sandbox.baseUrl, null, {
      policy: { maxAttempts: 2 },
      faultFor: faults({ 4: '429;retry-after=3600' }),
    });
    const target = join(dir, 'x.json');
    const job = await service.start({ view, format: 'json', scope: 'all', targetPath: target });
    expect(await service.settled(job.id)).toMatchObject({
      status: 'partial',
      stopReason: 'error',
      resumable: true,
      error: { code: 'rate-limited' },
    });
    await expectLedger((await read(target)).manifest);
  });

  it('a Cancel during a rate-limit wait ends it at once', async () => {
    const updates: ExportJob[] = [];
    const { dir, service } = await sandboxExporter(sandbox.baseUrl, null, {
      policy: { maxAttempts: 1 },
      faultFor: faults({ 3: '429;retry-after=600' }),
      onUpdate: (j) => updates.push(j),
    });
    const job = await service.start({ view, format: 'json', scope: 'all', targetPath: join(dir, 'x.json') });
    for (let i = 0; i < 500 && !updates.some((u) => u.progress.waitingUntil); i++)
      await new Promise((r) => setTimeout(r, 10));
    const waiting = updates.find((u) => u.progress.waitingUntil);
    expect((waiting?.progress.waitingUntil ?? 0) - Date.now()).toBeGreaterThan(500_000);
    // the 429 is counted while the job waits
    expect(waiting?.progress).toMatchObject({ pages: 2, calls: 3 });
    const started = Date.now();
    await service.cancel(job.id);
    expect(await service.settled(job.id)).toMatchObject({
      status: 'partial',
      stopReason: 'cancelled',
      resumable: true,
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    await expectLedger((await read(join(dir, 'x.json'))).manifest);
  });

  it.each(['no-cursor', 'repeat-cursor'])(
    'a stop on a bad paging answer (%s) is not replayed from the store: starting over asks again',
    async (quirk) => {
      const { dir, service } = await sandboxExporter(sandbox.baseUrl, null, { faultFor: faults({ 4: quirk }) });
      const first = await service.start({ view, format: 'json', scope: 'all', targetPath: join(dir, 'a.json') });
      const stopped = await service.settled(first.id);
      expect(stopped).toMatchObject({
        status: 'partial',
        resumable: false,
        stopReason: quirk === 'no-cursor' ? 'missing-cursor' : 'repeated-cursor',
      });
      await expectLedger((await read(join(dir, 'a.json'))).manifest);

      await control('/__sandbox/usage/reset', 'POST');
      await control('/__sandbox/requests', 'DELETE');
      const again = await service.start({ view, format: 'json', scope: 'all', targetPath: join(dir, 'b.json') });
      expect((await service.settled(again.id)).status).toBe('complete');
      const doc = await read(join(dir, 'b.json'));
      await expectExact(doc);
      // the good pages came from the store; the bad one was asked for again
      expect([...doc.manifest.pages].map((p) => p.from_cache).slice(0, 4)).toEqual([true, true, true, false]);
    },
  );
});

describe('acceptance: mixed faults, cancel/resume, kill/resume and a 429 storm in one export', () => {
  it('ends equal to the fault-free export, with the manifest equal to the ledger', { timeout: 60_000 }, async () => {
    // request by request (two attempts per fetch): a retried 500, cut body and reset; duplicated items;
    // a cancel while page 5 is in flight; then a 429 storm over two fetches, a retried 503 answered by an
    // empty page; the process dies while request 18 is in flight (charged, its answer lost)
    const plan: Record<number, string> = {
      2: '500',
      4: 'truncate',
      6: 'reset',
      8: 'duplicates',
      9: 'latency;ms=300',
      10: '429;retry-after=1',
      11: '429;retry-after=1',
      12: '429',
      13: '429',
      15: '503',
      16: 'empty-page',
    };
    let cancel: () => void = () => undefined;
    let killed = false;
    const first = await sandboxExporter(sandbox.baseUrl, null, {
      policy: { maxAttempts: 2 },
      faultFor: faults(plan),
      onSend: (n) => {
        if (n === 9) setTimeout(cancel, 50);
        // the process dies while request 18 is in flight (request 17's page is in the journal by then): the
        // service charged it, and the resumed export counts it beside the page it buys again
        if (n === 18) {
          killed = true;
          return 'kill-in-flight';
        }
      },
    });
    const target = join(first.dir, 'x.json');
    const job = await first.service.start({ view, format: 'json', scope: 'all', targetPath: target });
    cancel = () => void first.service.cancel(job.id);
    expect(await first.service.settled(job.id)).toMatchObject({ status: 'partial', stopReason: 'cancelled' });
    await first.service.resume(job.id);
    for (let i = 0; i < 3000 && !killed; i++) await new Promise((r) => setTimeout(r, 10));
    expect(killed).toBe(true);

    // a restart over what the dead process left on disk; a retried 502, then an HTML answer stops it once
    const second = await sandboxExporter(sandbox.baseUrl, null, {
      stateDir: first.stateDir,
      faultFor: faults({ 2: '502', 4: 'non-json' }),
    });
    const [found] = await second.service.list();
    expect(found).toMatchObject({ id: job.id, status: 'interrupted', resumable: true });
    await second.service.resume(job.id);
    expect(await second.service.settled(job.id)).toMatchObject({ status: 'partial', error: { code: 'malformed' } });
    await second.service.resume(job.id);
    expect(await second.service.settled(job.id)).toMatchObject({ status: 'complete', error: null });
    const doc = await read(target);
    await expectExact(doc);
    expect(doc.manifest.failed_fetches.length).toBeGreaterThan(0);
  });
});
