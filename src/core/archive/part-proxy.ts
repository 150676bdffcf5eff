/**
 * Main's view of a part the project hosts: an object whose every method is the part's, called by name in the
 * archive's worker (`part` in host.ts) on the project of a handle. One proxy for every part, as VS Code's
 * ProxyChannel does, so no area forwards its calls by hand and a new table method needs no edit here.
 */
import type { Handle } from './host';
import type { ArchiveThread } from './thread';

/** Every method of `T`, its result a promise (each call crosses a thread). */
export type PartCalls<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

export function partProxy<T extends object>(thread: ArchiveThread, handle: Handle, part: string): PartCalls<T> {
  return new Proxy({} as PartCalls<T>, {
    get: (_, method) =>
      // a promise's `then` is looked up on whatever is awaited: this object is not one
      typeof method !== 'string' || method === 'then'
        ? undefined
        : (...args: unknown[]) => thread.call('part', handle, part, method, args),
  });
}
