/**
 * The native application menu as a pure template, in the shape Electron's `Menu.buildFromTemplate` takes
 * (checked where the Electron shell passes it), without importing electron.
 * Roles do the platform's own work (copy, zoom, quit); Skein's commands are
 * sent to the renderer as `events.menu`, which owns navigation and views.
 */
import type { MenuCommand } from '../../shared/ipc';

/** The platform's own menu actions Skein uses (Electron's `role`s). */
type MenuRole =
  | 'about'
  | 'close'
  | 'copy'
  | 'cut'
  | 'help'
  | 'hide'
  | 'hideOthers'
  | 'paste'
  | 'quit'
  | 'redo'
  | 'reload'
  | 'resetZoom'
  | 'selectAll'
  | 'services'
  | 'toggleDevTools'
  | 'togglefullscreen'
  | 'undo'
  | 'unhide'
  | 'windowMenu'
  | 'zoomIn'
  | 'zoomOut';

/** A menu entry: the part of Electron's `MenuItemConstructorOptions` Skein uses. */
export interface MenuItem {
  label?: string;
  role?: MenuRole;
  type?: 'separator';
  accelerator?: string;
  click?: () => void;
  submenu?: MenuItem[];
}

export interface MenuOptions {
  appName: string;
  platform: NodeJS.Platform;
  /** delivers a command to the focused Skein window */
  send: (command: MenuCommand) => void;
  /** show developer tools (not in packaged builds) */
  developer: boolean;
}

export function menuTemplate({ appName, platform, send, developer }: MenuOptions): MenuItem[] {
  const mac = platform === 'darwin';
  const command = (label: string, cmd: MenuCommand, accelerator?: string): MenuItem => ({
    label,
    accelerator,
    click: () => send(cmd),
  });
  const sep: MenuItem = { type: 'separator' };

  const appMenu: MenuItem = {
    label: appName,
    submenu: [
      { role: 'about', label: `About ${appName}` },
      sep,
      command('Settings…', 'open-settings', 'CmdOrCtrl+,'),
      sep,
      { role: 'services' },
      sep,
      { role: 'hide', accelerator: 'Cmd+H' },
      { role: 'hideOthers', accelerator: 'Cmd+Alt+H' },
      { role: 'unhide' },
      sep,
      { role: 'quit', label: `Quit ${appName}`, accelerator: 'Cmd+Q' },
    ],
  };

  const file: MenuItem = {
    label: '&File',
    submenu: [
      command('Export…', 'export', 'CmdOrCtrl+E'),
      sep,
      command('Usage and Credits', 'open-usage', 'CmdOrCtrl+Shift+U'),
      ...(mac
        ? []
        : [
            command('Settings…', 'open-settings', 'CmdOrCtrl+,'),
            sep,
            { role: 'quit', label: 'Quit', accelerator: 'Ctrl+Q' } as const,
          ]),
      ...(mac ? [sep, { role: 'close', accelerator: 'Cmd+W' } as const] : []),
    ],
  };

  const edit: MenuItem = {
    label: '&Edit',
    submenu: [
      { role: 'undo', accelerator: 'CmdOrCtrl+Z' },
      { role: 'redo', accelerator: mac ? 'Shift+Cmd+Z' : 'Ctrl+Y' },
      sep,
      { role: 'cut', accelerator: 'CmdOrCtrl+X' },
      { role: 'copy', accelerator: 'CmdOrCtrl+C' },
      { role: 'paste', accelerator: 'CmdOrCtrl+V' },
      { role: 'selectAll', accelerator: 'CmdOrCtrl+A' },
    ],
  };

  const view: MenuItem = {
    label: '&View',
    submenu: [
      { role: 'reload', accelerator: 'CmdOrCtrl+R' },
      ...(developer ? [{ role: 'toggleDevTools', accelerator: mac ? 'Alt+Cmd+I' : 'Ctrl+Shift+I' } as const] : []),
      sep,
      { role: 'resetZoom', accelerator: 'CmdOrCtrl+0' },
      { role: 'zoomIn', accelerator: 'CmdOrCtrl+=' },
      { role: 'zoomOut', accelerator: 'CmdOrCtrl+-' },
      sep,
      { role: 'togglefullscreen', accelerator: mac ? 'Ctrl+Cmd+F' : 'F11' },
    ],
  };

  const go: MenuItem = {
    label: '&Go',
    submenu: [
      command('Back', 'back', 'Alt+Left'),
      command('Forward', 'forward', 'Alt+Right'),
      sep,
      command('Go to Post, User or Link…', 'focus-go', 'CmdOrCtrl+L'),
    ],
  };

  const windowMenu: MenuItem = { role: 'windowMenu' };

  const help: MenuItem = {
    role: 'help',
    label: '&Help',
    submenu: [
      command('Usage and Credits', 'open-usage'),
      ...(mac ? [] : [sep, { role: 'about', label: `About ${appName}` } as const]),
    ],
  };

  return mac ? [appMenu, file, edit, view, go, windowMenu, help] : [file, edit, view, go, help];
}
