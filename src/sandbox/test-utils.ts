/** Helpers for the sandbox's own tests (not part of the public API). */
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from './server';

/** a fixed clock: Sun Nov 22 2026 02:13:21 UTC */
export const FIXED_NOW = Date.UTC(2026, 10, 22, 2, 13, 21);

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  json: T;
}

export interface Client {
  sandbox: Sandbox;
  get: <T = Record<string, unknown>>(path: string, headers?: Record<string, string>) => Promise<Answer<T>>;
  control: <T = unknown>(method: string, path: string, body?: unknown) => Promise<Answer<T>>;
}

export function client(sandbox: Sandbox): Client {
  const call = async <T>(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<Answer<T>> => {
    const res = await fetch(sandbox.baseUrl + path, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json: json as T };
  };
  return {
    sandbox,
    get: (path, headers = {}) => call('GET', path, headers),
    control: (method, path, body) => call(method, path, {}, body),
  };
}

/** Start one sandbox for the file (small world and a fixed clock unless told otherwise). */
export function useSandbox(opts: SandboxOptions = {}): () => Client {
  let c: Client | undefined;
  beforeAll(async () => {
    c = client(await startSandbox({ size: 'small', now: () => FIXED_NOW, ...opts }));
  });
  afterAll(async () => {
    await c?.sandbox.close();
  });
  return () => {
    if (!c) throw new Error('sandbox not started');
    return c;
  };
}

export function qs(params: Record<string, string | number | boolean | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** Follow next_cursor to the end; fails on a loop. */
export async function walk(
  c: Client,
  path: string,
  params: Record<string, string | number | boolean | undefined>,
  opts: { headers?: Record<string, string>; maxPages?: number; onPage?: (body: Record<string, unknown>) => void } = {},
): Promise<{ pages: Record<string, unknown>[]; cursors: string[] }> {
  const pages: Record<string, unknown>[] = [];
  const cursors: string[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < (opts.maxPages ?? 2_000); n++) {
    const a = await c.get(path + qs({ ...params, cursor }), opts.headers);
    if (a.status !== 200) throw new Error(`${path}: HTTP ${a.status} ${a.text.slice(0, 200)}`);
    pages.push(a.json);
    opts.onPage?.(a.json);
    const next = a.json.next_cursor as string;
    if (!a.json.has_next_page) {
      if (next !== '') throw new Error(`${path}: last page with next_cursor ${JSON.stringify(next)}`);
      return { pages, cursors };
    }
    if (!next || cursors.includes(next)) throw new Error(`${path}: cursor missing or repeated`);
    cursors.push(next);
    cursor = next;
  }
  throw new Error(`${path}: more than ${opts.maxPages ?? 2_000} pages`);
}
