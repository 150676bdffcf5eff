/** Fault injection: per request (header) and for a period (control plane). */
import { describe, expect, it } from 'vitest';
import { parseFaults, FaultSyntaxError, plan } from './faults';
import { useSandbox } from './test-utils';

const sandbox = useSandbox();
const TRENDS = '/social/trends?count=2';
const fault = (spec: string): Record<string, string> => ({ 'x-sandbox-fault': spec });

describe('the fault grammar', () => {
  it('parses names and parameters, case-insensitively, comma-separated', () => {
    expect(parseFaults('429;Retry-After=2, latency;ms=30 ,empty-page')).toEqual([
      { name: '429', params: { 'retry-after': '2' } },
      { name: 'latency', params: { ms: '30' } },
      { name: 'empty-page', params: {} },
    ]);
    const p = plan(parseFaults('latency;ms=10,latency;ms=5,503,500,truncate,duplicates'));
    expect(p.latencyMs).toBe(15);
    expect(p.status?.name).toBe('503'); // the first status fault wins
    expect(p.body?.name).toBe('truncate');
    expect([...p.quirks.keys()]).toEqual(['duplicates']);
  });

  it('refuses unknown names and malformed numbers', () => {
    expect(() => parseFaults('teapot')).toThrow(FaultSyntaxError);
    expect(() => parseFaults('latency;ms=soon')).toThrow(FaultSyntaxError);
    expect(() => parseFaults('429;retry-after=-1')).toThrow(FaultSyntaxError);
  });

  it('a bad header answers 400 and is not charged', async () => {
    const c = sandbox();
    await c.control('POST', '/__sandbox/usage/reset');
    const a = await c.get(TRENDS, fault('teapot'));
    expect(a.status).toBe(400);
    expect((a.json as { detail: string }).detail).toMatch(/unknown fault "teapot"/);
    expect((await c.control<{ totals: { calls: number } }>('GET', '/__sandbox/usage')).json.totals.calls).toBe(0);
  });
});

describe('per-request faults', () => {
  it('latency delays the answer', async () => {
    const t = performance.now();
    const a = await sandbox().get(TRENDS, fault('latency;ms=150'));
    expect(a.status).toBe(200);
    expect(performance.now() - t).toBeGreaterThanOrEqual(140);
  });

  it('429 with Retry-After in seconds, as an HTTP date, and without', async () => {
    const c = sandbox();
    const a = await c.get(TRENDS, fault('429;retry-after=2'));
    expect(a.status).toBe(429);
    expect(a.headers.get('retry-after')).toBe('2');
    const b = await c.get(TRENDS, fault('429;retry-after=5;as=date'));
    expect(new Date(b.headers.get('retry-after') as string).getTime()).toBeGreaterThan(Date.now() + 3_000);
    const d = await c.get(TRENDS, fault('429'));
    expect(d.status).toBe(429);
    expect(d.headers.get('retry-after')).toBeNull();
    expect(d.json).toEqual({ error: 'Too Many Requests', message: expect.any(String) });
  });

  it.each(['500', '502', '503'])('%s with a {message} body', async (status) => {
    const a = await sandbox().get(TRENDS, fault(status));
    expect(a.status).toBe(Number(status));
    expect(typeof (a.json as { message: string }).message).toBe('string');
  });

  it('401 / 403 invalid key, 402 credits exhausted (the live wording), 400 string detail', async () => {
    const c = sandbox();
    const refused = await c.get(TRENDS, fault('401'));
    expect(refused.status).toBe(401);
    expect(refused.json).toEqual({ error: 'Unauthorized', message: 'API key is invalid' });
    expect((await c.get(TRENDS, fault('403'))).status).toBe(403);
    const a = await c.get(TRENDS, fault('402'));
    expect(a.status).toBe(402);
    expect(a.json).toEqual({ error: 'Unauthorized', message: 'Credits is not enough.Please recharge' });
    const b = await c.get(TRENDS, fault('400;detail=bad woeid'));
    expect(b.status).toBe(400);
    expect(b.json).toEqual({ detail: 'bad woeid' });
  });

  it('HTTP 200 with status "error"', async () => {
    const a = await sandbox().get(TRENDS, fault('status-error'));
    expect(a.status).toBe(200);
    expect(a.json).toEqual({ status: 'error', msg: 'user not found', data: null });
  });

  it('a truncated body and a non-JSON body', async () => {
    const c = sandbox();
    const a = await c.get(TRENDS, fault('truncate'));
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toMatch(/^application\/json/);
    expect((): unknown => JSON.parse(a.text)).toThrow();
    expect(a.text.startsWith('{"status":"success"')).toBe(true);
    const b = await c.get(TRENDS, fault('non-json'));
    expect(b.status).toBe(200);
    expect(b.headers.get('content-type')).toMatch(/^text\/html/);
    expect(b.text).toMatch(/^<!DOCTYPE html>/);
  });

  it('a request that never answers (the client gives up; the server still closes)', async () => {
    const c = sandbox();
    const t = performance.now();
    await expect(
      fetch(`${c.sandbox.baseUrl}${TRENDS}`, { headers: fault('hang'), signal: AbortSignal.timeout(300) }),
    ).rejects.toThrow();
    expect(performance.now() - t).toBeGreaterThanOrEqual(290);
    expect((await c.get(TRENDS)).status).toBe(200);
  });

  it('a reset connection', async () => {
    await expect(fetch(`${sandbox().sandbox.baseUrl}${TRENDS}`, { headers: fault('reset') })).rejects.toThrow();
  });

  it('unanswered and refused calls are not charged; 5xx and empty answers cost the minimum', async () => {
    const c = sandbox();
    await c.control('POST', '/__sandbox/usage/reset');
    for (const f of ['reset', '401', '402', '429', '500', 'status-error'])
      await c.get(TRENDS, fault(f)).catch(() => undefined);
    const usage = (
      await c.control<{ calls: { status: number; credits: number; faults: string[] }[] }>('GET', '/__sandbox/usage')
    ).json;
    expect(usage.calls.map((e) => [e.faults[0], e.status, e.credits])).toEqual([
      ['reset', 0, 0],
      ['401', 401, 0],
      ['402', 402, 0],
      ['429', 429, 0],
      ['500', 500, 15],
      ['status-error', 200, 15],
    ]);
  });
});

