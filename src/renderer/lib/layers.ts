/**
 * What is shown in front of a view — an open panel, an inline confirmation, a menu, a notice — registers
 * here while it is open (`useDismissable`). Esc closes the one opened last, and means Back only when none
 * is open (`keyboard.ts`). Modal `<dialog>`s opened with `showModal()` are in front of everything and
 * close on Esc by themselves, so the global keys leave Esc to them.
 */
import { useEffect, useLayoutEffect, useRef } from 'react';

interface Layer {
  close: () => void;
  /** what had focus when the layer opened: focus goes back to it when closing loses focus */
  opener: Element | null;
}

const stack: Layer[] = [];

const activeElement = (): Element | null => (typeof document === 'undefined' ? null : document.activeElement);

/** Registers a layer; returns its removal (idempotent). */
export function pushLayer(close: () => void): () => void {
  const layer: Layer = { close, opener: activeElement() };
  stack.push(layer);
  return () => {
    const i = stack.lastIndexOf(layer);
    if (i >= 0) stack.splice(i, 1);
  };
}

/** How many layers are open (for tests and for keys that must not act behind one). */
export function openLayers(): number {
  return stack.length;
}

/**
 * Closes the layer opened last; false when none is open. If closing leaves focus nowhere (the focused
 * control was inside the layer), focus returns to what had it when the layer opened.
 */
export function closeTopLayer(): boolean {
  const top = stack.pop();
  if (!top) return false;
  top.close();
  const opener = top.opener;
  if (typeof HTMLElement !== 'undefined' && opener instanceof HTMLElement) {
    requestAnimationFrame(() => {
      const now = document.activeElement;
      if ((!now || now === document.body) && opener.isConnected) opener.focus({ preventScroll: true });
    });
  }
  return true;
}

/** While `open`, the component is a layer that Esc closes (with `close`) before Esc ever means Back. */
export function useDismissable(open: boolean, close: () => void): void {
  const latest = useRef(close);
  useLayoutEffect(() => {
    latest.current = close;
  });
  useEffect(() => {
    if (!open) return;
    return pushLayer(() => latest.current());
  }, [open]);
}
