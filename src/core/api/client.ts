/**
 * The API client: every answer the renderer or an export sees comes through
 * `fetchPage`. Store → (target, request from the catalog) → limiter → attempt
 * loop → normalization → paging view → result. No electron here: the world
 * comes in through the constructor.
 */
import { randomUUID } from 'node:crypto';
import { OPERATIONS, isListOperation, type OperationId } from '../../shared/api/catalog';
import { SkeinError } from '../../shared/errors';
import type { ApiCallOutput } from '../../shared/ipc/api';
import type { Clock } from '../ports';
import { redactText, silentLogger, type Logger } from '../logger';
import { CallRegistry } from './calls';
import { DEFAULT_POLICY, execute, type RequestPolicy } from './execute';
import { countRawItems, locateItems, normalizePage, type NormalizedPage } from '../../shared/api/normalize/page';
import { receivedTexts } from '../../shared/api/spans';
import { PagingViews, type Paging } from './paging';
import type { RateLimiter } from './policy/rate-limiter';
import { buildRequest, canonicalParams, type CanonicalParams } from './request';
import { ResponseStore, type StoredAnswer } from './response-store';
import type { FetchLike } from './transport';
import type { AnswerArchive, ApiClient, FetchPageInput, PageResult, ViewRef } from './types';

export interface Target {
  /** where the API lives (the sandbox's URL in demo mode) */
  baseUrl: string;
  /** the key to send; null sends none */
  key: string | null;
  /** this base URL's own pacing and rate-limit pause: every request of the call waits on it */
  limiter: RateLimiter;
}

/** One request as the usage meter sees it (an answer from the store is one too, at no cost). */
export interface AttemptRecord {
  operation: OperationId;
  paramsKey: string;
  cursor: string | null;
  at: number;
  httpStatus: number;
  /** items in the answer's list as received */
  items: number;
  idsAsked?: number;
  fromCache: boolean;
}

export interface UsageSink {
  /** records the attempt; returns the credits it is estimated to cost */
  record: (rec: AttemptRecord) => number;
}

export interface ApiClientDeps {
  /** resolved at each call: mode, base URL and key may change between calls; may throw a SkeinError */
  target: () => Promise<Target>;
  fetch: FetchLike;
  clock: Clock;
  /** uniform in [0, 1): backoff jitter */
  random?: () => number;
  policy?: Partial<RequestPolicy>;
  store?: ResponseStore;
  usage?: UsageSink;
  logger?: Logger;
  /** secrets to keep out of error messages and logs (the key) */
  secrets?: () => Iterable<string>;
  newCallId?: () => string;
  /** the research project: every answer is recorded there, and an answer it holds is served without a call */
  archive?: AnswerArchive;
}

const ID_LIST_PARAM: Partial<Record<OperationId, string>> = { usersByIds: 'userIds', postsByIds: 'tweet_ids' };

