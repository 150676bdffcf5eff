import { describe, expect, it, vi } from 'vitest';
import { withScroller } from './view-scroll';

const scroller = {} as HTMLElement;

describe('withScroller', () => {
  it('attaches at once when the view is already in the page', () => {
    const detach = vi.fn();
    const attach = vi.fn(() => detach);
    const cleanup = withScroller({ current: scroller }, attach);
    expect(attach).toHaveBeenCalledWith(scroller);
    cleanup();
    expect(detach).toHaveBeenCalledOnce();
  });

  it('waits for a view mounted in the same commit, whose ref is set later in that commit', async () => {
    const ref: { current: HTMLElement | null } = { current: null };
    const attach = vi.fn();
    withScroller(ref, attach);
    expect(attach).not.toHaveBeenCalled();
    // React attaches the view's ref later in the same commit
    ref.current = scroller;
    await Promise.resolve();
    expect(attach).toHaveBeenCalledWith(scroller);
  });

  it('does not attach for a component gone before its view came', async () => {
    const ref: { current: HTMLElement | null } = { current: null };
    const attach = vi.fn();
    const cleanup = withScroller(ref, attach);
    ref.current = scroller;
    cleanup();
    await Promise.resolve();
    expect(attach).not.toHaveBeenCalled();
  });
});
