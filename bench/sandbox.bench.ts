/**
 * `npm run bench:sandbox`: world generation time and requests per second for
 * a 20-post page on loopback. Prints the numbers and writes
 * bench/results/sandbox.json. A measurement, not a test: it never fails on a
 * budget (aim: generation <= 2 s at default size, >= 3,000 req/s).
 */
import { fork } from 'node:child_process';
import { buildSandbox, PAGE_SIZE, type DemoExamples } from '../src/sandbox';
import { load } from './lib/load';
import { writeResults } from './lib/results';
import { benchFile } from './lib/runtime';

const GENERATION_BUDGET_MS = 2_000;
const RPS_AIM = 3_000;

function generation(size: 'small' | 'default'): number {
  const built = buildSandbox({ size });
  const ms = built.state.world.buildMs;
  built.shutdown();
  return Math.round(ms);
}

interface Ready {
  baseUrl: string;
  examples: DemoExamples;
  startMs: number;
}

interface Server {
  ready: Ready;
  /** server CPU time so far, µs (user + system) */
  cpu: () => Promise<number>;
  stop: () => void;
}

async function serverProcess(): Promise<Server> {
  const child = fork(benchFile('lib/sandbox-server.ts'), {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Ready));
    child.once('exit', (code) => reject(new Error(`sandbox process exited (${code})`)));
  });
  const cpu = (): Promise<number> =>
    new Promise((resolve) => {
      child.once('message', (m) => {
        const { user, system } = (m as { cpu: NodeJS.CpuUsage }).cpu;
        resolve(user + system);
      });
      child.send('cpu');
    });
  return { ready, cpu, stop: () => child.disconnect() };
}

// 1. generation, in this process: the first build is cold (JIT), the next ones warm
const cold = generation('default');
const warm = Math.min(generation('default'), generation('default'));
const small = generation('small');
console.log(
  `world generation (default size): ${cold} ms cold, ${warm} ms warm; small: ${small} ms  (budget ${GENERATION_BUDGET_MS} ms)`,
);

// 2. throughput, against a sandbox in its own process
const { ready, cpu, stop } = await serverProcess();
const { baseUrl, examples } = ready;
console.log(`sandbox process ready in ${Math.round(ready.startMs)} ms at ${baseUrl}`);
const pages = {
  timeline: `${baseUrl}/social/user/tweet_timeline?userId=${examples.profile.id}`,
  quotes: `${baseUrl}/social/tweet/quotes?tweetId=${examples.muchQuotedPostId}`,
};
const results: Record<string, unknown> = {};
try {
  for (const [name, url] of Object.entries(pages)) {
    await load({ url, concurrency: 8, maxRequests: 1_000, maxMs: 3_000 }); // warm-up
    const before = await cpu();
    const r = await load({ url, concurrency: 32, maxRequests: 40_000, maxMs: 8_000 });
    const serverCpuUsPerRequest = Math.round((await cpu()) - before) / r.requests;
    const capacity = Math.round(1e6 / serverCpuUsPerRequest);
    results[name] = { ...r, serverCpuUsPerRequest: Math.round(serverCpuUsPerRequest), serverCapacityPerCore: capacity };
    console.log(
      `${PAGE_SIZE}-post page (${name}): ${r.requestsPerSecond} req/s over ${r.requests} requests in ${r.seconds} s, ` +
        `${r.errors} errors, ${Math.round(r.bytesPerRequest / 1024)} KiB each, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms  (aim >= ${RPS_AIM})\n` +
        `    server CPU ${Math.round(serverCpuUsPerRequest)} µs per request = ${capacity} req/s per free core (independent of machine load)`,
    );
  }
  // pages never seen before: the cost of drawing posts lazily, page by page
  let cursor = '';
  const t = performance.now();
  let n = 0;
  do {
    const res = await fetch(
      `${baseUrl}/social/tweet/replies/v2?tweetId=${examples.bigThreadPostId}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    cursor = ((await res.json()) as { next_cursor: string }).next_cursor;
    n++;
  } while (cursor && n < 1_000);
  const walkMs = Math.round(performance.now() - t);
  results.bigThreadWalk = { pages: n, ms: walkMs, msPerPage: Math.round((walkMs / n) * 100) / 100 };
  console.log(`walking the ${n}-page conversation once, cold: ${walkMs} ms (${(walkMs / n).toFixed(2)} ms per page)`);
} finally {
  stop();
}

const file = writeResults('sandbox', {
  generation: { defaultColdMs: cold, defaultWarmMs: warm, smallMs: small, budgetMs: GENERATION_BUDGET_MS },
  sandboxProcessStartMs: Math.round(ready.startMs),
  throughput: results,
  aims: { requestsPerSecond: RPS_AIM },
});
console.log(`wrote ${file}`);
