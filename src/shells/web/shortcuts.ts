/**
 * The desktop menu's keyboard shortcuts, for the browser shell, which has no
 * native menu: read from the menu's own template (src/core/app/menu.ts), so the
 * two shells cannot disagree. Only Ctrl/Cmd shortcuts a page can take are kept:
 * Alt+←/→ are the browser's own back and forward (the app's history is the
 * browser's), and Ctrl/Cmd+L is its address bar.
 */
import type { MenuCommand } from '../../shared/ipc';
import { menuTemplate, type MenuItem } from '../../core';

export interface Shortcut {
  /** `KeyboardEvent.key`, lower case */
  key: string;
  shift: boolean;
  command: MenuCommand;
}

const LEFT_TO_THE_BROWSER = new Set(['l']);

export function menuShortcuts(platform: NodeJS.Platform = process.platform): Shortcut[] {
  let sent: MenuCommand | null = null;
  const found = new Map<string, Shortcut>();
  const walk = (items: MenuItem[]) => {
    for (const item of items) {
      if (Array.isArray(item.submenu)) walk(item.submenu);
      if (typeof item.accelerator !== 'string' || typeof item.click !== 'function') continue;
      sent = null;
      item.click();
      const command = sent as MenuCommand | null;
      const parts = item.accelerator.split('+');
      const key = (parts.pop() ?? '').toLowerCase();
      const mods = new Set(parts);
      if (
        !command ||
        !(mods.has('CmdOrCtrl') || mods.has('Cmd') || mods.has('Ctrl')) ||
        mods.has('Alt') ||
        LEFT_TO_THE_BROWSER.has(key)
      )
        continue;
      const shortcut = { key, shift: mods.has('Shift'), command };
      found.set(`${shortcut.shift ? 'shift+' : ''}${key}`, shortcut);
    }
  };
  walk(
    menuTemplate({
      appName: 'Skein',
      platform,
      developer: false,
      send: (command) => {
        sent = command;
      },
    }),
  );
  return [...found.values()];
}
