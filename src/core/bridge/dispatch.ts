/**
 * The bridge's one entry point on the main side, free of Electron so it runs
 * the same in the app, in unit tests and in the e2e test host:
 * channel + untrusted input → contract input schema (zod, always) → handler →
 * contract output schema (zod) → plain envelope.
 * Nothing but data crosses back: a thrown SkeinError keeps its code and
 * details, a schema failure names the fields, anything else becomes a generic
 * `internal` error (never a stack or secret).
 */
import { z } from 'zod';
import { DEFAULT_ACTIONS, SkeinError, isSkeinError, type FieldError, type SkeinErrorData } from '../../shared/errors';
import {
  channelName,
  contract,
  contractEntries,
  type ContractShape,
  type Envelope,
  type FnSpec,
  type HandlerContext,
  type Handlers,
  type HandlersOf,
} from '../../shared/ipc';

export interface Dispatcher {
  /** every channel of the contract, in declaration order */
  readonly channels: readonly string[];
  dispatch: (channel: string, input: unknown, ctx: HandlerContext) => Promise<Envelope<unknown>>;
}

export interface DispatcherOptions {
  /** told about unexpected failures (bugs); the renderer only gets a generic message */
  onInternalError?: (error: unknown, channel: string) => void;
}

type AnyHandler = (input: unknown, ctx: HandlerContext) => unknown;

/** Readable field errors of a zod failure: `params.tweetId: tweetId must not be empty`. */
function fieldErrors(error: z.ZodError, prefix: readonly PropertyKey[] = []): FieldError[] {
  return error.issues.map((issue) => ({
    field: [...prefix, ...issue.path].map(String).join('.') || '(input)',
    message: issue.message,
  }));
}

function badInput(error: z.ZodError, prefix: readonly PropertyKey[] = []): SkeinError {
  const fields = fieldErrors(error, prefix);
  const summary = fields.map((f) => `${f.field}: ${f.message}`).join('; ');
  return new SkeinError('bad-input', `Invalid input (${summary})`, { fields, action: DEFAULT_ACTIONS['bad-input'] });
}

function forbiddenEnvelope(channel: string): Envelope<never> {
  return {
    ok: false,
    error: {
      code: 'forbidden',
      message: `${channel} refused: the caller is not Skein's window`,
      details: { action: DEFAULT_ACTIONS.forbidden },
    },
  };
}

function internal(): SkeinErrorData {
  return {
    code: 'internal',
    message: 'Something went wrong inside Skein.',
    details: { action: DEFAULT_ACTIONS.internal },
  };
}

/** The dispatcher of Skein's bridge contract. */
export function createDispatcher(handlers: Handlers, options: DispatcherOptions = {}): Dispatcher {
  return createContractDispatcher(contract, handlers, options);
}

/** A dispatcher for any contract (the real one, or a small one in tests). */
export function createContractDispatcher<C extends ContractShape>(
  shape: C,
  handlers: HandlersOf<C>,
  options: DispatcherOptions = {},
): Dispatcher {
  const routes = new Map<string, { spec: FnSpec; handler: AnyHandler }>();
  const table = handlers as unknown as Record<string, Record<string, AnyHandler>>;
  for (const [ns, name, spec] of contractEntries(shape)) {
    const handler = table[ns]?.[name];
    // Handlers is typed so a missing one does not compile; this guards plain-JS callers.
    if (typeof handler !== 'function') throw new Error(`no handler for ${channelName(ns, name)}`);
    routes.set(channelName(ns, name), { spec, handler: handler.bind(table[ns]) });
  }

  async function dispatch(channel: string, input: unknown, ctx: HandlerContext): Promise<Envelope<unknown>> {
    const route = routes.get(channel);
    if (!route)
      return {
        ok: false,
        error: { code: 'bad-input', message: `Unknown bridge function ${String(channel).slice(0, 80)}` },
      };
    const parsed = route.spec.input.safeParse(input);
    if (!parsed.success) return { ok: false, error: badInput(parsed.error).toData() };
    let result: unknown;
    try {
      result = await route.handler(parsed.data, ctx);
    } catch (error) {
      if (isSkeinError(error)) return { ok: false, error: error.toData() };
      if (error instanceof z.ZodError) return { ok: false, error: badInput(error).toData() };
      options.onInternalError?.(error, channel);
      return { ok: false, error: internal() };
    }
    const out = route.spec.output.safeParse(result);
    if (!out.success) {
      options.onInternalError?.(
        new Error(`${channel} returned data outside its contract: ${out.error.message}`),
        channel,
      );
      return { ok: false, error: internal() };
    }
    return { ok: true, data: out.data };
  }

  return { channels: [...routes.keys()], dispatch };
}

/** A frame as the sender check sees it (Electron's WebFrameMain fits). */
export interface FrameLike {
  readonly url: string;
  readonly parent: FrameLike | null;
}

/**
 * Whether a calling frame is Skein's own window: a top-level frame whose URL
 * has one of the allowed origins (`skein://app`, or the dev server in
 * `npm run dev`). Sub-frames, destroyed frames and other origins are refused.
 */
export function isTrustedFrame(frame: FrameLike | null | undefined, allowedOrigins: readonly string[]): boolean {
  if (!frame || frame.parent !== null) return false;
  const origin = originOf(frame.url);
  return origin !== null && allowedOrigins.some((allowed) => originOf(allowed) === origin);
}

/** `protocol//host[:port]`, also for custom schemes (whose WHATWG `origin` is "null"). */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    if (!u.host) return null;
    return `${u.protocol}//${u.host}`;
  } catch {
    return null;
  }
}

/**
 * The `handle()` wrapper every bridge call goes through: sender check first,
 * then the dispatcher. Electron's registrar (electron-ipc.ts) and the e2e host
 * both call this, so both enforce the same rules.
 */
export function guarded(dispatcher: Dispatcher, isTrusted: (frame: FrameLike | null | undefined) => boolean) {
  return async function handle(
    channel: string,
    frame: FrameLike | null | undefined,
    input: unknown,
    ctx: HandlerContext,
  ): Promise<Envelope<unknown>> {
    if (!isTrusted(frame)) return forbiddenEnvelope(channel);
    return dispatcher.dispatch(channel, input, ctx);
  };
}
