/**
 * `npm run bench:hydrate`: hydrating an id file end to end (held to hydration's budgets), against the unpaced sandbox
 * answering any id (`anyIds`, 10% not found). The parent runs the sandbox, so its ledger outlives the
 * hydrating child; each child is its own process, so its peak RSS is its own.
 *
 * 1. Throughput and memory: for each count (default 100,000 and 1,000,000 post ids) a child reads the id
 *    file into an id list (the real ImportStore), hydrates it with the real ExportService and API client
 *    (batches of 100, journaled, JSONL out) and reports ids/s end to end and its peak RSS.
 *    Budget: >= 3,000 ids/s, <= 300 MB, flat as the count grows.
 * 2. Crash: a child hydrating 30,000 ids (BENCH_CRASH_COUNT; 0: no crash run) is killed with SIGKILL at a random
 *    moment; a second child resumes the interrupted job. The sandbox's ledger says how many batches were bought,
 *    the file how many ids came back.
 *    Budget: no batch bought twice but the one in flight at the kill, no id lost.
 * A measurement, not a test: it prints the figures and writes bench/results/hydrate.json.
 * Each child holds its young generations as the app does (BENCH_YOUNG=free: V8's own sizing, to compare).
 * To study the process's memory: BENCH_TRACE=1, BENCH_NODE_FLAGS, BENCH_SNAPSHOT; BENCH_IN_WORKER=young,old
 * (the child hydrates in a worker with those resource limits), with BENCH_FETCH_IN_MAIN=1 (its requests leave
 * from the child's main thread, which hands the worker the answers' bytes; `=http`: sent there with `node:http`).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeHeapSnapshot } from 'node:v8';
import { MessageChannel, Worker, isMainThread, parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { ViewDescriptor } from '../src/shared/ipc/export';
import { createIdsFeature } from '../src/core/ids/handlers';
import { startSandbox } from '../src/sandbox';
import { sandboxExporter } from '../src/core/export/testing/sandbox-export';
import { writeResults } from './lib/results';
import { OWN_EXEC_ARGV, YOUNG_GENERATION, youngGenerationAsTheApp } from './lib/runtime';

const COUNTS = (process.env.BENCH_COUNTS ?? '100000,1000000').split(',').map(Number);
const CRASH_COUNT = Number(process.env.BENCH_CRASH_COUNT ?? 30_000);
const AIM = { idsPerSecond: 3000, peakRssMb: 300 };

/** Post ids as a shared dataset has them: 19 digits, above 2^53. */
function idAt(i: number): string {
  return String(1_600_000_000_000_000_000n + BigInt(i) * 7919n);
}

async function writeIdFile(path: string, count: number): Promise<void> {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) lines.push(idAt(i));
  await writeFile(path, `${lines.join('\n')}\n`);
}

interface ChildArgs {
  mode: 'run' | 'resume';
  baseUrl: string;
  dir: string;
  idFile: string;
}

interface ChildResult {
  importMs: number;
  hydrateMs: number;
  ids: number;
  items: number;
  calls: number;
  pages: number;
  peakRssMb: number;
  /** the largest V8 heap in use seen (sampled every 100 ms): what the code holds, without the allocator's slack */
  peakHeapMb: number;
}

/** the child's messages to the parent: from its main thread, or from the worker it runs in (BENCH_IN_WORKER) */
function send(message: unknown): void {
  if (isMainThread) process.send?.(message);
  else parentPort?.postMessage(message);
}

interface Sent {
  n: number;
  url: string;
  headers: Record<string, string>;
}
interface Bytes {
  status: number;
  headers: Array<[string, string]>;
  body: ArrayBuffer;
}
type Answered = (Bytes & { n: number }) | { n: number; error: string };