describe('faults for a period or a number of requests', () => {
  it('count: the next N matching requests, then normal again', async () => {
    const c = sandbox();
    const rule = await c.control<{ id: number }>('POST', '/__sandbox/faults', { fault: '503;retry-after=1', count: 2 });
    expect(rule.status).toBe(201);
    expect((await c.get(TRENDS)).status).toBe(503);
    expect((await c.get(TRENDS)).status).toBe(503);
    expect((await c.get(TRENDS)).status).toBe(200);
    expect((await c.control<{ faults: unknown[] }>('GET', '/__sandbox/faults')).json.faults).toEqual([]);
  });

  it('forMs: until the sandbox clock passes the period', async () => {
    const c = sandbox();
    await c.control('POST', '/__sandbox/faults', { fault: '429', forMs: 60_000 });
    expect((await c.get(TRENDS)).status).toBe(429);
    await c.control('POST', '/__sandbox/clock', { advanceMs: 61_000 });
    expect((await c.get(TRENDS)).status).toBe(200);
    await c.control('POST', '/__sandbox/clock', { reset: true });
  });

  it('operations: only the listed operations; DELETE clears', async () => {
    const c = sandbox();
    await c.control('POST', '/__sandbox/faults', { fault: '500', operations: ['userSearch'] });
    expect((await c.get(TRENDS)).status).toBe(200);
    expect((await c.get('/social/user/search?query=a')).status).toBe(500);
    expect((await c.control('DELETE', '/__sandbox/faults')).status).toBe(204);
    expect((await c.get('/social/user/search?query=a')).status).toBe(200);
  });

  it('one rule can be removed by id; bad rules are refused', async () => {
    const c = sandbox();
    const { json } = await c.control<{ id: number }>('POST', '/__sandbox/faults', { fault: 'latency;ms=1' });
    expect((await c.control('DELETE', `/__sandbox/faults/${json.id}`)).status).toBe(204);
    expect((await c.control('DELETE', `/__sandbox/faults/${json.id}`)).status).toBe(404);
    expect((await c.control('POST', '/__sandbox/faults', { fault: 'teapot' })).status).toBe(400);
    expect((await c.control('POST', '/__sandbox/faults', { fault: '500', operations: ['nope'] })).status).toBe(400);
  });
});
