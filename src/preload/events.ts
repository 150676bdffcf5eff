/**
 * How the preload hands main's events to the page: only a payload that fits the contract's schema for that
 * event, and never the IPC event object (with its sender). Electron-free, so it is tested without Electron.
 */
import { events, type EventName } from '../shared/ipc';
import type { Subscribe } from './bridge';

/** What the preload needs of `ipcRenderer` to listen. */
export interface EventSource<E> {
  on: (channel: string, listener: (event: E, payload: unknown) => void) => unknown;
  removeListener: (channel: string, listener: (event: E, payload: unknown) => void) => unknown;
}

export function contractEvents<E>(ipc: EventSource<E>): Subscribe {
  return (channel, name, listener) => {
    const schema = events[name as EventName];
    const wrapped = (_event: E, payload: unknown) => {
      const parsed = schema.safeParse(payload);
      if (parsed.success) listener(parsed.data);
    };
    ipc.on(channel, wrapped);
    return () => {
      ipc.removeListener(channel, wrapped);
    };
  };
}
