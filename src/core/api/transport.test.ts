import { describe, expect, it } from 'vitest';
import { FakeClock } from '../testing/fake-clock';
import { attempt, formatMiB } from './transport';

const utf8 = (s: string) => new TextEncoder().encode(s);
const BOM = [0xef, 0xbb, 0xbf];

describe('attempt reads the body', () => {
  const run = (res: Response, maxBytes = 1_000_000) =>
    attempt({
      url: 'http://api.test/x',
      headers: {},
      fetch: async () => res,
      clock: new FakeClock(),
      timeoutMs: 1_000,
      maxBytes,
      signal: new AbortController().signal,
    });

  it('joins chunks that split a character, and counts the bytes as received', async () => {
    const bytes = utf8(JSON.stringify({ name: 'Zoë 🧵', tags: ['東京'] }));
    const cut = bytes.indexOf(0xf0) + 2;
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes.slice(0, cut));
        c.enqueue(bytes.slice(cut));
        c.close();
      },
    });
    const a = await run(new Response(stream, { headers: { 'content-type': 'application/json' } }));
    expect(a.body).toEqual({ name: 'Zoë 🧵', tags: ['東京'] });
    expect(a.bytes).toBe(bytes.byteLength);
  });

  it('reads a JSON body after a BOM, as TextDecoder did', async () => {
    const bytes = Uint8Array.from([...BOM, ...utf8('{"a":"é"}')]);
    const a = await run(new Response(bytes, { headers: { 'content-type': 'application/json' } }));
    expect(a.body).toEqual({ a: 'é' });
  });

  it('still refuses an answer over the cap', async () => {
    const bytes = utf8(JSON.stringify({ a: 'é'.repeat(600) }));
    await expect(
      run(new Response(bytes, { headers: { 'content-type': 'application/json' } }), 1_000),
    ).rejects.toMatchObject({ error: { code: 'malformed' } });
  });

  it('names the cap in the unit it is set in: 32 MiB, not “34 MB”', async () => {
    const bytes = utf8(JSON.stringify({ a: 'x'.repeat(3 * 1024 * 1024) }));
    await expect(
      run(new Response(bytes, { headers: { 'content-type': 'application/json' } }), 2 * 1024 * 1024),
    ).rejects.toMatchObject({
      error: { message: 'The answer is larger than 2 MiB; Skein refuses it.' },
    });
    expect(formatMiB(32 * 1024 * 1024)).toBe('32 MiB');
  });
});
