/** Whether the window is visible (polling stops while it is hidden or minimised). */
import { useSyncExternalStore } from 'react';

function subscribe(cb: () => void): () => void {
  document.addEventListener('visibilitychange', cb);
  return () => document.removeEventListener('visibilitychange', cb);
}

export function useDocumentVisible(): boolean {
  return useSyncExternalStore(subscribe, () => document.visibilityState !== 'hidden');
}
