/**
 * The life of one `/social/` request: faults, key, availability, validation,
 * the operation's view, paging, envelope, quirks, the ledger and the log.
 * Nothing here knows a particular operation: envelopes come from the catalog.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OPERATIONS, type OperationId } from '../shared/api';
import { cursorScope, type CursorCodec } from './cursor';
import {
  FaultSyntaxError,
  NON_JSON_BODY,
  parseFaults,
  plan,
  statusFaultAnswer,
  type FaultPlan,
  type FaultRules,
} from './faults';
import type { MediaLog, RequestLog, UsageLedger } from './ledger';
import { applyShapeQuirks } from './quirks';
import type { SandboxClock } from './clock';
import { cursorError, detailAsString, parseQuery, type DetailItem } from './validation';
import { idList, type Answers, type AvailableOperationId, type Sequence, type ViewContext } from './answers';
import type { World } from './world';
import type { LRUCache } from 'lru-cache';

export const PAGE_SIZE = 20;
/** items repeated from the previous page under the `duplicates` quirk */
export const DUPLICATE_OVERLAP = 5;
const JSON_TYPE = 'application/json; charset=utf-8';

export interface SandboxState {
  world: World;
  /** what each operation answers (answers.ts) */
  byOperation: Answers;
  clock: SandboxClock;
  ledger: UsageLedger;
  log: RequestLog;
  /** every request for a media file: what a media keeper fetched, and how often */
  mediaLog: MediaLog;
  /** every request for a page of the small web (web.ts): what a page keeper fetched */
  webLog: MediaLog;
  /** every request to the save service stand-in (save-standin.ts): which URLs were sent, and when */
  saveLog: MediaLog;
  rules: FaultRules;
  codec: CursorCodec;
  requiredKey: string | undefined;
  /** sockets of requests that will never be answered (`hang`), destroyed on close */
  hanging: Set<Socket>;
  sleep: (ms: number) => Promise<void>;
  /**
   * Serialized answers by request URL: the world is immutable, so an answer without quirks and
   * not tied to the clock is rendered once. Kept as UTF-8 bytes: writing a non-ASCII string costs
   * ~3x more CPU than writing a Buffer.
   */
  answers: LRUCache<string, { json: Buffer; items: number }>;
}

type AnyOutcome =
  | { notFound: string }
  | (({ sequence: Sequence; render: (i: number) => unknown } | { data: unknown } | { items: unknown[] }) & {
      volatile?: true;
    });

interface Answer {
  status: number;
  /** a value to serialize, or bytes ready to send */
  body: unknown;
  headers?: Record<string, string>;
  /** items a client can count in the answer */
  items: number;
}

export async function handleSocial(
  s: SandboxState,
  id: OperationId,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const started = performance.now();
  const raw = (req.query ?? {}) as Record<string, unknown>;
  const keySent = req.headers['x-api-key'];
  const log = (status: number, p?: FaultPlan): void =>
    s.log.add({
      at: s.clock.now(),
      method: req.method,
      url: req.url,
      operation: id,
      status,
      ms: Math.round((performance.now() - started) * 100) / 100,
      key: keySent === undefined ? 'none' : 'sent',
      ...(p?.names.length ? { faults: p.names } : {}),
    });

  let p: FaultPlan;
  try {
    const header = req.headers['x-sandbox-fault'];
    p = plan([...(typeof header === 'string' ? parseFaults(header) : []), ...s.rules.take(id, s.clock.now())]);
  } catch (e) {
    if (!(e instanceof FaultSyntaxError)) throw e;
    log(400);
    await reply
      .code(400)
      .type(JSON_TYPE)
      .send(JSON.stringify({ detail: `x-sandbox-fault: ${e.message}` }));
    return; // a mistake in the test, not a call: not in the ledger
  }
  const asked = idsAsked(id, raw);
  const record = (status: number, items: number): void => {
    s.ledger.record({
      at: s.clock.now(),
      operation: id,
      status,
      items,
      idsAsked: asked,
      ...(p.names.length ? { faults: p.names } : {}),
    });
    log(status, p);
  };

  if (p.latencyMs > 0) await s.sleep(p.latencyMs);
  if (p.connection) {
    record(0, 0);
    reply.hijack();
    const socket = req.raw.socket;
    if (p.connection.name === 'reset') {
      socket.destroy();
    } else {
      s.hanging.add(socket);
      socket.once('close', () => s.hanging.delete(socket));
    }
    return;
  }

  const answer = answerFor(s, id, req.url, raw, p, keySent);
  let json = Buffer.isBuffer(answer.body) ? answer.body : JSON.stringify(answer.body);
  let type = JSON_TYPE;
  let items = answer.items;
  if (p.body && answer.status === 200) {
    items = 0;
    if (p.body.name === 'truncate') {
      const text = json.toString();
      json = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
    } else {
      json = NON_JSON_BODY;
      type = 'text/html; charset=utf-8';
    }
  }
  record(answer.status, items);
  await reply
    .code(answer.status)
    .headers(answer.headers ?? {})
    .type(type)
    .send(json);
}

