/**
 * The preload of Skein's sandboxed window (bundled as CommonJS). It exposes
 * `window.skein`, generated from the bridge contract: the contract's functions
 * and `events.on`, nothing else (no generic invoke, no process, no env).
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { events, type EventName } from '../shared/ipc';
import { bridgeLayout, buildBridge } from './bridge';

const bridge = buildBridge(
  bridgeLayout(),
  (channel, input) => ipcRenderer.invoke(channel, input),
  (channel, name, listener) => {
    const schema = events[name as EventName];
    // Never hand the IpcRendererEvent (and its sender) to the page; only a payload that fits the contract.
    const wrapped = (_event: IpcRendererEvent, payload: unknown) => {
      const parsed = schema.safeParse(payload);
      if (parsed.success) listener(parsed.data);
    };
    ipcRenderer.on(channel, wrapped);
    return () => {
      ipcRenderer.removeListener(channel, wrapped);
    };
  },
);

contextBridge.exposeInMainWorld('skein', bridge);
