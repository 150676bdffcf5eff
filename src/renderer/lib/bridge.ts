/**
 * The renderer's only door to main: `window.skein`, wrapped so that every
 * function returns its data or throws a `SkeinError` (envelopes unwrapped),
 * and `callApi`, typed per operation, which turns an AbortSignal (TanStack
 * Query's) into `api.cancel` for the call's id.
 */
import type { OperationId, ParamsOf } from '../../shared/api/catalog';
import { SkeinError, SkeinErrorData } from '../../shared/errors';
import {
  contract,
  contractEntries,
  type ApiResult,
  type Envelope,
  type EventName,
  type EventPayload,
  type SkeinBridge,
  type SkeinClient,
} from '../../shared/ipc';
import { useNotices } from '../state/notices';

type AnyFn = (input?: unknown) => Promise<Envelope<unknown>>;

/** Wrap a bridge: every function resolves to its data, or throws SkeinError. */
export function createClient(bridge: SkeinBridge): SkeinClient {
  const client: Record<string, Record<string, (input?: unknown) => Promise<unknown>>> = {};
  for (const [ns, name] of contractEntries(contract)) {
    const target = (bridge as unknown as Record<string, Record<string, AnyFn> | undefined>)[ns]?.[name];
    (client[ns] ??= {})[name] = async (input?: unknown) => {
      if (typeof target !== 'function') throw new SkeinError('internal', `The bridge has no ${ns}.${name}.`);
      let envelope: Envelope<unknown>;
      try {
        envelope = await target(input);
      } catch (e) {
        throw new SkeinError(
          'internal',
          `The bridge call ${ns}.${name} failed: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
      if (envelope && envelope.ok === true) return envelope.data;
      const parsed = SkeinErrorData.safeParse(envelope && envelope.ok === false ? envelope.error : undefined);
      throw parsed.success
        ? SkeinError.from(parsed.data)
        : new SkeinError('internal', `The bridge call ${ns}.${name} answered something unreadable.`);
    };
  }
  return client as unknown as SkeinClient;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** skip main's response store and ask the API */
  fresh?: boolean;
  /** a page the view let go, asked again: main's store answers it whatever its age */
  reread?: boolean;
}

export type CallApi = <Id extends OperationId>(
  operation: Id,
  params: ParamsOf<Id>,
  opts?: CallOptions,
) => Promise<ApiResult<Id>>;

let seq = 0;
function defaultCallId(): string {
  seq += 1;
  const rand =
    typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : Math.random().toString(36).slice(2);
  return `r-${seq}-${rand}`;
}

/** `callApi` bound to a client; `newId` makes the call ids (injectable for tests). */
export function createCallApi(client: SkeinClient, newId: () => string = defaultCallId): CallApi {
  return async (operation, params, opts = {}) => {
    const { signal, fresh, reread } = opts;
    if (signal?.aborted) throw new SkeinError('cancelled', 'Cancelled before it started.');
    const callId = newId();
    const onAbort = () => {
      client.api.cancel({ callId }).catch(() => {
        /* the call may have finished already; nothing to cancel */
      });
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const clean: Record<string, string | number | boolean> = {};
      for (const [k, v] of Object.entries(params)) {
        if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') clean[k] = v;
      }
      const out = await client.api.call({
        operation,
        params: clean,
        callId,
        fresh,
        reread,
      });
      // what the call met on the way (a 403 that was throttling): the status bar says it
      if (out.meta.notice) useNotices.getState().add(out.meta.notice, out.meta.fetchedAt);
      return out as unknown as ApiResult<typeof operation>;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  };
}

declare global {
  interface Window {
    /** exposed by the preload (contract in src/shared/ipc) */
    skein?: SkeinBridge;
  }
}

let cached: SkeinClient | null = null;

/** The app's client over `window.skein`. */
export function skein(): SkeinClient {
  if (cached) return cached;
  const bridge = typeof window !== 'undefined' ? window.skein : undefined;
  if (!bridge) throw new SkeinError('internal', 'Skein’s bridge is missing: open Skein as the desktop app.');
  cached = createClient(bridge);
  return cached;
}

/** `callApi` over the app's client. */
export const callApi: CallApi = (operation, params, opts) => createCallApiOnce()(operation, params, opts);

let boundCallApi: CallApi | null = null;
function createCallApiOnce(): CallApi {
  boundCallApi ??= createCallApi(skein());
  return boundCallApi;
}

/** Subscribe to an event main pushes (menu commands); no-op outside the app. */
export function onBridgeEvent<E extends EventName>(name: E, cb: (payload: EventPayload<E>) => void): () => void {
  const bridge = typeof window !== 'undefined' ? window.skein : undefined;
  if (!bridge?.events) return () => {};
  return bridge.events.on(name, cb);
}
