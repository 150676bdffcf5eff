/**
 * What a walk (an export's, a watch's) needs from the API client: one page of an operation, with
 * the items exactly as the API sent them (raw, unknown fields kept) and the
 * client's report on them. The composition root adapts the real client to
 * this; tests can point it at the sandbox.
 */
import type { OperationId } from '../../shared/api/catalog';
import type { AnswerSnapshot, DroppedItem, PagingStopReason } from '../../shared/ipc/api';

export interface PageRequest {
  operation: OperationId;
  /** typed params, checked against the catalog, without `cursor` */
  params: Record<string, string | number | boolean>;
  /** identifies the walk (one export, one walk of a watch's run), so the client's guards and de-duplication do not mix it with the screen's view */
  walkId: string;
  /** null for the first page */
  cursor: string | null;
  /** a hard stop (quit, discard): reaches the request in flight */
  signal: AbortSignal;
  /** a hydration's batch: asked once, so the answer is not kept in the client's memory store */
  transient?: boolean;
  /**
   * the walker de-duplicates the items by id itself, across the walk, and stops on pages of nothing new: the source
   * passes every item and holds none of the walk's ids (a million: tens of MB, held once instead of twice)
   */
  deduplicates?: boolean;
  /** the job's Cancel: ends waits and keeps new attempts from starting, but lets a request in flight finish */
  cancelWaits?: AbortSignal;
  /** told when the fetch starts (until, epoch ms) and ends (null) waiting for a rate limit */
  onRateLimitWait?: (until: number | null) => void;
  /** awaited just before the page's first request leaves; never when the page is answered from what is held */
  beforeSend?: () => Promise<void>;
}

export interface SourcePage {
  /**
   * The collection's items exactly as received, in order (for an object
   * operation such as community or space: the one `data` object), without
   * the ones the client found malformed or had already seen.
   */
  rawItems: readonly unknown[];
  /**
   * Each of `rawItems` as the JSON text that arrived (its slice of the answer's body; a project's item: the text it
   * keeps), aligned with `rawItems`; null (or absent) where the source has no such text: the journal then writes
   * the parsed item out again. The journal keeps this text, so it must parse to the `rawItems` entry.
   */
  rawTexts?: readonly (string | null)[];
  /** items the client left out as malformed, with the reason (`index`: in the API's answer) */
  dropped: readonly DroppedItem[];
  /** items the client left out because an earlier page of the same walk had them (0 when the walker de-duplicates) */
  duplicatesRemoved: number;
  /** items in the API's answer, before anything was left out */
  received: number;
  /** ids asked for in a batch lookup that did not come back */
  notFound: readonly string[];
  /** null for operations that are not paged */
  paging: {
    hasNextPage: boolean;
    /** null at the end, or when the client's guard stopped paging */
    nextCursor: string | null;
    stop: { reason: PagingStopReason; message: string } | null;
  } | null;
  fetchedAt: number;
  httpStatus: number;
  /** estimated credits this page cost (0 when served from the store) */
  credits: number;
  /** served from main's response store: no call was made */
  fromCache: boolean;
  /** HTTP requests made for this page (retries included); 0 from the store */
  attempts: number;
  /** the answer's own time and place, when it says them (trends' metadata) */
  snapshot?: AnswerSnapshot;
}

export interface PageSource {
  fetchPage: (request: PageRequest) => Promise<SourcePage>;
  /** drops a stored answer that stopped the walk (a bad paging answer), so it is asked for again next time */
  forget?: (request: Pick<PageRequest, 'operation' | 'params' | 'cursor' | 'walkId'>) => void;
  /**
   * the walk is over for now (done, capped, stopped, failed): what the source holds for it alone (its paging
   * guard's ids: tens of MB at a million items) goes; a walk that goes on later is a new one to the source
   */
  endWalk?: (walkId: string) => void;
}

/**
 * What the journal keeps of a page's item `index`: its text as it arrived (the evidence: escapes, number spellings
 * and digits beyond 2^53 as the service wrote them), or the parsed item written out when there is none.
 */
export function receivedText(page: SourcePage, index: number): string {
  return page.rawTexts?.[index] ?? JSON.stringify(page.rawItems[index]);
}
