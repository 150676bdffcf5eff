/**
 * The page side of the browser shell (installWebBridge), with the page's
 * globals faked: events, the export's progress in the title, notifications
 * only when granted, and links opened by the page only when the shell says so.
 */
import { describe, expect, it, vi } from 'vitest';
import { channelName } from '../../shared/ipc';
import { bridgeLayout, buildBridge } from '../../preload/bridge';
import { installWebBridge, webBridgeScript } from './client';

function fakePage(options: { permission?: string; open?: boolean; status?: number } = {}) {
  let push: ((line: string) => void) | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      push = (line) => controller.enqueue(new TextEncoder().encode(`${line}\n`));
    },
  });
  const calls: unknown[] = [];
  const notifications: Array<{ title: string; body: string }> = [];
  const attributes = new Map<string, string>();
  const requestPermission = vi.fn(async () => 'granted');
  const win = {
    fetch: vi.fn(async (_url: string, init: { body: string }) => {
      const body = JSON.parse(init.body) as { subscribe?: string; channel?: string; input?: unknown };
      if (body.subscribe) return new Response(stream, { status: 200 });
      calls.push(body);
      const data = body.channel === channelName('app', 'openExternal') ? { opened: true } : {};
      return new Response(JSON.stringify({ ok: true, data }), {
        status: options.status ?? 200,
        headers: options.open ? { 'X-Skein-Open': '1' } : {},
      });
    }) as unknown as typeof fetch,
    crypto: { randomUUID: () => 'page-1' },
    document: {
      title: 'Skein',
      documentElement: {
        setAttribute: (n: string, v: string) => attributes.set(n, v),
        removeAttribute: (n: string) => attributes.delete(n),
      },
    },
    Notification: Object.assign(
      function (this: unknown, title: string, o: { body: string }) {
        notifications.push({ title, body: o.body });
      } as unknown as { new (title: string, options: { body: string }): unknown },
      { permission: options.permission ?? 'default', requestPermission },
    ),
    open: vi.fn(),
    addEventListener: () => {},
    setTimeout: (fn: () => void) => setTimeout(fn, 0),
  };
  const bridge = installWebBridge(win, buildBridge, bridgeLayout(), '/__skein/bridge', 'data-skein-events') as Record<
    string,
    Record<string, (input?: unknown) => Promise<unknown>>
  > & {
    events: { on: (name: string, cb: (p: unknown) => void) => () => void };
  };
  const live = () => vi.waitFor(() => expect(attributes.get('data-skein-events')).toBe('live'));
  return {
    win,
    bridge,
    push: (m: unknown) => push?.(JSON.stringify(m)),
    calls,
    notifications,
    requestPermission,
    live,
  };
}

