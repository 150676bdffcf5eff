import { createServer } from 'node:net';
import { X509Certificate, webcrypto } from 'node:crypto';
import { PKIStatus, TimeStampResp } from 'pkijs';
import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { buildSandbox, startSandbox } from './server';
import { registerTsaStandIn } from './tsa-standin';
import type { SandboxClock } from './clock';

describe('the timestamp authority stand-in', () => {
  it('publishes its CA, refuses what is not a query, and has a twin that is always down', async () => {
    const { app, shutdown } = buildSandbox({ size: 'small' });
    const pem = await app.inject({ method: 'GET', url: '/tsa/certificate.pem' });
    expect(pem.statusCode).toBe(200);
    const ca = new X509Certificate(pem.body);
    expect(ca.ca).toBe(true);
    expect(ca.subject).toMatch(/CN=Skein sandbox CA/);

    const json = await app.inject({ method: 'POST', url: '/tsa', payload: { hash: 'x' } });
    expect(json.statusCode).toBe(415);
    const garbage = await app.inject({
      method: 'POST',
      url: '/tsa',
      headers: { 'content-type': 'application/timestamp-query' },
      payload: Buffer.from('not a query'),
    });
    expect(garbage.statusCode).toBe(200);
    expect(garbage.headers['content-type']).toBe('application/timestamp-reply');
    const refused = TimeStampResp.fromBER(Uint8Array.from(garbage.rawPayload).buffer);
    expect(refused.status.status).toBe(PKIStatus.rejection);
    expect(refused.timeStampToken).toBeUndefined();

    const down = await app.inject({
      method: 'POST',
      url: '/tsa-down',
      headers: { 'content-type': 'application/timestamp-query' },
      payload: Buffer.from('any'),
    });
    expect(down.statusCode).toBe(503);
    shutdown();
    await app.close();
  });

  it('closes only once its keys are made, so the thread it runs in may be ended then', async () => {
    const app = Fastify();
    const tsa = registerTsaStandIn(app, { now: () => Date.UTC(2026, 10, 30) } as SandboxClock);
    await app.ready();
    await app.close();
    const made = await Promise.race([
      tsa.caPem().then(() => 'made'),
      new Promise<string>((resolve) => setImmediate(() => resolve('still making'))),
    ]);
    expect(made).toBe('made');
  });

  it('a sandbox that cannot listen fails only once its keys are made, so its worker may be ended then', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    const subtle = webcrypto.subtle;
    const generate = subtle.generateKey.bind(subtle);
    let made = 0;
    // slower than a refused listen, as a key pair is on a busy machine
    const spy = vi.spyOn(subtle, 'generateKey').mockImplementation((...args: Parameters<typeof generate>) =>
      new Promise((resolve) => setTimeout(resolve, 150)).then(async () => {
        const keys = await generate(...args);
        made += 1;
        return keys;
      }),
    );
    try {
      await expect(startSandbox({ port, size: 'small' })).rejects.toThrow(/EADDRINUSE/);
      expect(made).toBe(2);
    } finally {
      spy.mockRestore();
      taken.close();
    }
  });
});
