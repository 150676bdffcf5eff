/** Two sandboxes with one seed and one clock answer byte for byte alike. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_IDS, OPERATIONS } from '../shared/api';
import { SAMPLE_QUERIES } from './samples';
import { startSandbox } from './server';
import { client, FIXED_NOW, qs, type Answer, type Client } from './test-utils';

let a: Client;
let b: Client;
let other: Client;

beforeAll(async () => {
  [a, b, other] = await Promise.all([
    startSandbox({ size: 'small', seed: 11, now: () => FIXED_NOW }).then(client),
    startSandbox({ size: 'small', seed: 11, now: () => FIXED_NOW }).then(client),
    startSandbox({ size: 'small', seed: 12, now: () => FIXED_NOW }).then(client),
  ]);
});
afterAll(async () => {
  await Promise.all([a, b, other].map((c) => c?.sandbox.close()));
});

/** media URLs carry the server's own origin (its port); everything else must match exactly */
const bytes = (c: Client, text: string): string => text.replaceAll(c.sandbox.baseUrl, 'ORIGIN');

describe('determinism', () => {
  it('same seed: the same showcase ids and the same bytes for every sample query and its next page', async () => {
    expect(a.sandbox.examples).toEqual(b.sandbox.examples);
    for (const id of OPERATION_IDS) {
      // b renders in reverse order, so lazy generation order cannot leak into answers
      const queries = SAMPLE_QUERIES[id](a.sandbox.examples);
      const fromA: Answer<Record<string, unknown>>[] = [];
      for (const q of queries) fromA.push(await a.get(OPERATIONS[id].path + qs(q)));
      const fromB: Answer<Record<string, unknown>>[] = [];
      for (const q of [...queries].reverse()) fromB.unshift(await b.get(OPERATIONS[id].path + qs(q)));
      fromA.forEach((x, k) => {
        expect(x.status).toBe(fromB[k]?.status);
        expect(bytes(a, x.text)).toBe(bytes(b, fromB[k]?.text ?? ''));
      });
      for (const [k, x] of fromA.entries()) {
        const cursor = x.json.next_cursor;
        if (typeof cursor !== 'string' || !cursor) continue;
        const q = { ...queries[k], cursor };
        expect(bytes(a, (await a.get(OPERATIONS[id].path + qs(q))).text)).toBe(
          bytes(b, (await b.get(OPERATIONS[id].path + qs(q))).text),
        );
      }
    }
  });

  it('another seed: another world, and cursors of one seed are refused by the other', async () => {
    expect(other.sandbox.examples.bigThreadPostId).not.toBe(a.sandbox.examples.bigThreadPostId);
    const q = { tweetId: a.sandbox.examples.bigThreadPostId };
    const first = await a.get(`/social/tweet/replies${qs(q)}`);
    const cursor = String(first.json.next_cursor);
    expect((await b.get(`/social/tweet/replies${qs({ ...q, cursor })}`)).status).toBe(200);
    expect((await other.get(`/social/tweet/replies${qs({ ...q, cursor })}`)).status).toBe(422);
  });
});
