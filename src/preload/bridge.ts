/**
 * The shape of `window.skein`, built from the bridge contract and nothing
 * else. Electron-free: the preload builds it over ipcRenderer, and the browser
 * shell serves the very same function (as source, src/shells/web/client.ts)
 * over its HTTP endpoint, so both expose exactly the same object.
 */
import { channelName, contract, contractEntries, eventChannelName, events, type ContractShape } from '../shared/ipc';

/** namespace → function → channel; plus the event names and their channels. */
export interface BridgeLayout {
  readonly functions: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly events: Readonly<Record<string, string>>;
}

export function bridgeLayout(
  shape: ContractShape = contract,
  eventNames: readonly string[] = Object.keys(events),
): BridgeLayout {
  const functions: Record<string, Record<string, string>> = {};
  for (const [ns, name] of contractEntries(shape)) (functions[ns] ??= {})[name] = channelName(ns, name);
  const ev: Record<string, string> = {};
  for (const name of eventNames) ev[name] = eventChannelName(name);
  return { functions, events: ev };
}

export type Invoke = (channel: string, input: unknown) => Promise<unknown>;
/** Listens on an event channel; returns a function that stops listening. */
export type Subscribe = (eventChannel: string, name: string, listener: (payload: unknown) => void) => () => void;

/**
 * Builds `window.skein`: `{ [namespace]: { [fn]: (input) => Promise<Envelope> }, events: { on } }`.
 * Must stay self-contained (no imports, no outer variables): the browser shell
 * serializes it with `Function.prototype.toString` into the page.
 */
export function buildBridge(layout: BridgeLayout, invoke: Invoke, subscribe: Subscribe): Record<string, unknown> {
  const bridge: Record<string, unknown> = {};
  for (const ns of Object.keys(layout.functions)) {
    const fns = layout.functions[ns] ?? {};
    const api: Record<string, (input?: unknown) => Promise<unknown>> = {};
    for (const name of Object.keys(fns)) {
      const channel = fns[name] as string;
      api[name] = (input?: unknown) => invoke(channel, input);
    }
    bridge[ns] = Object.freeze(api);
  }
  const on = (name: unknown, listener: unknown): (() => void) => {
    if (typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(layout.events, name)) {
      throw new TypeError(`Unknown event: ${String(name)}`);
    }
    if (typeof listener !== 'function') throw new TypeError('listener must be a function');
    return subscribe(layout.events[name] as string, name, (payload) => (listener as (p: unknown) => void)(payload));
  };
  bridge.events = Object.freeze({ on });
  return Object.freeze(bridge);
}
