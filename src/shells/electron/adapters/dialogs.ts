/** Electron glue: the native save and open dialogs behind the core's `chooseSavePath` and `chooseOpenPath`. */
import { BrowserWindow, dialog } from 'electron';
import type { ChooseOpenPath, ChooseSavePath } from '../../../core';

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

/** A project file to open: the page never names a path, the user picks it here. */
export const chooseOpenPathWithDialog: ChooseOpenPath = async (request) => {
  const parent = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
  const options = { title: request.title, filters: request.filters, properties: ['openFile'] as Array<'openFile'> };
  const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
};
