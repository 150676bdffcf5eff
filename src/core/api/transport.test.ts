import { describe, expect, it } from 'vitest';
import { FakeClock } from '../testing/fake-clock';
import { attempt, decodeUtf8, formatMiB } from './transport';

const reference = (bytes: Uint8Array) => new TextDecoder('utf-8').decode(bytes);
const utf8 = (s: string) => new TextEncoder().encode(s);
const BOM = [0xef, 0xbb, 0xbf];

describe('decodeUtf8 gives what TextDecoder gives', () => {
  it.each([
    ['empty', new Uint8Array(0)],
    ['ASCII', utf8('{"a":"plain text"}')],
    ['non-ASCII (accents, CJK, emoji, NUL)', utf8('{"name":"Zoë 東京 🧵 ♠️","x":"\u0000"}')],
    ['a BOM before non-ASCII text (TextDecoder drops it)', Uint8Array.from([...BOM, ...utf8('{"a":"é"}')])],
    ['a BOM before ASCII text', Uint8Array.from([...BOM, ...utf8('{}')])],
    ['a BOM alone', Uint8Array.from(BOM)],
    ['a lone continuation byte', Uint8Array.from([...utf8('"é'), 0x80, 0x22])],
    ['a truncated sequence at the end', Uint8Array.from([...utf8('"é"'), 0xe2, 0x82])],
    ['an overlong encoding', Uint8Array.from([0x22, 0xc0, 0xaf, 0x22, ...utf8('é')])],
    ['an encoded surrogate', Uint8Array.from([0x22, 0xed, 0xa0, 0x80, 0x22, ...utf8('é')])],
    ['Latin-1 bytes (not UTF-8)', Uint8Array.from([0x22, 0xe9, 0x22])],
  ])('%s', (_what, bytes) => {
    expect(decodeUtf8(bytes)).toBe(reference(bytes));
  });

  it('on a subarray (a chunk of a larger buffer) and on random bytes and random text', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const wide = utf8('ab😀cdé');
    expect(decodeUtf8(wide.subarray(2, 6))).toBe(reference(wide.subarray(2, 6)));
    const alphabet = ['a', '"', 'é', 'ß', '東', '🧵', '\u2028', '\uFEFF', '\u0000'];
    for (let i = 0; i < 300; i++) {
      const raw = Uint8Array.from({ length: Math.floor(rnd() * 40) }, () => Math.floor(rnd() * 256));
      expect(decodeUtf8(raw)).toBe(reference(raw));
      const text = Array.from(
        { length: Math.floor(rnd() * 40) },
        () => alphabet[Math.floor(rnd() * alphabet.length)],
      ).join('');
      expect(decodeUtf8(utf8(text))).toBe(reference(utf8(text)));
    }
  });
});

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
