/**
 * The preload of Skein's sandboxed window (bundled as CommonJS). It exposes
 * `window.skein`, generated from the bridge contract: the contract's functions
 * and `events.on`, nothing else (no generic invoke, no process, no env).
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { bridgeLayout, buildBridge } from './bridge';
import { contractEvents } from './events';

const bridge = buildBridge(
  bridgeLayout(),
  (channel, input) => ipcRenderer.invoke(channel, input),
  contractEvents<IpcRendererEvent>(ipcRenderer),
);

contextBridge.exposeInMainWorld('skein', bridge);