/** One GET on `node:http`: the status, the headers and the body's bytes. */
function httpGet(url: string, headers: Record<string, string>): Promise<Bytes> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('error', reject);
      res.once('end', () => {
        const bytes = Buffer.concat(chunks);
        const pairs: Array<[string, string]> = [];
        for (const [name, value] of Object.entries(res.headers))
          for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined) pairs.push([name, v]);
        resolve({
          status: res.statusCode ?? 0,
          headers: pairs,
          body: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
        });
      });
    })
      .once('error', reject)
      .end();
  });
}

/**
 * The child's main thread sends the worker's requests and hands back each answer's bytes, unparsed: through
 * Node's `fetch`, or through `node:http` (BENCH_FETCH_IN_MAIN=http).
 */
function serveFetch(port: MessagePort, via: string): void {
  port.on('message', ({ n, url, headers }: Sent) => {
    const answer =
      via === 'http'
        ? httpGet(url, headers)
        : fetch(url, { method: 'GET', headers, redirect: 'manual' }).then(async (res) => ({
            status: res.status,
            headers: [...res.headers],
            body: await res.arrayBuffer(),
          }));
    void answer
      .then((a) => port.postMessage({ n, ...a } satisfies Answered, [a.body]))
      .catch((error: unknown) => port.postMessage({ n, error: String(error) } satisfies Answered));
  });
}

/** In the worker: a fetch whose request leaves from the main thread (as a key kept in main would need). */
function fetchThrough(port: MessagePort): (url: string, init: RequestInit) => Promise<Response> {
  let sent = 0;
  const waiting = new Map<number, { resolve: (r: Response) => void; reject: (e: Error) => void }>();
  port.on('message', (a: Answered) => {
    const w = waiting.get(a.n);
    waiting.delete(a.n);
    // the port keeps the worker alive only while an answer is awaited
    if (waiting.size === 0) port.unref();
    if ('error' in a) w?.reject(new TypeError(a.error));
    else w?.resolve(new Response(a.body, { status: a.status, headers: a.headers }));
  });
  return (url, init) =>
    new Promise((resolve, reject) => {
      const n = ++sent;
      waiting.set(n, { resolve, reject });
      port.ref();
      port.postMessage({ n, url, headers: init.headers as Record<string, string> } satisfies Sent);
    });
}

/**
 * BENCH_IN_WORKER=young,old (MB): the child hydrates in a worker thread with those `resourceLimits`, to measure what
 * a heap bounded by design costs the process (its peak RSS is the whole process's, both threads). With
 * BENCH_FETCH_IN_MAIN=1 the requests leave from the child's main thread, which hands the worker bytes.
 */
function inWorker(limits: string, args: string): Promise<void> {
  const [young, old] = limits.split(',').map(Number);
  const via = process.env.BENCH_FETCH_IN_MAIN;
  const channel = via ? new MessageChannel() : null;
  if (channel && via) serveFetch(channel.port1, via);
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), {
      argv: ['--child', args],
      execArgv: OWN_EXEC_ARGV,
      resourceLimits: { maxYoungGenerationSizeMb: young, ...(old ? { maxOldGenerationSizeMb: old } : {}) },
      workerData: { fetchPort: channel?.port2 },
      transferList: channel ? [channel.port2] : [],
    });
    worker.on('message', (m: ChildResult | { started: true }) => {
      if ('started' in m) return process.send?.(m);
      // the process's peak, both threads: getrusage from this thread
      process.send?.({ ...m, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) });
    });
    worker.once('error', reject);
    worker.once('exit', () => {
      channel?.port1.close();
      resolve();
    });
  });
}

