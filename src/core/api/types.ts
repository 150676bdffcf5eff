/**
 * The API client's public surface, for the bridge handlers and for the
 * export helper (which walks pages itself and needs the raw items exactly as
 * received).
 */
import type { OperationId } from '../../shared/api/catalog';
import type { ApiCallOutput } from '../../shared/ipc/api';

export interface FetchPageInput {
  operation: OperationId;
  /** typed params as the bridge carries them, `cursor` included; validated against the catalog */
  params: Record<string, unknown>;
  /** id to cancel by (`ApiClient.cancel`); generated when absent */
  callId?: string;
  /** WebContents id of the caller, so its calls end when its window closes or reloads */
  senderId?: number;
  /** another way to cancel (the export helper's own controller) */
  signal?: AbortSignal;
  /** a cancel that ends waits (limiter, backoff) but lets a request in flight finish: a page paid for is returned */
  cancelWaits?: AbortSignal;
  /** told when the call starts (until, epoch ms) and ends (null) waiting for a rate limit */
  onRateLimitWait?: (until: number | null) => void;
  /**
   * awaited just before the first request leaves (after any wait for the limiter; never for an answer the
   * project or the memory store already holds): a walk says there that it is about to buy the page
   */
  beforeSend?: () => Promise<void>;
  /** also each raw item's JSON text as it arrived (`PageResult.raw.texts`): a walk's journal keeps it */
  withTexts?: boolean;
  /** skip the response store and ask the API */
  fresh?: boolean;
  /**
   * false: the answer is not kept in the memory store (a hydration's batches, each asked once: the project and
   * the export's journal keep them, and a million ids' answers would fill main's memory); default true
   */
  keep?: boolean;
  /** a page the view had and let go: the stored answer whatever its age; fetched again, it keeps the snapshot */
  reread?: boolean;
  /**
   * Paging view the page belongs to, for cursor guards and de-duplication.
   * Default: operation + params without cursor (the screen's view). A walk
   * that must not disturb the screen's view (an export) passes its own key.
   */
  viewKey?: string;
  /**
   * false: the caller de-duplicates the view's items itself (an export's collection, which keeps its ids for its
   * resume): the view guards its cursors only, keeps every item and holds no id; default true
   */
  viewIds?: boolean;
}

export interface PageResult {
  raw: {
    /** the parsed JSON body exactly as received (from the store: as it was received then) */
    body: unknown;
    /**
     * the raw items, untouched, aligned with `result.items` (same order and
     * length: dropped items and duplicates left out). Object operations: the
     * raw `data` object as the only element.
     */
    items: unknown[];
    /**
     * asked for (`withTexts`): each item's JSON text as it arrived, aligned with `items` (a slice of the answer's
     * text); null for an item whose text is not at hand (an answer served from main's memory store, which keeps
     * the parsed answer only; an object operation's item) or that is not what arrived (cut for nesting too deep)
     */
    texts?: Array<string | null>;
  };
  /** canonical items, paging decision, report and meta: what `api.call` returns */
  result: ApiCallOutput;
}

export interface ViewRef {
  operation: OperationId;
  /** params of the view; a `cursor` here is ignored */
  params: Record<string, unknown>;
  viewKey?: string;
}

export interface ApiClient {
  /** one page (or object) through the store, the limiter, the retry policy and the view's guards */
  fetchPage: (input: FetchPageInput) => Promise<PageResult>;
  /**
   * The pages of a view still held by the response store, in paging order
   * from the first page, without any request (nothing is charged). Stops at
   * the first page the store no longer holds.
   */
  loadedPages: (view: ViewRef) => PageResult[];
  /**
   * Drops the stored answer of one page (params with `cursor`, absent for the first page), so that the
   * next read asks the API again: an answer that stopped a walk (a bad paging answer) must not be replayed.
   */
  forgetPage: (page: ViewRef) => boolean;
  /**
   * Lets a view's paging guard go (the ids it has seen, its cursors): a walk that is over. Asked again, the
   * view starts afresh. Unasked, it goes when hundreds of newer views push it out.
   */
  forgetView: (viewKey: string) => void;
  /** cancel one call; false when no such call is running */
  cancel: (callId: string, senderId?: number) => boolean;
  /** cancel every call of a window (closed or reloaded) */
  cancelSender: (senderId: number) => number;
  /** drop every stored answer and paging view; returns how many answers were dropped */
  clearStore: () => number;
}

/** An answer as received, for the store of record: the body's text exactly as it came. */
export interface ReceivedAnswer {
  operation: OperationId;
  /** canonical params without the cursor (the response store's key) */
  params: string;
  cursor: string | null;
  at: number;
  baseUrl: string;
  httpStatus: number;
  text: string;
}

/** Which answer the client asks the store of record for. */
export interface HeldAnswerKey {
  operation: OperationId;
  params: string;
  cursor: string | null;
  baseUrl: string;
  /** any age (a page a windowed view let go) */
  anyAge: boolean;
  now: number;
  /** answers received before this are not served (the cache was cleared, the mode or address changed) */
  notBefore: number;
}

/**
 * The store of record the client writes every answer into, and asks for a page that left memory before it
 * asks the network (the research project: core/index.ts wires the archive's link in). A port: the client
 * declares what it needs, the archive provides it without either importing the other.
 */
export interface AnswerArchive {
  record: (answer: ReceivedAnswer) => void;
  /** an answer a paging guard stopped on: never served again */
  forget: (key: { operation: OperationId; params: string; cursor: string | null }) => void;
  held: (key: HeldAnswerKey) => Promise<{ at: number; httpStatus: number; text: string } | null>;
  /** why an answer bought now could not be kept (a project this role may only read): no request is sent then */
  refusal?: () => string | null;
}
