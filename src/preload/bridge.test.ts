import { describe, expect, it, vi } from 'vitest';
import { contract } from '../shared/ipc';
import { bridgeLayout, buildBridge } from './bridge';

const contractKeys = Object.fromEntries(Object.entries(contract).map(([ns, fns]) => [ns, Object.keys(fns)]));

function shapeOf(bridge: Record<string, unknown>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(bridge).map(([ns, fns]) => [ns, Object.keys(fns as object)]));
}

describe('buildBridge', () => {
  it('exposes exactly the contract namespaces and functions, plus events.on', () => {
    const bridge = buildBridge(bridgeLayout(), vi.fn(), vi.fn());
    expect(Object.keys(bridge)).toEqual([...Object.keys(contract), 'events']);
    expect(shapeOf(bridge)).toEqual({ ...contractKeys, events: ['on'] });
  });

  it('routes a call to its channel with the input untouched', async () => {
    const invoke = vi.fn(async () => ({ ok: true, data: 'x' }));
    const bridge = buildBridge(bridgeLayout(), invoke, vi.fn()) as {
      app: { info: () => Promise<unknown> };
      api: { call: (i: unknown) => Promise<unknown> };
    };
    await bridge.app.info();
    await bridge.api.call({ operation: 'trends', params: {} });
    expect(invoke.mock.calls).toEqual([
      ['skein:app.info', undefined],
      ['skein:api.call', { operation: 'trends', params: {} }],
    ]);
  });

  it('is frozen so the page cannot swap a function', () => {
    const bridge = buildBridge(bridgeLayout(), vi.fn(), vi.fn()) as { app: Record<string, unknown> };
    expect(Object.isFrozen(bridge)).toBe(true);
    expect(Object.isFrozen(bridge.app)).toBe(true);
  });

  it('subscribes only to contract events and returns an unsubscribe function', () => {
    const off = vi.fn();
    const subscribe = vi.fn(() => off);
    const bridge = buildBridge(bridgeLayout(), vi.fn(), subscribe) as {
      events: { on: (n: unknown, cb: unknown) => () => void };
    };
    const cb = vi.fn();
    const unsubscribe = bridge.events.on('menu', cb);
    expect(subscribe).toHaveBeenCalledWith('skein:event.menu', 'menu', expect.any(Function));
    const forward = (subscribe.mock.calls[0] as unknown as [string, string, (p: unknown) => void])[2];
    forward('back');
    expect(cb).toHaveBeenCalledWith('back');
    unsubscribe();
    expect(off).toHaveBeenCalledOnce();
    expect(() => bridge.events.on('skein:api.call', cb)).toThrow(/Unknown event/);
    expect(() => bridge.events.on('__proto__', cb)).toThrow(/Unknown event/);
    expect(() => bridge.events.on('menu', 'not a function')).toThrow(TypeError);
  });
});
