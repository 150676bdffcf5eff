/** x-api-key: demo mode accepts anything; a required key gives 401 otherwise. */
import { describe, expect, it } from 'vitest';
import { useSandbox } from './test-utils';

const KEY = 'canary-key-4b1d';

describe('demo mode (no required key)', () => {
  const sandbox = useSandbox();
  it('accepts no key and any key', async () => {
    expect((await sandbox().get('/social/trends')).status).toBe(200);
    expect((await sandbox().get('/social/trends', { 'x-api-key': 'whatever' })).status).toBe(200);
  });
});

describe('with a required key', () => {
  const sandbox = useSandbox({ requiredKey: KEY });

  it('a missing or wrong key gets 401 with a clear body; the right key passes', async () => {
    const c = sandbox();
    const none = await c.get('/social/trends');
    expect(none.status).toBe(401);
    expect(none.json).toEqual({ error: 'Unauthorized', message: 'Missing API key: send it in the x-api-key header' });
    const wrong = await c.get('/social/trends', { 'x-api-key': `${KEY}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ error: 'Unauthorized', message: 'Invalid API key' });
    expect((await c.get('/social/trends', { 'X-API-Key': KEY })).status).toBe(200);
  });

  it('the key is checked before validation and 501, and 401s are not charged', async () => {
    const c = sandbox();
    await c.control('POST', '/__sandbox/usage/reset');
    expect((await c.get('/social/tweet/quotes')).status).toBe(401);
    expect((await c.get('/social/article?tweet_id=1')).status).toBe(401);
    const usage = (await c.control<{ totals: { calls: number; credits: number } }>('GET', '/__sandbox/usage')).json;
    expect(usage.totals).toMatchObject({ calls: 2, credits: 0 });
  });

  it('the key never appears in the request log, the ledger or an answer', async () => {
    const c = sandbox();
    await c.get('/social/trends', { 'x-api-key': KEY });
    await c.get('/social/nope', { 'x-api-key': KEY });
    for (const path of ['/__sandbox/requests', '/__sandbox/usage', '/__sandbox']) {
      const a = await c.control('GET', path);
      expect(a.text).not.toContain(KEY);
    }
    const log = (await c.control<{ requests: { key: string }[] }>('GET', '/__sandbox/requests')).json.requests;
    expect(log.at(-1)?.key).toBe('sent');
  });

  it('the control plane and media do not need the key', async () => {
    const c = sandbox();
    expect((await c.control('GET', '/__sandbox/examples')).status).toBe(200);
    expect((await c.control('GET', `/media/avatar-${c.sandbox.examples.profile.id}.svg`)).status).toBe(200);
  });
});
