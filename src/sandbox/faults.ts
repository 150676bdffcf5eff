/**
 * Fault and quirk injection. A fault spec is the same text in the
 * `x-sandbox-fault` request header and in `POST /__sandbox/faults`:
 *
 *   spec  = fault *( "," fault )
 *   fault = name *( ";" key [ "=" value ] )
 *
 * e.g. `429;retry-after=2`, `latency;ms=300, 503`, `empty-page`, `page-size;n=35`.
 * See README.md for every name.
 */
import type { OperationId } from '../shared/api';
import { RECORDED_403_BODY, RECORDED_429_BODY } from '../shared/api/fixtures/recorded-round2';

const STATUS_FAULTS = [
  '400',
  '401',
  '402',
  '403',
  '429',
  '500',
  '502',
  '503',
  'status-error',
  // the live bodies of round 2 (api-field-notes.md): `;relay` delivers them inside an HTTP 200
  '429-free-tier',
  '403-key-required',
] as const;
const CONNECTION_FAULTS = ['hang', 'reset'] as const;
const BODY_FAULTS = ['truncate', 'non-json'] as const;
/** paging quirks (paged operations) */
export const PAGING_QUIRKS = ['empty-page', 'no-cursor', 'repeat-cursor', 'duplicates', 'page-size'] as const;
/** answer-shape quirks: the live-service variants of `api-field-notes.md` */
export const SHAPE_QUIRKS = [
  'swap-msg',
  'both-msg',
  'no-msg',
  'code-0',
  'replies-under-tweets',
  'timeline-data',
  'search-bare',
  'trends-nested',
  'detail-string',
  'live-objects',
  'live-defaults',
  // confirmed on real recorded bodies (quirks-recorded.ts)
  'recorded-posts',
  'recorded-envelopes',
  'recorded-users',
  'community-live',
  'space-documented',
  'trends-unwrapped',
  'members-live',
  'not-started-404',
  // the second round of recordings (quirks-round2.ts)
  'deleted-quotes',
  'cards',
  'automated',
  'mentions-not-replies',
  'empty-nones',
  'trends-live',
] as const;
export const FAULT_NAMES = [
  'latency',
  ...CONNECTION_FAULTS,
  ...STATUS_FAULTS,
  ...BODY_FAULTS,
  ...PAGING_QUIRKS,
  ...SHAPE_QUIRKS,
] as const;
export type FaultName = (typeof FAULT_NAMES)[number];
export type QuirkName = (typeof PAGING_QUIRKS)[number] | (typeof SHAPE_QUIRKS)[number];

export interface Fault {
  name: FaultName;
  params: Record<string, string>;
}

export class FaultSyntaxError extends Error {}

const KNOWN = new Set<string>(FAULT_NAMES);

export function parseFaults(spec: string): Fault[] {
  const out: Fault[] = [];
  for (const part of spec.split(',')) {
    const [rawName = '', ...rawParams] = part.split(';').map((s) => s.trim());
    const name = rawName.toLowerCase();
    if (!name) continue;
    if (!KNOWN.has(name)) throw new FaultSyntaxError(`unknown fault "${rawName}"; known: ${FAULT_NAMES.join(', ')}`);
    const params: Record<string, string> = {};
    for (const p of rawParams) {
      if (!p) continue;
      const eq = p.indexOf('=');
      params[(eq < 0 ? p : p.slice(0, eq)).trim().toLowerCase()] = eq < 0 ? 'true' : p.slice(eq + 1).trim();
    }
    if ('ms' in params && !/^\d+$/.test(params.ms)) throw new FaultSyntaxError(`${name}: ms must be a whole number`);
    if ('retry-after' in params && !/^\d+$/.test(params['retry-after']))
      throw new FaultSyntaxError(`${name}: retry-after must be whole seconds`);
    if ('n' in params && !/^[1-9]\d{0,2}$/.test(params.n)) throw new FaultSyntaxError(`${name}: n must be 1-999`);
    out.push({ name: name as FaultName, params });
  }
  return out;
}

/** Everything that applies to one request, folded from the header and the active rules. */
export interface FaultPlan {
  names: string[];
  latencyMs: number;
  connection?: Fault;
  status?: Fault;
  body?: Fault;
  quirks: Map<QuirkName, Fault>;
}

