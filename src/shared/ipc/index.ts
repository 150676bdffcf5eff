/**
 * The bridge contract: every function the renderer may call, with its input
 * and output schemas. One file per area; this file joins them.
 */
import { apiContract } from './api';
import { appContract, type EventName, type EventPayload } from './app';
import { archiveContract } from './archive';
import { codingContract } from './coding';
import type { BridgeOf, ClientOf, HandlersOf } from './define';
import { exportContract } from './export';
import { idsContract } from './ids';
import { jobsContract } from './jobs';
import { mediaContract } from './media';
import { pagesContract } from './pages';
import { settingsContract } from './settings';
import { watchContract } from './watch';

export const contract = {
  ...appContract,
  ...apiContract,
  ...settingsContract,
  ...exportContract,
  ...idsContract,
  ...jobsContract,
  ...archiveContract,
  ...codingContract,
  ...watchContract,
  ...mediaContract,
  ...pagesContract,
};

export type Contract = typeof contract;
export type SkeinBridge = BridgeOf<Contract> & {
  /** subscribe to an event from main; returns an unsubscribe function */
  events: { on: <E extends EventName>(name: E, cb: (payload: EventPayload<E>) => void) => () => void };
};
export type SkeinClient = ClientOf<Contract>;
export type Handlers = HandlersOf<Contract>;

export * from './define';
export * from './app';
export * from './api';
export * from './settings';
export * from './export';
export * from './ids';
export * from './jobs';
export * from './archive';
export * from './coding';
export * from './watch';
export * from './media';
export * from './pages';
