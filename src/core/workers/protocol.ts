/**
 * What crosses a worker's boundary, for both ends: calls and their replies, one-way posts, the worker's
 * own status, and errors as data. A `SkeinError` keeps its code, message and details (`toData()` there,
 * `SkeinError.from` here); any other error arrives as an `Error` with its message.
 */
import type { MessagePort } from 'node:worker_threads';
import { SkeinError, type SkeinErrorData } from '../../shared/errors';

export type WireError = { skein: SkeinErrorData } | { message: string };

/** a call awaits its reply; a post runs there and is never answered */
export type Request =
  { kind: 'call'; id: number; method: string; args: unknown[] } | { kind: 'post'; method: string; args: unknown[] };
export type Reply =
  { kind: 'reply'; id: number; ok: true; value: unknown } | { kind: 'reply'; id: number; ok: false; error: WireError };
/** main → worker, on the worker's own channel only */
export type Control = { kind: 'close' } | { kind: 'attach'; port: MessagePort };
/** worker → main, on the worker's own channel only */
export type Status =
  | { kind: 'ready'; ready: unknown }
  | { kind: 'failed'; error: WireError }
  | { kind: 'report'; error: WireError }
  | { kind: 'closed' };

export function toWire(error: unknown): WireError {
  if (error instanceof SkeinError) return { skein: error.toData() };
  return { message: error instanceof Error ? error.message : String(error) };
}

export function fromWire(error: WireError): Error {
  return 'skein' in error ? SkeinError.from(error.skein) : new Error(error.message);
}

export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

/** Runs `api[method](...args)`; a name that is not one of the api's functions is refused. */
export function invoke(api: object, method: string, args: unknown[]): unknown {
  const fn: unknown = method in Object.prototype ? undefined : (api as Record<string, unknown>)[method];
  if (typeof fn !== 'function') throw new Error(`there is no method ${method}`);
  return (fn as (...a: unknown[]) => unknown).apply(api, args);
}

/**
 * Serves one request: a call is run at once (so requests keep their order) and answered when its value
 * is known; a post's failure goes to `report`, as nobody waits for it.
 */
export function answer(api: object, request: Request, reply: (r: Reply) => void, report: (e: unknown) => void): void {
  if (request.kind === 'post') {
    try {
      const value = invoke(api, request.method, request.args);
      if (isThenable(value)) value.then(undefined, report);
    } catch (e) {
      report(e);
    }
    return;
  }
  const { id } = request;
  const fail = (e: unknown) => reply({ kind: 'reply', id, ok: false, error: toWire(e) });
  const succeed = (value: unknown) => {
    try {
      reply({ kind: 'reply', id, ok: true, value });
    } catch (e) {
      fail(e); // a value that cannot be cloned
    }
  };
  let value: unknown;
  try {
    value = invoke(api, request.method, request.args);
  } catch (e) {
    fail(e);
    return;
  }
  if (isThenable(value)) value.then(succeed, fail);
  else succeed(value);
}
