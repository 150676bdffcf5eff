/**
 * Electron glue for exports: the taskbar/dock progress bar and the "export
 * finished" notification. (The save dialog is the core's `chooseSavePath`,
 * see adapters/dialogs.ts.)
 */
import { BrowserWindow, Notification } from 'electron';
import type { ExportPlatform } from '../../../core';

export function createExportPlatform(): ExportPlatform {
  return {
    setProgress(value) {
      for (const win of BrowserWindow.getAllWindows()) {
        if (win.isDestroyed()) continue;
        if (value === null) win.setProgressBar(-1);
        // Windows shows a moving bar; macOS and Linux show a full one
        else if (value === 'indeterminate') win.setProgressBar(2, { mode: 'indeterminate' });
        else win.setProgressBar(value, { mode: 'normal' });
      }
    },
    notify(title, body) {
      if (Notification.isSupported()) new Notification({ title, body, silent: false }).show();
    },
  };
}
