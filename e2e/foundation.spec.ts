/**
 * The platform's promises, seen from the page: the shell renders, the bridge
 * is exactly the contract, calls round-trip to main and to the API server,
 * and the CSP blocks injected inline script.
 */
import { contract } from '../src/shared/ipc';
import { expect, test } from './fixtures';

const contractShape = Object.fromEntries(Object.entries(contract).map(([ns, fns]) => [ns, Object.keys(fns)]));

test('the app shell renders', async ({ skein }) => {
  await expect(skein.page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(skein.page.getByRole('main').first()).toBeVisible();
  await expect(skein.page).toHaveTitle(/Skein/);
});

test('window.skein is exactly the contract: its functions and events.on, nothing else', async ({ skein }) => {
  const shape = await skein.page.evaluate(() => {
    const bridge = (window as unknown as { skein: Record<string, Record<string, unknown>> }).skein;
    return Object.fromEntries(
      Object.keys(bridge).map((ns) => [
        ns,
        Object.keys(bridge[ns] ?? {}).filter((k) => typeof bridge[ns]?.[k] === 'function'),
      ]),
    );
  });
  expect(shape).toEqual({ ...contractShape, events: ['on'] });
  const leaks = await skein.page.evaluate(() => ({
    process: typeof (globalThis as Record<string, unknown>).process,
    require: typeof (globalThis as Record<string, unknown>).require,
    invoke: 'invoke' in (window as unknown as { skein: object }).skein,
  }));
  expect(leaks).toEqual({ process: 'undefined', require: 'undefined', invoke: false });
});

test('app.info round-trips to the main-process handler', async ({ skein }) => {
  const res = await skein.page.evaluate(() => window.skein!.app.info());
  expect(res).toEqual({
    ok: true,
    data: {
      name: 'Skein',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      mode: 'demo',
      platform: expect.any(String),
    },
  });
});

test('a malformed call comes back as a bad-input envelope naming the field', async ({ skein }) => {
  const res = await skein.page.evaluate(() => window.skein!.app.openExternal({ url: 'javascript:alert(1)' }));
  expect(res).toMatchObject({ ok: false, error: { code: 'bad-input', details: { fields: [{ field: 'url' }] } } });
  if (skein.host) expect(skein.host.openedExternally()).toEqual([]);
});

test('api.call round-trips to the demo sandbox', async ({ skein }) => {
  const res = await skein.page.evaluate(() =>
    window.skein!.api.call({ operation: 'trends', params: { woeid: 1, count: 30 } }),
  );
  if (!res.ok) throw new Error(`api.call failed: ${res.error.code} ${res.error.message}`);
  expect(res.data.operation).toBe('trends');
  expect(res.data.items.length).toBeGreaterThan(0);
  expect(typeof (res.data.items[0] as { name?: unknown }).name).toBe('string');
});

test('the CSP blocks an injected inline script', async ({ skein }) => {
  const outcome = await skein.page.evaluate(async () => {
    const violation = new Promise<string>((done) =>
      document.addEventListener('securitypolicyviolation', (e) => done(e.effectiveDirective), { once: true }),
    );
    const script = document.createElement('script');
    script.textContent = 'window.__injectedRan = true;';
    document.body.append(script);
    // An allowed inline script runs synchronously on insertion: no need to wait to know.
    if ((window as unknown as { __injectedRan?: boolean }).__injectedRan === true)
      return { ran: true, directive: null };
    return { ran: false, directive: await violation };
  });
  expect(outcome).toEqual({ ran: false, directive: expect.stringMatching(/^script-src/) });
});

test('an inline event handler in injected markup never runs', async ({ skein }) => {
  const ran = await skein.page.evaluate(async () => {
    const host = document.createElement('div');
    host.innerHTML = '<img src="does-not-exist.png" onerror="window.__imgRan = true">';
    const img = host.querySelector('img') as HTMLImageElement;
    // Our listener is added after the inline one, so it runs after it would have.
    const failed = new Promise<void>((done) => img.addEventListener('error', () => done(), { once: true }));
    document.body.append(host);
    await failed;
    return (window as unknown as { __imgRan?: boolean }).__imgRan === true;
  });
  expect(ran).toBe(false);
});

test('events from main reach subscribers until they unsubscribe', async ({ skein }) => {
  await skein.page.evaluate(() => {
    const w = window as unknown as { __seen: unknown[]; __off: () => void };
    w.__seen = [];
    w.__off = window.skein!.events.on('menu', (p) => w.__seen.push(p));
  });
  await skein.emit('menu', 'export');
  await skein.page.evaluate(() => (window as unknown as { __off: () => void }).__off());
  await skein.emit('menu', 'focus-go');
  expect(await skein.page.evaluate(() => (window as unknown as { __seen: unknown[] }).__seen)).toEqual(['export']);
});
