import { z } from 'zod';
import { OperationIdSchema, type BridgeItemOf, type OperationId } from '../api/catalog';
import { fn } from './define';

export const ApiCallInput = z.object({
  operation: OperationIdSchema,
  /** typed params, checked against the operation's schema in main */
  params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  /** chosen by the renderer so it can cancel the call (an AbortSignal cannot cross the bridge) */
  callId: z.string().min(1).max(100).optional(),
  /** skip main's response store and ask the API (live refresh, space polling) */
  fresh: z.boolean().optional(),
  /**
   * a page the view held before and let go (a windowed list moving back): main's store answers it
   * whatever its age, a first page included, and asking it again never starts a new snapshot
   */
  reread: z.boolean().optional(),
});
export type ApiCallInput = z.infer<typeof ApiCallInput>;

export const PagingStopReason = z.enum(['repeated-cursor', 'missing-cursor', 'empty-pages']);
export type PagingStopReason = z.infer<typeof PagingStopReason>;

export const DroppedItem = z.object({
  index: z.number().int(),
  id: z.string().optional(),
  path: z.string(),
  message: z.string(),
});
export type DroppedItem = z.infer<typeof DroppedItem>;

/**
 * What an answer says of its own time and place (the live trends' `metadata`: `timestamp`,
 * `refresh_interval_millis`, `woeid: {name, id}`): when the list was true, and for where.
 */
export const AnswerSnapshot = z.object({
  /** epoch ms the answer describes; null when the service gave none that reads as a time */
  asOf: z.number().nullable(),
  /** how often the service renews it */
  refreshIntervalMs: z.number().nullable(),
  place: z.object({ name: z.string(), woeid: z.number().int().nullable() }).nullable(),
});
export type AnswerSnapshot = z.infer<typeof AnswerSnapshot>;

export const ApiCallOutput = z.object({
  operation: OperationIdSchema,
  /** canonical items of a list operation (empty for object operations) */
  items: z.array(z.unknown()),
  /** canonical `data` object of an object operation (community, space, article) */
  data: z.unknown().nullable(),
  /** paging of a paged operation, null otherwise */
  paging: z
    .object({
      hasNextPage: z.boolean(),
      /** null at the end, or when a guard stopped paging */
      nextCursor: z.string().nullable(),
      stop: z.object({ reason: PagingStopReason, message: z.string() }).nullable(),
    })
    .nullable(),
  report: z.object({
    /** items already seen on an earlier page of the same view */
    duplicatesRemoved: z.number().int(),
    dropped: z.array(DroppedItem),
    /** parts of kept items cut because they were nested too deep (a hostile or broken answer) */
    cut: z.array(DroppedItem).optional(),
    /** ids asked for in a batch lookup that the API did not return */
    notFound: z.array(z.string()),
  }),
  /** the answer's own time and place, when it says them (trends) */
  snapshot: AnswerSnapshot.optional(),
  meta: z.object({
    callId: z.string(),
    fromCache: z.boolean(),
    fetchedAt: z.number(),
    httpStatus: z.number().int(),
    credits: z.number(),
    durationMs: z.number(),
    attempts: z.number().int(),
    /** what the call met on the way that a person should know (a 403 that turned out to be throttling) */
    notice: z.string().optional(),
  }),
});
export type ApiCallOutput = z.infer<typeof ApiCallOutput>;

/** api.call's output with items typed for one operation. */
export type ApiResult<Id extends OperationId> = Omit<ApiCallOutput, 'items' | 'operation'> & {
  operation: Id;
  items: Array<BridgeItemOf<Id>>;
};

export const apiContract = {
  api: {
    call: fn(ApiCallInput, ApiCallOutput),
    cancel: fn(z.object({ callId: z.string().min(1).max(100) }), z.object({ cancelled: z.boolean() })),
    /** "Try now": drop the rate-limit pause of the service in use (true when there was one) */
    tryNow: fn(z.undefined(), z.object({ cleared: z.boolean() })),
  },
};
