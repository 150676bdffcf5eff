/**
 * Electron glue: the core's `confirm` as a native message box. It is drawn by
 * the OS, outside the page, so script in the renderer can neither answer it
 * nor fake it. Cancel is the default button and what Esc answers.
 */
import { BrowserWindow, dialog } from 'electron';
import type { Confirm } from '../../../core';

export const confirmWithDialog: Confirm = async (request) => {
  const parent = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
  const options = {
    type: 'warning' as const,
    title: 'Skein',
    message: request.title,
    detail: request.detail,
    buttons: ['Cancel', request.confirmLabel],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  };
  const result = parent ? await dialog.showMessageBox(parent, options) : await dialog.showMessageBox(options);
  return result.response === 1;
};
