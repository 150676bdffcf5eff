/**
 * Bridge handlers of the `api` namespace (src/shared/ipc/api.ts): thin over the client. The renderer
 * names an operation and params; it never sees a URL, a header or the key. A missing handler is a compile
 * error (`ApiHandlers` is cut from the contract).
 */
import { OPERATIONS, type OperationId } from '../../shared/api/catalog';
import { cardPost, type Post } from '../../shared/api/schemas';
import type { ApiCallOutput, apiContract } from '../../shared/ipc/api';
import type { HandlersOf } from '../../shared/ipc/define';
import type { ApiClient } from './types';

export type ApiHandlers = HandlersOf<typeof apiContract>;

/** What the `api` handlers need of the session that owns the client (session/client-services.ts has it). */
export interface ApiHandlerDeps {
  client: ApiClient;
  /** the stored key is loaded: every call waits for it */
  ready: Promise<void>;
  /** drops the rate-limit pause of the base URL in use (the user's "Try now") */
  clearPause: () => Promise<boolean>;
}

export function createApiHandlers(services: ApiHandlerDeps): ApiHandlers {
  const { client } = services;
  return {
    api: {
      call: async ({ operation, params, callId, fresh, reread }, ctx) => {
        await services.ready;
        const page = await client.fetchPage({
          operation,
          params,
          senderId: ctx.senderId,
          callId,
          fresh,
          reread,
        });
        return forBridge(operation, page.result);
      },
      cancel: ({ callId }, ctx) => ({ cancelled: client.cancel(callId, ctx.senderId) }),
      tryNow: async () => ({ cleared: await services.clearPause() }),
    },
  };
}

/**
 * What the renderer is sent: posts with their authors cut to what a card shows (`CardPost`, the
 * contract's type for them), everything else as main holds it. The whole answer stays in main.
 */
export function forBridge(operation: OperationId, result: ApiCallOutput): ApiCallOutput {
  if (OPERATIONS[operation].itemKind !== 'post') return result;
  return { ...result, items: (result.items as Post[]).map(cardPost) };
}