describe('the browser shell in the page', () => {
  it('delivers contract events to subscribers until they unsubscribe', async () => {
    const page = fakePage();
    await page.live();
    const seen: unknown[] = [];
    const off = page.bridge.events.on('menu', (p) => seen.push(p));
    page.push({ c: 'skein:event.menu', p: 'export' });
    await vi.waitFor(() => expect(seen).toEqual(['export']));
    off();
    const more: unknown[] = [];
    page.bridge.events.on('menu', (p) => more.push(p));
    page.push({ c: 'skein:event.menu', p: 'focus-go' });
    page.push({ c: 'skein:event.other', p: 'x' });
    await vi.waitFor(() => expect(more).toEqual(['focus-go']));
    expect(seen).toEqual(['export']);
  });

  it("shows an export's progress in the page title, and clears it", async () => {
    const page = fakePage();
    await page.live();
    page.push({ progress: 0.42 });
    await vi.waitFor(() => expect(page.win.document.title).toBe('[42%] Skein'));
    page.push({ progress: 'indeterminate' });
    await vi.waitFor(() => expect(page.win.document.title).toBe('[exporting] Skein'));
    page.push({ progress: null });
    await vi.waitFor(() => expect(page.win.document.title).toBe('Skein'));
  });

  it('notifies only when the user granted notifications, and asks when an export starts', async () => {
    const denied = fakePage({ permission: 'denied' });
    await denied.live();
    denied.push({ notify: { title: 'Export finished', body: 'thread.csv' } });
    denied.push({ progress: 0.5 });
    await vi.waitFor(() => expect(denied.win.document.title).toBe('[50%] Skein'));
    expect(denied.notifications).toEqual([]);

    const granted = fakePage({ permission: 'granted' });
    await granted.live();
    granted.push({ notify: { title: 'Export finished', body: 'thread.csv' } });
    await vi.waitFor(() => expect(granted.notifications).toEqual([{ title: 'Export finished', body: 'thread.csv' }]));

    const asking = fakePage({ permission: 'default' });
    await asking.bridge.export!.start!({});
    expect(asking.requestPermission).toHaveBeenCalledTimes(1);
  });

  it('opens an https link as a new tab without opener, only when the shell says the page opens links', async () => {
    const page = fakePage({ open: true });
    await page.bridge.app!.openExternal!({ url: 'https://example.org/x' });
    await page.bridge.app!.openExternal!({ url: 'http://example.org/plain' });
    expect(page.win.open).toHaveBeenCalledTimes(1);
    expect(page.win.open).toHaveBeenCalledWith('https://example.org/x', '_blank', 'noopener,noreferrer');
    const test = fakePage({ open: false });
    await test.bridge.app!.openExternal!({ url: 'https://example.org/x' });
    expect(test.win.open).not.toHaveBeenCalled();
  });

  it('turns a refused call into an error envelope, never a throw', async () => {
    const page = fakePage({ status: 401 });
    expect(await page.bridge.app!.info!()).toMatchObject({
      ok: false,
      error: { code: 'internal', message: expect.stringContaining('401') },
    });
  });

  it('is served as a script that defines window.skein from the preload builder', () => {
    const script = webBridgeScript(bridgeLayout());
    expect(script).toContain('function buildBridge');
    expect(script).toContain("Object.defineProperty(window, 'skein'");
  });
});

describe('the desktop menu shortcuts in the browser shell', () => {
  it('are read from the menu template: Ctrl/Cmd ones a page can take, never the address bar or Alt+arrows', async () => {
    const { menuShortcuts } = await import('./shortcuts');
    const shortcuts = menuShortcuts('linux');
    expect(shortcuts).toEqual(
      expect.arrayContaining([
        { key: 'e', shift: false, command: 'export' },
        { key: ',', shift: false, command: 'open-settings' },
        { key: 'u', shift: true, command: 'open-usage' },
      ]),
    );
    expect(shortcuts.map((s) => s.command)).not.toContain('focus-go');
    expect(shortcuts.map((s) => s.command)).not.toContain('back');
  });

  it('reach the page as the menu command, and take the key from the browser', async () => {
    const keydown: Array<(event: Record<string, unknown>) => void> = [];
    const win = {
      fetch: (async () => new Response(new ReadableStream())) as unknown as typeof fetch,
      crypto: { randomUUID: () => 'p' },
      document: { title: 'Skein', documentElement: { setAttribute: () => {}, removeAttribute: () => {} } },
      open: () => {},
      addEventListener: (type: string, listener: (event: Record<string, unknown>) => void) => {
        if (type === 'keydown') keydown.push(listener);
      },
      setTimeout: (fn: () => void) => setTimeout(fn, 0),
    };
    const bridge = installWebBridge(win, buildBridge, bridgeLayout(), '/e', 'data-x', [
      { key: 'e', shift: false, command: 'export' },
    ]) as {
      events: { on: (name: string, cb: (p: unknown) => void) => () => void };
    };
    const seen: unknown[] = [];
    bridge.events.on('menu', (p) => seen.push(p));
    const prevented = vi.fn();
    for (const listener of keydown) {
      listener({ key: 'e', ctrlKey: true, preventDefault: prevented });
      listener({ key: 'E', metaKey: true, preventDefault: prevented });
      listener({ key: 'e', preventDefault: prevented });
      listener({ key: 'e', ctrlKey: true, shiftKey: true, preventDefault: prevented });
      listener({ key: 'e', ctrlKey: true, altKey: true, preventDefault: prevented });
    }
    expect(seen).toEqual(['export', 'export']);
    expect(prevented).toHaveBeenCalledTimes(2);
  });
});
