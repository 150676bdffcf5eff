/**
 * Model coders in the core: off until an endpoint is chosen; with the sandbox's stand-in a
 * model codes its queue, its values are stored like any coder's with the model, prompt, settings and answer,
 * a person cannot overwrite them, a second run asks nothing again, and the model enters agreement like any
 * coder. A custom endpoint's key goes only to the origin it was entered for, and never back to the page.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '.';
import { createDispatcher } from './bridge/dispatch';
import type { Sandbox } from '../sandbox';
import { testCoreDeps } from './testing/core-deps';

const dirs: string[] = [];
const sandboxes: Sandbox[] = [];
let core: Core;
let endpoint: Server;
let endpointUrl = '';
const seen: Array<{ authorization: string | undefined; body: string }> = [];

async function call<T = Record<string, unknown>>(channel: string, input?: unknown): Promise<T> {
  const res = await createDispatcher(core.handlers).dispatch(`skein:${channel}`, input, { senderId: 1 });
  if (!res.ok) throw new Error(`${channel}: ${res.error.code}: ${res.error.message}`);
  return res.data as T;
}
async function code(channel: string, input?: unknown): Promise<string> {
  const res = await createDispatcher(core.handlers).dispatch(`skein:${channel}`, input, { senderId: 1 });
  return res.ok ? 'ok' : res.error.code;
}

async function settled(
  id: string,
): Promise<{ status: string; done: number; planned: number; unusable: number; skipped: number; error: string | null }> {
  for (let i = 0; i < 400; i++) {
    const runs = await call<
      Array<{
        id: string;
        status: string;
        done: number;
        planned: number;
        unusable: number;
        skipped: number;
        error: string | null;
      }>
    >('coding.modelRuns');
    const run = runs.find((r) => r.id === id)!;
    if (run.status !== 'running') return run;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the run did not end');
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'skein-core-model-'));
  dirs.push(dir);
  core = createCore(testCoreDeps(dir, sandboxes));
  // a custom endpoint on loopback that records what it is sent
  endpoint = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ authorization: req.headers.authorization, body });
      if (body.includes('"broken"')) {
        res.setHeader('content-type', 'text/html');
        res.end('<html>not an API</html>');
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Neutral.' } }] }));
    });
  });
  await new Promise<void>((r) => endpoint.listen(0, '127.0.0.1', r));
  const address = endpoint.address();
  endpointUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`;
  const examples = await call<{ bigThreadPostId: string }>('demo.examples');
  await call('api.call', { operation: 'postRepliesV2', params: { tweetId: examples.bigThreadPostId }, callId: 'a' });
}, 120_000);

afterAll(async () => {
  await core?.dispose();
  for (const s of sandboxes) await s.close();
  await new Promise((r) => endpoint.close(r));
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

describe('model coders', () => {
  let codebook: number;
  let person: number;
  let model: number;
  let sample: number;

  it('are off until an endpoint is chosen', async () => {
    codebook = (
      await call<{ id: number }>('coding.saveCodebook', {
        name: 'Stance',
        definition: {
          fields: [
            {
              key: 'stance',
              label: 'Stance',
              type: 'category',
              categories: [
                { value: 'support', label: 'Supports' },
                { value: 'oppose', label: 'Opposes' },
                { value: 'neutral', label: 'Neutral' },
              ],
            },
          ],
        },
      })
    ).id;
    person = (await call<{ id: number }>('coding.addCoder', { name: 'Ana', kind: 'person' })).id;
    model = (
      await call<{ id: number }>('coding.addCoder', {
        name: 'Stand-in',
        kind: 'model',
        model: {
          model: 'skein-standin-1',
          temperature: 0,
          prompts: { stance: 'What stance does this reply take toward the post it answers?' },
        },
      })
    ).id;
    sample = (
      await call<{ id: number }>('coding.drawSample', {
        codebook,
        name: 'Model pilot',
        source: { kind: 'post' },
        size: 12,
        seed: 'm',
        method: 'random',
        coders: [person, model],
        overlap: 1,
      })
    ).id;
    expect(await call('coding.modelEndpoint')).toMatchObject({ kind: 'none' });
    expect(await code('coding.runModel', { codebook, sample, coder: model })).toBe('not-available');
  });

  it('code their queue through the stand-in; values stored with model, prompt and answer; never by hand', async () => {
    await call('coding.setModelEndpoint', { kind: 'demo' });
    const run = await call<{ id: string; planned: number }>('coding.runModel', { codebook, sample, coder: model });
    expect(run.planned).toBe(12);
    const done = await settled(run.id);
    expect(done).toMatchObject({ status: 'complete', done: 12, unusable: 0, error: null });
    const queue = await call<{ entries: Array<{ id: string; values: Array<{ value: string }> }> }>('coding.queue', {
      sample,
      coder: model,
      limit: 50,
    });
    expect(queue.entries.every((e) => e.values.length === 1)).toBe(true);
    // a person cannot change a model's value
    expect(
      await code('coding.code', {
        codebook,
        coder: model,
        kind: 'post',
        id: queue.entries[0]!.id,
        field: 'stance',
        value: 'oppose',
      }),
    ).toBe('forbidden');
    // a second run asks nothing again
    const again = await settled((await call<{ id: string }>('coding.runModel', { codebook, sample, coder: model })).id);
    expect(again).toMatchObject({ status: 'complete', done: 0, skipped: 12 });
  });

  it('enter agreement like any coder', async () => {
    const queue = await call<{ entries: Array<{ id: string }> }>('coding.queue', { sample, coder: person, limit: 50 });
    for (const e of queue.entries)
      await call('coding.code', { codebook, coder: person, kind: 'post', id: e.id, field: 'stance', value: 'neutral' });
    await call('coding.reveal', { coder: person });
    const report = await call<{ coders: Array<{ kind: string }>; rows: Array<{ units: number; coders: number }> }>(
      'coding.agreement',
      { codebook, sample, viewer: person },
    );
    expect(report.coders.map((c) => c.kind).sort()).toEqual(['model', 'person']);
    expect(report.rows[0]).toMatchObject({ units: 12, coders: 2 });
  });

  it('send a custom endpoint its key, and only that origin; the page never sees it', async () => {
    const key = 'sk-model-canary-1234567890';
    await call('coding.setCoderHere', { coder: person });
    const status = await call('coding.setModelEndpoint', { kind: 'custom', baseUrl: endpointUrl, key });
    // choosing a model's address forgets nothing else kept on this computer: who codes here stays
    expect((await call<{ coder: number | null }>('coding.coderHere')).coder).toBe(person);
    expect(JSON.stringify(status)).not.toContain(key);
    expect(status).toMatchObject({ kind: 'custom', key: { configured: true } });
    const other = await call<{ id: number }>('coding.addCoder', {
      name: 'Local',
      kind: 'model',
      model: { model: 'llama3.1:8b', prompts: { stance: 'Stance?' } },
    });
    const s2 = (
      await call<{ id: number }>('coding.drawSample', {
        codebook,
        name: 'Local run',
        source: { kind: 'post' },
        size: 3,
        seed: 'l',
        method: 'random',
        coders: [other.id],
        overlap: 0,
      })
    ).id;
    const run = await settled(
      (await call<{ id: string }>('coding.runModel', { codebook, sample: s2, coder: other.id })).id,
    );
    expect(run).toMatchObject({ status: 'complete', done: 3, unusable: 0 });
    expect(seen).toHaveLength(3);
    expect(seen.every((s) => s.authorization === `Bearer ${key}`)).toBe(true);
    expect(JSON.parse(seen[0]!.body)).toMatchObject({ model: 'llama3.1:8b', temperature: 0 });
    // an endpoint that answers something else than JSON stops the run in plain words; what it made is kept
    const broken = await call<{ id: number }>('coding.addCoder', {
      name: 'Broken',
      kind: 'model',
      model: { model: 'broken', prompts: { stance: 'Stance?' } },
    });
    const s3 = (
      await call<{ id: number }>('coding.drawSample', {
        codebook,
        name: 'Broken run',
        source: { kind: 'post' },
        size: 2,
        seed: 'b',
        method: 'random',
        coders: [broken.id],
        overlap: 0,
      })
    ).id;
    const failed = await settled(
      (await call<{ id: string }>('coding.runModel', { codebook, sample: s3, coder: broken.id })).id,
    );
    expect(failed).toMatchObject({ status: 'failed', done: 0 });
    expect(failed.error).toMatch(/did not answer JSON/);
    // moving the key to another origin needs the person's yes (none here: refused)
    expect(await code('coding.setModelEndpoint', { kind: 'custom', baseUrl: 'https://models.example/v1' })).toBe(
      'unauthorized',
    );
    // a plain-http endpoint off this computer is refused
    expect(await code('coding.setModelEndpoint', { kind: 'custom', baseUrl: 'http://models.example/v1', key })).toBe(
      'bad-input',
    );
  });
});

describe('model settings a newer Skein wrote', () => {
  it('are off here and say what was set; choosing one here replaces them, the other projects’ coders kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-core-model-newer-'));
    dirs.push(dir);
    const file = join(dir, 'coding.json');
    writeFileSync(
      file,
      JSON.stringify({ modelKind: 'local', modelBaseUrl: { path: '/models/llama' }, coderHere: { other: { id: 3 } } }),
    );
    const newer = createCore(testCoreDeps(dir, sandboxes));
    try {
      const ask = async (channel: string, input?: unknown) =>
        createDispatcher(newer.handlers).dispatch(`skein:${channel}`, input, { senderId: 1 });
      // before: "Something went wrong inside Skein" for the whole Coders tab
      expect(await ask('coding.modelEndpoint')).toMatchObject({
        ok: true,
        data: { kind: 'none', baseUrl: null, unreadKind: 'local' },
      });
      expect(await ask('coding.coderHere')).toMatchObject({ ok: true, data: { coder: null } });
      expect(await ask('coding.setModelEndpoint', { kind: 'demo' })).toMatchObject({
        ok: true,
        data: { kind: 'demo', unreadKind: null },
      });
      const ana = await ask('coding.addCoder', { name: 'Ana', kind: 'person' });
      expect(ana.ok).toBe(true);
      const id = (ana as { data: { id: number } }).data.id;
      expect(await ask('coding.setCoderHere', { coder: id })).toMatchObject({ ok: true, data: { coder: id } });
      const written = JSON.parse(readFileSync(file, 'utf8')) as { coderHere: Record<string, unknown> };
      expect(written).toMatchObject({ modelKind: 'demo' });
      expect(written.coderHere.other).toEqual({ id: 3 });
      expect(Object.values(written.coderHere)).toContain(id);
    } finally {
      await newer.dispose();
    }
  });
});
