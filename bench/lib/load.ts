/**
 * A bounded load loop: `concurrency` keep-alive connections issue GETs back to
 * back until `maxRequests` are done or `maxMs` has passed, whichever is first.
 * node:http with a keep-alive agent (no extra dependency); on loopback it
 * outruns the single-threaded server it measures.
 */
import http from 'node:http';

export interface LoadOptions {
  url: string | ((k: number) => string);
  concurrency: number;
  maxRequests: number;
  maxMs: number;
  headers?: Record<string, string>;
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  requestsPerSecond: number;
  bytesPerRequest: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
}

export async function load(opts: LoadOptions): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.concurrency });
  const urlOf = typeof opts.url === 'function' ? opts.url : () => opts.url as string;
  const latencies: number[] = [];
  let issued = 0;
  let errors = 0;
  let bytes = 0;
  const started = performance.now();
  const deadline = started + opts.maxMs;

  const one = (url: string): Promise<void> =>
    new Promise((resolve) => {
      const t = performance.now();
      const req = http.get(url, { agent, headers: opts.headers }, (res) => {
        let n = 0;
        res.on('data', (chunk: Buffer) => (n += chunk.length));
        res.on('end', () => {
          if (res.statusCode !== 200) errors++;
          bytes += n;
          latencies.push(performance.now() - t);
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
    });

  const worker = async (): Promise<void> => {
    while (issued < opts.maxRequests && performance.now() < deadline) {
      await one(urlOf(issued++));
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const q = (p: number): number =>
    Math.round((latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0) * 100) / 100;
  return {
    requests: latencies.length,
    errors,
    seconds: Math.round(seconds * 1000) / 1000,
    requestsPerSecond: Math.round(latencies.length / seconds),
    bytesPerRequest: Math.round(bytes / Math.max(1, latencies.length)),
    latencyMs: { p50: q(0.5), p90: q(0.9), p99: q(0.99), max: q(1) },
  };
}
