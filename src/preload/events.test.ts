import { describe, expect, it } from 'vitest';
import { contractEvents, type EventSource } from './events';

type Listener = (event: { sender: string }, payload: unknown) => void;

/** a stand-in for ipcRenderer: main "sends" with `deliver` */
function fakeIpc() {
  const listeners = new Map<string, Set<Listener>>();
  const ipc: EventSource<{ sender: string }> & { deliver: (channel: string, payload: unknown) => void } = {
    on: (channel, l) => listeners.set(channel, (listeners.get(channel) ?? new Set()).add(l)),
    removeListener: (channel, l) => listeners.get(channel)?.delete(l),
    deliver: (channel, payload) => {
      for (const l of listeners.get(channel) ?? []) l({ sender: 'main-webcontents' }, payload);
    },
  };
  return ipc;
}

describe('the preload’s events', () => {
  it('hands the page only payloads that fit the contract, never the IPC event', () => {
    const ipc = fakeIpc();
    const seen: unknown[][] = [];
    contractEvents(ipc)('skein:event.menu', 'menu', (...args: unknown[]) => seen.push(args));
    ipc.deliver('skein:event.menu', 'open-settings');
    ipc.deliver('skein:event.menu', 'rm -rf /');
    ipc.deliver('skein:event.menu', { toString: () => 'back' });
    ipc.deliver('skein:event.menu', undefined);
    expect(seen).toEqual([['open-settings']]);
  });

  it('checks each event against its own schema', () => {
    const ipc = fakeIpc();
    const seen: unknown[] = [];
    contractEvents(ipc)('skein:event.export', 'export', (payload) => seen.push(payload));
    ipc.deliver('skein:event.export', 'open-settings');
    ipc.deliver('skein:event.export', { id: 'x', status: 'complete' });
    expect(seen).toEqual([]);
  });

  it('stops after unsubscribing', () => {
    const ipc = fakeIpc();
    const seen: unknown[] = [];
    const off = contractEvents(ipc)('skein:event.menu', 'menu', (payload) => seen.push(payload));
    ipc.deliver('skein:event.menu', 'back');
    off();
    ipc.deliver('skein:event.menu', 'forward');
    expect(seen).toEqual(['back']);
  });
});