export function plan(faults: readonly Fault[]): FaultPlan {
  const p: FaultPlan = { names: [], latencyMs: 0, quirks: new Map() };
  for (const f of faults) {
    p.names.push(f.name);
    if (f.name === 'latency') p.latencyMs += Number(f.params.ms ?? 1000);
    else if ((CONNECTION_FAULTS as readonly string[]).includes(f.name)) p.connection ??= f;
    else if ((STATUS_FAULTS as readonly string[]).includes(f.name)) p.status ??= f;
    else if ((BODY_FAULTS as readonly string[]).includes(f.name)) p.body ??= f;
    else p.quirks.set(f.name as QuirkName, f);
  }
  return p;
}

export interface FaultRuleInput {
  fault: string;
  /** active for this long (sandbox clock), else until used `count` times or cleared */
  forMs?: number;
  /** active for this many matching requests */
  count?: number;
  /** only these operations (default: all) */
  operations?: OperationId[];
}

export interface FaultRule {
  id: number;
  fault: string;
  faults: Fault[];
  until: number | null;
  remaining: number | null;
  operations: OperationId[] | null;
}

/** Faults for a period or a number of requests, set through the control plane. */
export class FaultRules {
  private rules: FaultRule[] = [];
  private nextId = 1;

  add(input: FaultRuleInput, now: number): FaultRule {
    const rule: FaultRule = {
      id: this.nextId++,
      fault: input.fault,
      faults: parseFaults(input.fault),
      until: input.forMs !== undefined ? now + input.forMs : null,
      remaining: input.count ?? null,
      operations: input.operations?.length ? input.operations : null,
    };
    this.rules.push(rule);
    return rule;
  }

  /** the faults of every rule matching this request; counts are consumed */
  take(op: OperationId, now: number): Fault[] {
    this.rules = this.rules.filter((r) => r.until === null || r.until > now);
    if (!this.rules.length) return [];
    const out: Fault[] = [];
    for (const r of this.rules) {
      if (r.operations && !r.operations.includes(op)) continue;
      out.push(...r.faults);
      if (r.remaining !== null) r.remaining--;
    }
    this.rules = this.rules.filter((r) => r.remaining === null || r.remaining > 0);
    return out;
  }

  list(now: number): FaultRule[] {
    return this.rules.filter((r) => r.until === null || r.until > now);
  }

  remove(id: number): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((r) => r.id !== id);
    return this.rules.length < before;
  }

  clear(): void {
    this.rules = [];
  }
}

const STATUS_TEXT: Record<string, string> = {
  '400': 'Bad Request',
  '500': 'Internal Server Error',
  '502': 'Bad Gateway',
  '503': 'Service Unavailable',
};

/** HTTP status, headers and body of a status fault */
export function statusFaultAnswer(
  f: Fault,
  now: number,
): { status: number; headers: Record<string, string>; body: unknown } {
  const headers: Record<string, string> = {};
  const retryAfter = f.params['retry-after'];
  if (retryAfter !== undefined) {
    headers['retry-after'] =
      f.params.as === 'date' ? new Date(now + Number(retryAfter) * 1000).toUTCString() : retryAfter;
  }
  switch (f.name) {
    case 'status-error':
      return { status: 200, headers, body: { status: 'error', msg: f.params.msg ?? 'user not found', data: null } };
    case '401':
    case '403':
      // the recorded live body
      return { status: Number(f.name), headers, body: { error: 'Unauthorized', message: 'API key is invalid' } };
    case '402':
      return {
        status: 402,
        headers,
        body: { error: 'Unauthorized', message: 'Credits is not enough.Please recharge' },
      };
    case '429':
      return { status: 429, headers, body: { error: 'Too Many Requests', message: 'Rate limit exceeded, slow down' } };
    case '429-free-tier':
      return { status: 'relay' in f.params ? 200 : 429, headers, body: RECORDED_429_BODY };
    case '403-key-required':
      return { status: 'relay' in f.params ? 200 : 403, headers, body: RECORDED_403_BODY };
    case '400':
      return { status: 400, headers, body: { detail: f.params.detail ?? 'Bad request' } };
    default:
      return { status: Number(f.name), headers, body: { message: STATUS_TEXT[f.name] ?? 'Error' } };
  }
}

export const NON_JSON_BODY =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>The upstream server returned an invalid response.</p></body></html>';