function itemId(item: unknown): string | undefined {
  const id = (item as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id : undefined;
}

/** The meta of an answer served from a store: free, no attempt. */
function storedMeta(callId: string, hit: StoredAnswer, durationMs: number): ApiCallOutput['meta'] {
  return {
    callId,
    fromCache: true,
    fetchedAt: hit.fetchedAt,
    httpStatus: hit.httpStatus,
    credits: 0,
    durationMs,
    attempts: 0,
  };
}

export function createApiClient(deps: ApiClientDeps): ApiClient & { readonly store: ResponseStore } {
  const store = deps.store ?? new ResponseStore();
  const views = new PagingViews();
  const calls = new CallRegistry();
  const policy: RequestPolicy = { ...DEFAULT_POLICY, ...deps.policy };
  const random = deps.random ?? Math.random;
  const logger = deps.logger ?? silentLogger;
  const secrets = deps.secrets ?? (() => []);
  const newCallId = deps.newCallId ?? randomUUID;
  const { clock } = deps;
  /** answers the project holds from before the last `clearStore` are not served */
  let servedSince = 0;

  function idsAsked(op: OperationId, c: CanonicalParams): string[] | undefined {
    const name = ID_LIST_PARAM[op];
    const v = name ? c.params[name] : undefined;
    return typeof v === 'string' ? v.split(',').filter(Boolean) : undefined;
  }

  function record(op: OperationId, c: CanonicalParams, httpStatus: number, items: number, fromCache: boolean): number {
    const asked = idsAsked(op, c);
    return (
      deps.usage?.record({
        operation: op,
        paramsKey: c.paramsKey,
        cursor: c.cursor,
        at: clock.now(),
        httpStatus,
        items,
        idsAsked: asked?.length,
        fromCache,
      }) ?? 0
    );
  }

  /** the view's decision and the result built from one normalized page */
  function shape(
    op: OperationId,
    c: CanonicalParams,
    /** the paging view, and whether it de-duplicates (its caller may do that itself) */
    view: { key: string; ids: boolean },
    page: NormalizedPage,
    body: unknown,
    meta: ApiCallOutput['meta'],
    viewState: PagingViews,
    /** asked for each item's text: the body's text, or null when it is not at hand; not asked: undefined */
    text?: string | null,
  ): PageResult {
    let items = page.items;
    let rawItems = page.rawItems;
    let paging: Paging | null = null;
    let duplicatesRemoved = 0;
    if (page.paging) {
      const facts = { cursor: c.cursor, ids: items.map(itemId), ...page.paging };
      const decision = viewState.apply(view.key, facts, { ids: view.ids });
      items = items.filter((_, i) => decision.keep[i]);
      rawItems = rawItems.filter((_, i) => decision.keep[i]);
      paging = decision.paging;
      duplicatesRemoved = decision.duplicatesRemoved;
    }
    const asked = idsAsked(op, c);
    let notFound: string[] = [];
    if (asked) {
      const returned = new Set(items.map(itemId));
      notFound = [...new Set(asked)].filter((id) => !returned.has(id));
    }
    const isList = isListOperation(op);
    let texts: Array<string | null> | undefined;
    if (text !== undefined) {
      const located = isList ? locateItems(op, body) : null;
      // an item cut for nesting too deep is no longer the text that arrived: it has none (written out again)
      texts =
        located && text !== null
          ? receivedTexts(text, located.path.split('.'), located.items, rawItems, new Set(page.cutItems))
          : (isList ? rawItems : [page.rawData]).map(() => null);
    }
    return {
      raw: { body, items: isList ? rawItems : [page.rawData], ...(texts ? { texts } : {}) },
      result: {
        operation: op,
        items,
        data: isList ? null : page.data,
        paging,
        report: { duplicatesRemoved, dropped: page.dropped, notFound, cut: page.cut },
        meta,
        ...(page.snapshot ? { snapshot: page.snapshot } : {}),
      },
    };
  }

  /** a SkeinError with every secret cut out of its message and details (services may echo what they got) */
  function redacted(e: unknown): unknown {
    if (!(e instanceof SkeinError)) return e;
    const s = [...secrets()];
    if (s.length === 0) return e;
    const scrub = (v: unknown): unknown => {
      if (typeof v === 'string') return redactText(v, s);
      if (Array.isArray(v)) return v.map(scrub);
      if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, scrub(x)]));
      return v;
    };
    return new SkeinError(e.code, redactText(e.message, s), scrub(e.details) as SkeinError['details']);
  }

  async function fetchPage(input: FetchPageInput): Promise<PageResult> {
    const op = input.operation;
    const callId = input.callId ?? newCallId();
    const started = clock.now();
    const c = canonicalParams(op, input.params);
    const view = { key: input.viewKey ?? `${op}\u0000${c.paramsKey}`, ids: input.viewIds !== false };

    if (!input.fresh) {
      // this session's memory first, then what the project holds (an earlier session's answer): both free
      const inMemory =
        (input.reread ? store.peek(op, c.paramsKey, c.cursor) : undefined) ??
        store.get(op, c.paramsKey, c.cursor, started);
      const held = inMemory ? null : await heldByArchive(op, c, input.reread === true, started, input.keep !== false);
      const hit = inMemory ?? held?.answer;
      if (hit) {
        record(op, c, hit.httpStatus, hit.page.rawCount, true);
        const meta = storedMeta(callId, hit, clock.now() - started);
        const text = input.withTexts ? (held?.text ?? null) : undefined;
        return forgetIfStopped(op, c, shape(op, c, view, hit.page, hit.body, meta, views, text));
      }
    }

    // nothing is bought that the project could not keep
    const refusal = deps.archive?.refusal?.() ?? null;
    if (refusal)
      throw new SkeinError('write-failed', refusal, {
        action: 'Switch to a project you may write to (Archive, Manage projects), then try again.',
      });

    const running = calls.start(callId, input.senderId, input.signal);
    let credits = 0;
    /** requests that left (answered or not): what the service may count */
    let sent = 0;
    let keySent = true;
    try {
      const target = await deps.target();
      keySent = target.key !== null && target.key !== '';
      const request = buildRequest(op, c, target);
      const { answer, attempts, notice } = await execute({
        operation: op,
        url: request.url,
        headers: request.headers,
        fetch: deps.fetch,
        clock,
        limiter: target.limiter,
        random,
        policy,
        signal: running.signal,
        keySent,
        cancelWaits: input.cancelWaits,
        onRateLimitWait: input.onRateLimitWait,
        ...(input.beforeSend ? { beforeSend: input.beforeSend } : {}),
        onAnswer: (a) => {
          sent++;
          const ok = a.status >= 200 && a.status < 300;
          credits += record(op, c, a.status, ok ? countRawItems(op, a.body) : 0, false);
        },
        onNoAnswer: () => {
          sent++;
          record(op, c, 0, 0, false);
        },
      });
      if (deps.archive && answer.text !== undefined)
        deps.archive.record({
          operation: op,
          params: c.paramsKey,
          cursor: c.cursor,
          at: clock.now(),
          baseUrl: target.baseUrl,
          httpStatus: answer.status,
          text: answer.text,
        });
      const page = normalizePage(op, answer.body, answer.status);
      if (page.dropped.length > 0)
        logger.warn(`${op}: dropped ${page.dropped.length} malformed item(s)`, { dropped: page.dropped.slice(0, 5) });
      if (page.cut) logger.warn(`${op}: cut ${page.cut.length} part(s) nested too deep`, { cut: page.cut.slice(0, 5) });
      const fetchedAt = clock.now();
      const stored: StoredAnswer = {
        operation: op,
        paramsKey: c.paramsKey,
        cursor: c.cursor,
        fetchedAt,
        httpStatus: answer.status,
        body: answer.body,
        page,
        bytes: answer.bytes,
      };
      if (input.keep !== false) store.put(stored, { sameSnapshot: input.reread === true });
      const meta = {
        callId,
        fromCache: false,
        fetchedAt,
        httpStatus: answer.status,
        credits,
        durationMs: fetchedAt - started,
        attempts,
        ...(notice ? { notice } : {}),
      };
      if (notice) logger.info(`${op}: ${notice}`);
      const text = input.withTexts ? (answer.text ?? null) : undefined;
      return forgetIfStopped(op, c, shape(op, c, view, page, answer.body, meta, views, text));
    } catch (e) {
      let err = redacted(e);
      if (err instanceof SkeinError && err.code === 'unauthorized' && !keySent) {
        err = new SkeinError(
          'unauthorized',
          `No API key is set, and the service requires one (HTTP ${err.details?.httpStatus ?? 401}).`,
          err.details,
        );
      }
      if (err instanceof SkeinError) {
        logger.info(`${op} failed`, {
          code: err.code,
          httpStatus: err.details?.httpStatus,
          attempts: err.details?.attempts,
        });
        // what the failed call cost: a long job accounts for it (`calls` = requests that left)
        throw new SkeinError(err.code, err.message, { ...err.details, credits, calls: sent });
      }
      throw err;
    } finally {
      running.done();
    }
  }

  /**
   * an answer the project holds (from an earlier session too), into the memory store (its text is not kept there),
   * with its text; null when none or unreadable
   */
  async function heldByArchive(
    op: OperationId,
    c: CanonicalParams,
    anyAge: boolean,
    now: number,
    keep: boolean,
  ): Promise<{ answer: StoredAnswer; text: string } | null> {
    if (!deps.archive) return null;
    try {
      const target = await deps.target();
      const held = await deps.archive.held({
        operation: op,
        params: c.paramsKey,
        cursor: c.cursor,
        baseUrl: target.baseUrl,
        anyAge,
        now,
        notBefore: servedSince,
      });
      if (!held) return null;
      const body = JSON.parse(held.text) as unknown;
      const stored: StoredAnswer = {
        operation: op,
        paramsKey: c.paramsKey,
        cursor: c.cursor,
        fetchedAt: held.at,
        httpStatus: held.httpStatus,
        body,
        page: normalizePage(op, body, held.httpStatus),
        bytes: held.text.length,
      };
      if (keep) store.put(stored, { sameSnapshot: c.cursor !== null });
      return { answer: stored, text: held.text };
    } catch (e) {
      // no target (live without a base URL), or a held answer that no longer reads: ask the API
      if (!(e instanceof SkeinError)) logger.warn(`${op}: the archive's answer was not used`, { error: String(e) });
      return null;
    }
  }

  /** an answer that made the paging guard stop is not kept: asked again, the service may answer right */
  function forgetIfStopped(op: OperationId, c: CanonicalParams, page: PageResult): PageResult {
    if (page.result.paging?.stop) {
      store.delete(op, c.paramsKey, c.cursor);
      deps.archive?.forget({ operation: op, params: c.paramsKey, cursor: c.cursor });
    }
    return page;
  }

  function forgetPage(view: ViewRef): boolean {
    const c = canonicalParams(view.operation, view.params);
    deps.archive?.forget({ operation: view.operation, params: c.paramsKey, cursor: c.cursor });
    return store.delete(view.operation, c.paramsKey, c.cursor);
  }

  function loadedPages(view: ViewRef): PageResult[] {
    const { cursor: _ignored, ...params } = view.params;
    const c = canonicalParams(view.operation, params);
    const op = view.operation;
    const viewKey = view.viewKey ?? `${op}\u0000${c.paramsKey}`;
    const local = new PagingViews(1);
    const out: PageResult[] = [];
    const visited = new Set<string | null>();
    let cursor: string | null = null;
    while (!visited.has(cursor)) {
      visited.add(cursor);
      const hit = store.peek(op, c.paramsKey, cursor);
      if (!hit) break;
      const meta = storedMeta(`loaded:${out.length}`, hit, 0);
      const page = shape(op, { ...c, cursor }, { key: viewKey, ids: true }, hit.page, hit.body, meta, local);
      out.push(page);
      const next = page.result.paging?.nextCursor ?? null;
      if (next === null || !OPERATIONS[op].paged) break;
      cursor = next;
    }
    return out;
  }

  return {
    store,
    fetchPage,
    loadedPages,
    forgetPage,
    forgetView: (viewKey) => views.forget(viewKey),
    cancel: (callId, senderId) => calls.cancel(callId, senderId),
    cancelSender: (senderId) => calls.cancelSender(senderId),
    clearStore: () => {
      // the project keeps what was received, but serves nothing older than this (mode, address or key changed)
      servedSince = clock.now();
      views.clear();
      return store.clear();
    },
  };
}
