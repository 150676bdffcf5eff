/** Electron glue: hand an http(s) URL to the system browser (callers go through openExternalSafely). */
import { shell } from 'electron';
import { externalTarget } from '../window';

export async function openInSystemBrowser(url: string): Promise<void> {
  const target = externalTarget(url);
  if (target) await shell.openExternal(target, { activate: true });
}
