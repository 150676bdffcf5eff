/**
 * App-wide keys and mouse buttons: Alt+←/→ and mouse back/forward walk
 * history, Esc closes what is in front (`layers.ts`) or else goes back, Backspace goes back, `/` focuses the Go box, j/k move between
 * the items of the current view (`[data-nav-item]`), and the native menu's
 * commands arrive from main as `menu` events.
 */
import { useEffect } from 'react';
import { onBridgeEvent } from './bridge';
import { routes } from './routes';
import { useUi } from '../state/ui';
import { closeTopLayer } from './layers';
import { goBack, goForward, navigate } from './navigation';

/** Fired on window when the menu asks to export the current view (the export button listens). */
export const EXPORT_EVENT = 'skein:export';

const TEXT_INPUT = /^(text|search|url|email|number|password|tel)$/;

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && TEXT_INPUT.test(target.type);
}

function navItems(): HTMLElement[] {
  const main = document.querySelector('main');
  return main ? Array.from(main.querySelectorAll<HTMLElement>('[data-nav-item]')) : [];
}

/** Focus the next (+1) or previous (-1) item of the view; scrolls so virtualized items render. */
function moveFocus(delta: 1 | -1, retry = true): void {
  const main = document.querySelector('main');
  const items = navItems();
  if (!main) return;
  const current = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('[data-nav-item]') ?? null;
  let idx = current ? items.indexOf(current) : -1;
  let next: HTMLElement | undefined;
  if (idx < 0) {
    const top = main.getBoundingClientRect().top;
    idx = items.findIndex((el) => el.getBoundingClientRect().bottom > top + 8);
    next = items[idx];
  } else {
    next = items[idx + delta];
  }
  if (next) {
    next.focus({ preventScroll: true });
    next.scrollIntoView({ block: 'nearest' });
    return;
  }
  if (!retry) return;
  // the neighbour is not rendered yet (virtualized): scroll towards it and try again
  main.scrollBy({ top: delta * main.clientHeight * 0.5 });
  requestAnimationFrame(() => requestAnimationFrame(() => moveFocus(delta, false)));
}

export function useGlobalKeys(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      if (e.altKey && !e.ctrlKey && !e.metaKey && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
        e.preventDefault();
        if (e.key === 'ArrowLeft') goBack();
        else goForward();
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      // a modal dialog is in front of everything and closes on Esc by itself
      if (document.querySelector('dialog[open]')) return;
      if (isTyping(e.target)) {
        // in a field, Esc closes what is in front (never Back); other keys are typing
        if (e.key === 'Escape' && closeTopLayer()) e.preventDefault();
        return;
      }
      switch (e.key) {
        case '/':
          e.preventDefault();
          useUi.getState().focusGoBox();
          break;
        case 'Escape': {
          e.preventDefault();
          // what is in front (a panel, a confirmation, a menu, a notice) closes first; only then is Esc Back
          if (!closeTopLayer()) goBack();
          break;
        }
        case 'Backspace':
          e.preventDefault();
          goBack();
          break;
        case 'j':
          e.preventDefault();
          moveFocus(1);
          break;
        case 'k':
          e.preventDefault();
          moveFocus(-1);
          break;
      }
    };
    const onMouse = (e: MouseEvent) => {
      if (e.button === 3) {
        e.preventDefault();
        goBack();
      } else if (e.button === 4) {
        e.preventDefault();
        goForward();
      }
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('mouseup', onMouse);
    const off = onBridgeEvent('menu', (cmd) => {
      switch (cmd) {
        case 'back':
          goBack();
          break;
        case 'forward':
          goForward();
          break;
        case 'focus-go':
          useUi.getState().focusGoBox();
          break;
        case 'open-settings':
          navigate(routes.settings());
          break;
        case 'open-usage':
          navigate(routes.usage());
          break;
        case 'export':
          window.dispatchEvent(new Event(EXPORT_EVENT));
          break;
      }
    });
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('mouseup', onMouse);
      off();
    };
  }, []);
}
