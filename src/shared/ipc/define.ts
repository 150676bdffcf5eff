/**
 * The machinery of the bridge contract: a function is an input schema and an
 * output schema; the contract is namespaces of functions. Types for the
 * preload, the renderer's client and main's handlers are all derived here.
 */
import type { z } from 'zod';
import type { SkeinErrorData } from '../errors';

export interface FnSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly input: I;
  readonly output: O;
}

export function fn<I extends z.ZodType, O extends z.ZodType>(input: I, output: O): FnSpec<I, O> {
  return { input, output };
}

export type Namespace = Record<string, FnSpec>;
export type ContractShape = Record<string, Namespace>;

/** What crosses the bridge: never a thrown Error (Electron keeps only its message). */
export type Envelope<T> = { ok: true; data: T } | { ok: false; error: SkeinErrorData };

type Args<I extends z.ZodType> = undefined extends z.input<I> ? [input?: z.input<I>] : [input: z.input<I>];

/** `window.skein` as the preload exposes it: each function resolves to an envelope. */
export type BridgeOf<C extends ContractShape> = {
  [NS in keyof C]: {
    [F in keyof C[NS]]: (...args: Args<C[NS][F]['input']>) => Promise<Envelope<z.output<C[NS][F]['output']>>>;
  };
};

/** The renderer's view: envelopes unwrapped, failures thrown as SkeinError. */
export type ClientOf<C extends ContractShape> = {
  [NS in keyof C]: {
    [F in keyof C[NS]]: (...args: Args<C[NS][F]['input']>) => Promise<z.output<C[NS][F]['output']>>;
  };
};

export interface HandlerContext {
  /** id of the WebContents that called (for per-window cancellation) */
  senderId: number;
}

/** Main's handlers: one per contract function, or it does not compile. */
export type HandlersOf<C extends ContractShape> = {
  [NS in keyof C]: {
    [F in keyof C[NS]]: (
      input: z.output<C[NS][F]['input']>,
      ctx: HandlerContext,
    ) => Promise<z.input<C[NS][F]['output']>> | z.input<C[NS][F]['output']>;
  };
};

export function channelName(ns: string, name: string): string {
  return `skein:${ns}.${name}`;
}

/** Every `[namespace, function]` pair of a contract, in declaration order. */
export function contractEntries<C extends ContractShape>(c: C): Array<[ns: string, name: string, spec: FnSpec]> {
  const out: Array<[string, string, FnSpec]> = [];
  for (const [ns, fns] of Object.entries(c)) for (const [name, spec] of Object.entries(fns)) out.push([ns, name, spec]);
  return out;
}

/** Channel of an event main pushes to the renderer (`skein:event.menu`). */
export function eventChannelName(name: string): string {
  return `skein:event.${name}`;
}
