/** Electron glue: the native save dialog behind the core's `chooseSavePath`. */
import { BrowserWindow, dialog } from 'electron';
import type { ChooseSavePath } from '../core';

export const chooseSavePathWithDialog: ChooseSavePath = async (request) => {
  const parent = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
  const options = {
    title: request.title ?? 'Export',
    defaultPath: request.defaultPath,
    filters: request.filters ?? [],
    properties: ['createDirectory', 'showOverwriteConfirmation'] as Array<
      'createDirectory' | 'showOverwriteConfirmation'
    >,
  };
  const result = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options);
  return result.canceled || !result.filePath ? null : result.filePath;
};