function answerFor(
  s: SandboxState,
  id: OperationId,
  url: string,
  raw: Record<string, unknown>,
  p: FaultPlan,
  keySent: unknown,
): Answer {
  const op = OPERATIONS[id];
  const now = s.clock.now();
  if (s.requiredKey !== undefined && !keyMatches(keySent, s.requiredKey)) {
    const message = keySent === undefined ? 'Missing API key: send it in the x-api-key header' : 'Invalid API key';
    return { status: 401, items: 0, body: { error: 'Unauthorized', message } };
  }
  // an HTTP-date Retry-After is wall-clock time, like the Date header, not the sandbox clock
  if (p.status) return { ...statusFaultAnswer(p.status, Date.now()), items: 0 };
  const announcedAnswering =
    p.quirks.has('members-live') && (id === 'communityMembers' || id === 'communityModerators');
  if (!op.available && !announcedAnswering) {
    return {
      status: 501,
      items: 0,
      body: {
        detail: `Not implemented: "${op.title}" (${op.path}) is announced by the API but not available yet. This call is not charged.`,
      },
    };
  }
  // the world as it is now (it moves on the sandbox clock); an answer is cached for one state of it
  s.world.setMoment(now);
  const cacheKey = `${url}@${s.world.stateKey()}`;
  const hit = p.quirks.size ? undefined : s.answers.get(cacheKey);
  if (hit) return { status: 200, body: hit.json, items: hit.items };
  const invalid = (detail: DetailItem[]): Answer =>
    p.quirks.has('detail-string')
      ? { status: 400, items: 0, body: { detail: detailAsString(detail) } }
      : { status: 422, items: 0, body: { detail } };
  const parsed = parseQuery(id, raw);
  if (!parsed.ok) return invalid(parsed.detail);
  const params = parsed.params;
  const scope = cursorScope(id, params);
  let position = { offset: 0, hop: 0 };
  if (op.paged && params.cursor !== undefined) {
    const decoded = s.codec.decode(scope, String(params.cursor));
    if (!decoded) return invalid([cursorError(params.cursor)]);
    position = decoded;
  }

  const ctx: ViewContext = {
    world: s.world,
    now,
    liveDefaults: p.quirks.has('live-defaults'),
    given: new Set(Object.keys(raw)),
  };
  const handler = (s.byOperation.handlers[id as AvailableOperationId] ?? s.byOperation.announced[id]) as (
    params: unknown,
    ctx: ViewContext,
  ) => AnyOutcome;
  const outcome = handler(params, ctx);
  if ('notFound' in outcome) return { status: 404, items: 0, body: { detail: outcome.notFound } };
  if (p.quirks.has('not-started-404') && id === 'spaceDetail' && notStarted(outcome)) {
    return { status: 404, items: 0, body: { detail: `No space found for ${JSON.stringify(String(params.space_id))}` } };
  }

  const { body, items } = render(id, outcome, s.codec, scope, position, p, params, now);
  if (p.quirks.size || outcome.volatile) return { status: 200, body, items };
  const json = Buffer.from(JSON.stringify(body));
  s.answers.set(cacheKey, { json, items });
  return { status: 200, body: json, items };
}