/** In the child: read the file into a list and hydrate it (or resume the interrupted hydration). */
async function child({ mode, baseUrl, dir, idFile }: ChildArgs): Promise<ChildResult> {
  let peakHeap = 0;
  let ticks = 0;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed);
    // BENCH_TRACE=1: the child's memory every 2 s, to see what grows with n
    if (process.env.BENCH_TRACE && ++ticks % 20 === 0)
      console.error(
        `  rss ${Math.round(m.rss / 2 ** 20)} MB, heap ${Math.round(m.heapUsed / 2 ** 20)}/${Math.round(m.heapTotal / 2 ** 20)} MB, external ${Math.round(m.external / 2 ** 20)} MB`,
      );
  }, 100);
  const ids = createIdsFeature({ userDataDir: dir, now: Date.now });
  const fetchPort = isMainThread ? undefined : (workerData as { fetchPort?: MessagePort }).fetchPort;
  const { service } = await sandboxExporter(baseUrl, null, {
    stateDir: join(dir, 'exports'),
    ids,
    ...(fetchPort ? { fetch: fetchThrough(fetchPort) } : {}),
  });
  const t0 = performance.now();
  let importMs = 0;
  let jobId: string;
  let count = 0;
  if (mode === 'run') {
    const list = ids.store.create('posts', 'ids.txt', { format: 'txt' });
    for await (const chunk of createReadStream(idFile, { encoding: 'utf8', highWaterMark: 256 * 1024 })) {
      ids.store.append(list.importId, chunk as string);
    }
    const sealed = await ids.store.seal(list.importId);
    count = sealed.ids;
    importMs = performance.now() - t0;
    const view: ViewDescriptor = {
      kind: 'postsByIds',
      operation: 'postsByIds',
      params: {},
      idsFrom: list.importId,
      title: 'ids.txt',
    };
    const job = await service.start({ view, format: 'jsonl', scope: 'all', targetPath: join(dir, 'out.jsonl') });
    jobId = job.id;
    send({ started: true });
    if (process.env.BENCH_SNAPSHOT) {
      const at = Number(process.env.BENCH_SNAPSHOT_AT ?? 1000);
      const timer = setInterval(() => {
        void service.status(job.id).then((s) => {
          if (s.progress.pages < at) return;
          clearInterval(timer);
          console.error(
            `  heap snapshot at ${s.progress.pages} pages: ${writeHeapSnapshot(process.env.BENCH_SNAPSHOT)}`,
          );
        });
      }, 200);
    }
  } else {
    const [interrupted] = await service.list();
    if (!interrupted) throw new Error('no interrupted job to resume');
    jobId = interrupted.id;
    await service.resume(jobId);
  }
  const done = await service.settled(jobId);
  clearInterval(sampler);
  if (done.status !== 'complete') throw new Error(`hydration ended ${done.status}: ${done.error?.message ?? ''}`);
  return {
    importMs: Math.round(importMs),
    hydrateMs: Math.round(performance.now() - t0 - importMs),
    ids: count,
    items: done.progress.items,
    calls: done.progress.calls,
    pages: done.progress.pages,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    peakHeapMb: Math.round(peakHeap / 2 ** 20),
  };
}

