/**
 * The calling end, typed by the one interface the other end implements: over a worker (start.ts), over a
 * MessagePort another thread was given (`connectPort`), or on this thread (`inProcess`), the same calls.
 */
import type { MessagePort } from 'node:worker_threads';
import { asError, fromWire, invoke, isThenable, type Reply, type Request } from './protocol';

/** The argument list of one of an interface's methods. */
export type Args<F> = F extends (...args: infer A) => unknown ? A : never;
/** What one of an interface's methods answers, once awaited. */
export type Result<F> = F extends (...args: never[]) => infer R ? Awaited<R> : never;
export type Method<Api> = keyof Api & string;

export interface Client<Api> {
  /** runs `method` where the implementation lives; resolves with its answer, rejects with its error */
  call: <M extends Method<Api>>(method: M, ...args: Args<Api[M]>) => Promise<Result<Api[M]>>;
  /** one way: runs `method` there and never waits (a failure goes to the worker's `onError`) */
  post: <M extends Method<Api>>(method: M, ...args: Args<Api[M]>) => void;
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** Calls sent with `send` and matched with their replies; `end` rejects the calls waiting and every later one. */
export function link<Api>(send: (request: Request) => void) {
  const pending = new Map<number, Pending>();
  let next = 1;
  let ended: Error | null = null;
  const client: Client<Api> = {
    call: (method, ...args) =>
      new Promise((resolve, reject) => {
        if (ended) return reject(ended);
        const id = next++;
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        try {
          send({ kind: 'call', id, method, args });
        } catch (e) {
          pending.delete(id); // arguments that cannot be cloned
          reject(asError(e));
        }
      }),
    post: (method, ...args) => {
      if (!ended) send({ kind: 'post', method, args });
    },
  };
  return {
    client,
    receive: (reply: Reply): void => {
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      if (reply.ok) p.resolve(reply.value);
      else p.reject(fromWire(reply.error));
    },
    end: (error: Error): void => {
      ended ??= error;
      for (const p of pending.values()) p.reject(error);
      pending.clear();
    },
  };
}

/** The api served at the other end of `port` (a worker's `port()`, transferred to this thread). */
export function connectPort<Api>(port: MessagePort): Client<Api> & { close: () => Promise<void> } {
  const { client, receive, end } = link<Api>((request) => port.postMessage(request));
  port.on('message', (reply: Reply) => receive(reply));
  port.once('close', () => end(new Error('the worker’s port closed')));
  return { ...client, close: async () => port.close() };
}

/**
 * The same client over an implementation on this thread (where no worker can start): a call runs at
 * once and answers as a promise, with the implementation's own errors. `report`: a post that failed.
 */
export function inProcess<Api extends object>(api: Api, report: (error: Error) => void = () => undefined): Client<Api> {
  return {
    call: (method, ...args) => {
      try {
        return Promise.resolve(invoke(api, method, args)) as Promise<never>;
      } catch (e) {
        return Promise.reject(asError(e));
      }
    },
    post: (method, ...args) => {
      try {
        const value = invoke(api, method, args);
        if (isThenable(value)) value.then(undefined, (e: unknown) => report(asError(e)));
      } catch (e) {
        report(asError(e));
      }
    },
  };
}