function render(
  id: OperationId,
  outcome: Exclude<AnyOutcome, { notFound: string }>,
  codec: CursorCodec,
  scope: string,
  position: { offset: number; hop: number },
  p: FaultPlan,
  params: Record<string, unknown>,
  now: number,
): { body: Record<string, unknown>; items: number } {
  let body: Record<string, unknown>;
  let items: number;
  if ('sequence' in outcome) {
    const page = pageOf(codec, scope, outcome.sequence, position, p, params.cursor as string | undefined);
    const list = page.indices.map((i) => outcome.render(i));
    body = envelope(id, list, page);
    items = list.length;
  } else if ('items' in outcome) {
    body = envelope(id, outcome.items);
    items = outcome.items.length;
  } else {
    body = envelope(id, outcome.data);
    items = 1;
  }
  if (p.quirks.size) body = applyShapeQuirks(body, p.quirks.keys(), { op: id, now, params });
  return { body, items };
}

/** `{status, msg|message, <collection>, [has_next_page, next_cursor]}` as the catalog says */
function envelope(
  id: OperationId,
  collection: unknown,
  paging?: { hasNext: boolean; next: string },
): Record<string, unknown> {
  const op = OPERATIONS[id];
  const body: Record<string, unknown> = { status: 'success', [op.messageKey]: '', [op.collectionKey]: collection };
  if (paging) {
    body.has_next_page = paging.hasNext;
    body.next_cursor = paging.next;
  }
  return body;
}

function pageOf(
  codec: CursorCodec,
  scope: string,
  seq: Sequence,
  at: { offset: number; hop: number },
  p: FaultPlan,
  cursorIn: string | undefined,
): { indices: number[]; hasNext: boolean; next: string } {
  if (p.quirks.has('empty-page')) {
    // same position, fresh cursor: following it (without the quirk) loses nothing
    return { indices: [], hasNext: true, next: codec.encode(scope, { offset: at.offset, hop: at.hop + 1 }) };
  }
  const size = Number(p.quirks.get('page-size')?.params.n ?? PAGE_SIZE);
  const end = Math.min(seq.length, at.offset + size);
  const indices: number[] = [];
  for (let k = at.offset; k < end; k++) indices.push(seq.get(k));
  const hasNext = end < seq.length;
  if (!hasNext) return { indices, hasNext, next: '' };
  const nextOffset = p.quirks.has('duplicates') ? Math.max(at.offset + 1, end - DUPLICATE_OVERLAP) : end;
  let next = codec.encode(scope, { offset: nextOffset, hop: 0 });
  if (p.quirks.has('repeat-cursor')) next = cursorIn ?? codec.encode(scope, { offset: 0, hop: 0 });
  if (p.quirks.has('no-cursor')) next = '';
  return { indices, hasNext, next };
}

/** the live service answers 404 for a space that has not started yet (`not-started-404`) */
function notStarted(outcome: AnyOutcome): boolean {
  if (!('data' in outcome)) return false;
  const space = (outcome.data as { data?: { audio_space_by_rest_id?: { metadata?: { state?: unknown } } } }).data
    ?.audio_space_by_rest_id;
  return space?.metadata?.state === 'NotStarted';
}

/** distinct ids in a batch lookup's id list; undefined for other operations */
function idsAsked(id: OperationId, raw: Record<string, unknown>): number | undefined {
  const name = OPERATIONS[id].params.find((p) => p.type === 'idList')?.name;
  if (!name) return undefined;
  const value = raw[name];
  return typeof value === 'string' ? idList(value).length : 0;
}

function keyMatches(sent: unknown, required: string): boolean {
  if (typeof sent !== 'string') return false;
  const digest = (v: string): Buffer => createHash('sha256').update(v).digest();
  return timingSafeEqual(digest(sent), digest(required));
}
