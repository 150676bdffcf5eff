import { describe, expect, it, vi } from 'vitest';
import { closeTopLayer, openLayers, pushLayer } from './layers';

describe('the layers in front of a view', () => {
  it('Esc closes the layer opened last, then the one under it, and only then means Back', () => {
    const closed: string[] = [];
    const removeMenu = pushLayer(() => closed.push('panel'));
    pushLayer(() => closed.push('confirmation'));
    expect(openLayers()).toBe(2);
    expect(closeTopLayer()).toBe(true);
    expect(closed).toEqual(['confirmation']);
    expect(closeTopLayer()).toBe(true);
    expect(closed).toEqual(['confirmation', 'panel']);
    // nothing left in front: the caller goes back
    expect(closeTopLayer()).toBe(false);
    // a layer that closed itself meanwhile is removed once, without touching the others
    removeMenu();
    expect(openLayers()).toBe(0);
  });

  it('a layer that closes by itself (its own button) leaves the stack; Esc skips it', () => {
    const first = vi.fn();
    const second = vi.fn();
    pushLayer(first);
    const removeSecond = pushLayer(second);
    removeSecond();
    removeSecond();
    expect(closeTopLayer()).toBe(true);
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).not.toHaveBeenCalled();
    expect(openLayers()).toBe(0);
  });
});
