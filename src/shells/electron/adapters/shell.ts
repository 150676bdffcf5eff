/**
 * Electron glue: reveal a written file; hand a URL to the system browser. Callers decide: the
 * window's guard passes https links (externalTarget), the bridge passes what
 * openExternalSafely allowed (an http: link only after the user's yes).
 */
import { shell } from 'electron';
import { linkVerdict } from '../../../shared/ipc/app';

/** Reveals a file in the file manager; the core has checked it is one it wrote. */
export function showInFileManager(path: string): Promise<void> {
  shell.showItemInFolder(path);
  return Promise.resolve();
}

export async function openInSystemBrowser(url: string): Promise<void> {
  if (linkVerdict(url) === 'refused') return;
  await shell.openExternal(new URL(url).toString(), { activate: true });
}
