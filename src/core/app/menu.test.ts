import { describe, expect, it, vi } from 'vitest';
import type { MenuCommand } from '../../shared/ipc';
import { menuTemplate, type MenuItem } from './menu';

function flatten(items: MenuItem[]): MenuItem[] {
  return items.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? flatten(item.submenu) : [])]);
}

function build(platform: NodeJS.Platform, developer = false) {
  const sent: MenuCommand[] = [];
  const template = menuTemplate({ appName: 'Skein', platform, developer, send: (c) => sent.push(c) });
  const items = flatten(template);
  const byAccelerator = (acc: string) => items.filter((i) => i.accelerator === acc);
  const click = (item: MenuItem | undefined) => item?.click?.();
  return { template, items, sent, byAccelerator, click };
}

describe('menuTemplate', () => {
  it('has File, Edit, View, Go and Help on Windows and Linux', () => {
    for (const platform of ['win32', 'linux'] as const) {
      expect(build(platform).template.map((m) => m.label?.replace('&', ''))).toEqual([
        'File',
        'Edit',
        'View',
        'Go',
        'Help',
      ]);
    }
  });

  it('adds the app menu first on macOS and keeps Quit there', () => {
    const { template, items } = build('darwin');
    expect(template[0]?.label).toBe('Skein');
    expect(template.map((m) => m.label?.replace('&', '') ?? m.role)).toEqual([
      'Skein',
      'File',
      'Edit',
      'View',
      'Go',
      'windowMenu',
      'Help',
    ]);
    expect(items.filter((i) => i.role === 'quit')).toHaveLength(1);
    expect(items.find((i) => i.role === 'quit')?.accelerator).toBe('Cmd+Q');
  });

  it('binds the platform roles to the usual shortcuts', () => {
    const { items } = build('linux');
    const role = (r: string) => items.find((i) => i.role === r)?.accelerator;
    expect(role('copy')).toBe('CmdOrCtrl+C');
    expect(role('paste')).toBe('CmdOrCtrl+V');
    expect(role('zoomIn')).toBe('CmdOrCtrl+=');
    expect(role('zoomOut')).toBe('CmdOrCtrl+-');
    expect(role('resetZoom')).toBe('CmdOrCtrl+0');
    expect(role('reload')).toBe('CmdOrCtrl+R');
    expect(role('quit')).toBe('Ctrl+Q');
  });

  it('sends Skein commands to the renderer from their shortcuts', () => {
    const { byAccelerator, click, sent } = build('linux');
    for (const acc of ['Alt+Left', 'Alt+Right', 'CmdOrCtrl+E', 'CmdOrCtrl+L', 'CmdOrCtrl+,', 'CmdOrCtrl+Shift+U']) {
      expect(byAccelerator(acc)).toHaveLength(1);
      click(byAccelerator(acc)[0]);
    }
    expect(sent).toEqual(['back', 'forward', 'export', 'focus-go', 'open-settings', 'open-usage']);
  });

  it('never binds one shortcut twice', () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      const accs = build(platform, true)
        .items.map((i) => i.accelerator)
        .filter(Boolean);
      expect(new Set(accs).size).toBe(accs.length);
    }
  });

  it('shows developer tools only for developers', () => {
    expect(build('linux', false).items.some((i) => i.role === 'toggleDevTools')).toBe(false);
    expect(build('linux', true).items.some((i) => i.role === 'toggleDevTools')).toBe(true);
  });

  it('does not send anything until clicked', () => {
    const send = vi.fn();
    menuTemplate({ appName: 'Skein', platform: 'linux', developer: false, send });
    expect(send).not.toHaveBeenCalled();
  });
});
