/**
 * Test wiring: an ExportService over Skein's real API client, pointed at a
 * sandbox, plus an independent plain-fetch walk of the same pages (what the
 * sandbox sent) to compare exports against.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPERATIONS, type OperationId } from '../../../shared/api/catalog';
import { toQueryString } from '../../../shared/api/params';
import { creditsFor } from '../../../shared/api/pricing';
import type { ExportJob } from '../../../shared/ipc/export';
import { createApiClient } from '../../api/client';
import type { FetchLike } from '../../api/transport';
import type { RequestPolicy } from '../../api/execute';
import { createRateLimiter } from '../../api/policy/rate-limiter';
import { systemClock } from '../../clock';
import { clientPageSource } from '../../compose/client-page-source';
import { ExportService, type ExportServiceDeps } from '../export-service';

export interface SandboxExporterOptions {
  /** the `x-sandbox-fault` to send with request `n` (1-based, every request of this exporter) */
  faultFor?: (n: number, url: string) => string | undefined;
  /**
   * called as request `n` leaves. `'kill'`: the request never leaves and never settles (the process died);
   * `'kill-in-flight'`: it reaches the service (which charges it) and its answer never comes back
   */
  onSend?: (n: number, url: string) => void | 'kill' | 'kill-in-flight';
  policy?: Partial<RequestPolicy>;
  /** an existing state folder (a restart) */
  stateDir?: string;
  onUpdate?: (job: ExportJob) => void;
  /** hydrations: where id imports are kept (an `ids` feature over this folder) */
  ids?: Pick<ExportServiceDeps, 'importedIds' | 'onMissing'>;
  /** hydrations: the current project, whose ids are taken from it rather than bought */
  project?: ExportServiceDeps['project'];
  /** what sends the requests (default: this thread's `fetch`); the faults and hooks above still apply */
  fetch?: FetchLike;
}

export async function sandboxExporter(
  baseUrl: string,
  key: string | null = null,
  options: SandboxExporterOptions = {},
) {
  const dir = await mkdtemp(join(tmpdir(), 'skein-export-sbx-'));
  let sent = 0;
  const limiter = createRateLimiter(systemClock, Infinity);
  const client = createApiClient({
    target: async () => ({ baseUrl, key, limiter }),
    fetch: (url, init) => {
      const n = ++sent;
      const fault = options.faultFor?.(n, url);
      const sendHook = options.onSend?.(n, url);
      if (sendHook === 'kill') return new Promise<never>(() => undefined);
      const answer = (options.fetch ?? fetch)(
        url,
        fault ? { ...init, headers: { ...(init.headers as Record<string, string>), 'x-sandbox-fault': fault } } : init,
      );
      return sendHook === 'kill-in-flight' ? answer.then(() => new Promise<never>(() => undefined)) : answer;
    },
    policy: options.policy,
    clock: systemClock,
    usage: {
      record: (r) =>
        creditsFor({ operation: r.operation, httpStatus: r.httpStatus, items: r.items, idsAsked: r.idsAsked }),
    },
    secrets: () => (key ? [key] : []),
  });
  const stateDir = options.stateDir ?? join(dir, 'state');
  const service = new ExportService({
    source: clientPageSource(client),
    stateDir,
    clock: systemClock,
    context: () => ({ appName: 'Skein', appVersion: '0.1.0', mode: 'demo', baseUrl }),
    onUpdate: options.onUpdate,
    ...options.ids,
    project: options.project,
    // the user confirms looser caps on resume in main's dialog
    confirm: async () => true,
  });
  return { dir, client, service, stateDir };
}

export interface WalkedPage {
  cursor: string | null;
  nextCursor: string | null;
  items: unknown[];
}

/** Every page of an operation as the sandbox answers it, by plain HTTP. */
export async function walk(
  baseUrl: string,
  operation: OperationId,
  params: Record<string, string | number | boolean>,
): Promise<WalkedPage[]> {
  const op = OPERATIONS[operation];
  const pages: WalkedPage[] = [];
  let cursor: string | null = null;
  for (;;) {
    const query = toQueryString(operation, cursor === null ? params : { ...params, cursor });
    const res = await fetch(`${baseUrl}${op.path}?${query}`);
    if (!res.ok) throw new Error(`${op.path}: HTTP ${res.status}`);
    const body = (await res.json()) as Record<string, unknown>;
    const collection = body[op.collectionKey];
    const items = Array.isArray(collection) ? collection : [collection];
    const next =
      op.paged && body.has_next_page === true && typeof body.next_cursor === 'string' && body.next_cursor
        ? body.next_cursor
        : null;
    pages.push({ cursor, nextCursor: next, items });
    if (next === null) return pages;
    cursor = next;
  }
}

/** Items of a walk without repeats (first occurrence wins), and how many repeats there were. */
export function unique(items: unknown[]): { items: unknown[]; duplicates: number } {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const it of items) {
    const id = (it as { id?: unknown } | null)?.id;
    if (typeof id === 'string') {
      if (seen.has(id)) continue;
      seen.add(id);
    }
    out.push(it);
  }
  return { items: out, duplicates: items.length - out.length };
}