function forkChild(args: ChildArgs): ChildProcess {
  return fork(fileURLToPath(import.meta.url), ['--child', JSON.stringify(args)], {
    // BENCH_NODE_FLAGS: extra V8/Node flags for the child (e.g. --trace-gc), to study its memory
    execArgv: [...OWN_EXEC_ARGV, ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

function result(proc: ChildProcess): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    proc.on('message', (m) => {
      if ((m as { started?: boolean }).started) return;
      resolve(m as ChildResult);
    });
    proc.once('error', reject);
    // a child that ends without its figures (a crash, an unsettled wait) fails the run instead of hanging it
    proc.once('exit', (code, signal) => reject(new Error(`bench child exited ${code ?? signal} before reporting`)));
  });
}

async function ledgerCalls(baseUrl: string): Promise<number> {
  const usage = (await (await fetch(`${baseUrl}/__sandbox/usage`)).json()) as { totals: { calls: number } };
  return usage.totals.calls;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') {
    if (isMainThread) youngGenerationAsTheApp();
    if (isMainThread && process.env.BENCH_IN_WORKER) return inWorker(process.env.BENCH_IN_WORKER, args[1] ?? '{}');
    send(await child(JSON.parse(args[1] ?? '{}') as ChildArgs));
    return;
  }
  const loadBefore = loadavg()[0] ?? 0;
  const sandbox = await startSandbox({ size: 'small', anyIds: { notFoundPercent: 10 } });
  const reset = () => fetch(`${sandbox.baseUrl}/__sandbox/usage/reset`, { method: 'POST' });
  const runs: Array<ChildResult & { count: number; idsPerSecond: number; ledgerCalls: number }> = [];
  try {
    for (const count of COUNTS) {
      const dir = await mkdtemp(join(tmpdir(), 'skein-bench-hydrate-'));
      try {
        const idFile = join(dir, 'ids.txt');
        await writeIdFile(idFile, count);
        await reset();
        const r = await result(forkChild({ mode: 'run', baseUrl: sandbox.baseUrl, dir, idFile }));
        const idsPerSecond = Math.round(count / ((r.importMs + r.hydrateMs) / 1000));
        runs.push({ ...r, count, idsPerSecond, ledgerCalls: await ledgerCalls(sandbox.baseUrl) });
        console.log(
          `hydrate ${count.toLocaleString('en-US')} ids: ${idsPerSecond} ids/s end to end (read ${r.importMs} ms, hydrate ${r.hydrateMs} ms), ${r.items} found, ${r.calls} calls for ${r.pages} batches (ledger ${runs.at(-1)!.ledgerCalls}), peak RSS ${r.peakRssMb} MB (heap in use ${r.peakHeapMb} MB)`,
        );
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }

    // crash: SIGKILL at a random moment, then resume in a new process (BENCH_CRASH_COUNT=0: none)
    let crash: Record<string, unknown> | null = null;
    if (CRASH_COUNT > 0) {
      const dir = await mkdtemp(join(tmpdir(), 'skein-bench-hydrate-kill-'));
      try {
        const idFile = join(dir, 'ids.txt');
        await writeIdFile(idFile, CRASH_COUNT);
        await reset();
        const first = forkChild({ mode: 'run', baseUrl: sandbox.baseUrl, dir, idFile });
        await new Promise<void>((resolve) =>
          first.on('message', (m) => (m as { started?: boolean }).started && resolve()),
        );
        const after = 200 + Math.floor(Math.random() * 1500);
        await new Promise((r) => setTimeout(r, after));
        // a short list may be done before the kill: its child has exited already
        if (first.exitCode === null && first.signalCode === null) {
          const exited = new Promise((r) => first.once('exit', r));
          first.kill('SIGKILL');
          await exited;
        }
        const boughtBeforeKill = await ledgerCalls(sandbox.baseUrl);
        const resumed = await result(forkChild({ mode: 'resume', baseUrl: sandbox.baseUrl, dir, idFile }));
        const calls = await ledgerCalls(sandbox.baseUrl);
        const batches = Math.ceil(CRASH_COUNT / 100);
        const written = (await readFile(join(dir, 'out.jsonl'), 'utf8')).trim().split('\n').length;
        crash = {
          ids: CRASH_COUNT,
          killedAfterMs: after,
          boughtBeforeKill,
          ledgerCalls: calls,
          batches,
          boughtTwice: calls - batches,
          found: resumed.items,
          written,
          lost: resumed.items - written,
        };
        console.log(
          `kill -9 after ${after} ms (${boughtBeforeKill} of ${batches} batches bought), resumed: ledger ${calls} calls for ${batches} batches (bought twice: ${calls - batches}), ${written} ids written of ${resumed.items} found`,
        );
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }

    const file = writeResults('hydrate', {
      aim: AIM,
      cpus: cpus().length,
      loadBefore,
      loadAfter: loadavg()[0] ?? 0,
      runs,
      crash,
    });
    console.log(
      `${YOUNG_GENERATION}. aim: >= ${AIM.idsPerSecond} ids/s, <= ${AIM.peakRssMb} MB peak RSS; written ${file}`,
    );
  } finally {
    await sandbox.close();
  }
}

await main();
