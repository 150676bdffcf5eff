/**
 * A walk asks the client for each item's text as it arrived (`withTexts`): a slice of the answer's body from the
 * network and from the project's held answer; none from main's memory store (it keeps the parsed answer only), and
 * none asked, none given (the screen's pages pay nothing for it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerArchive, ReceivedAnswer } from './types';
import { sandboxHarness, type Harness } from '../testing/sandbox-harness';

let h: Harness;
const recorded: ReceivedAnswer[] = [];
/** a project holding whatever the client recorded */
const archive: AnswerArchive = {
  record: (a) => recorded.push(a),
  forget: () => undefined,
  held: async (key) => {
    const a = recorded.find((r) => r.operation === key.operation && r.params === key.params && r.cursor === key.cursor);
    return a ? { at: a.at, httpStatus: a.httpStatus, text: a.text } : null;
  },
};
beforeAll(async () => {
  h = await sandboxHarness({ archive });
});
afterAll(async () => h.close());

const timeline = () => ({ operation: 'userTimeline' as const, params: { userId: h.sandbox.examples.profile.id } });

describe("each item's text as it arrived", () => {
  it('from the network and from the project: the slices of the body, each parsing to its raw item', async () => {
    const fresh = await h.client.fetchPage({ ...timeline(), fresh: true, withTexts: true });
    const body = recorded.at(-1)?.text ?? '';
    expect(fresh.raw.items.length).toBeGreaterThan(0);
    expect(fresh.raw.texts).toHaveLength(fresh.raw.items.length);
    fresh.raw.texts?.forEach((t, i) => {
      expect(t).not.toBeNull();
      expect(body).toContain(t);
      expect(JSON.parse(t ?? '')).toEqual(fresh.raw.items[i]);
    });

    // main's memory store forgotten: the project's answer, with its text
    h.client.clearStore();
    const held = await h.client.fetchPage({ ...timeline(), reread: true, withTexts: true });
    expect(held.result.meta.fromCache).toBe(true);
    expect(held.raw.texts).toEqual(fresh.raw.texts);
  });

  it('from main memory store: no text (the parsed item is written out); not asked: none at all', async () => {
    await h.client.fetchPage({ ...timeline(), fresh: true });
    const stored = await h.client.fetchPage({ ...timeline(), withTexts: true });
    expect(stored.result.meta.fromCache).toBe(true);
    expect(stored.raw.texts?.every((t) => t === null)).toBe(true);
    expect(stored.raw.texts).toHaveLength(stored.raw.items.length);
    expect((await h.client.fetchPage({ ...timeline(), fresh: true })).raw.texts).toBeUndefined();
  });
});
