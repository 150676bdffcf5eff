/**
 * A hydration holds one batch of its ids at a time, whatever the length of its list: planning and quoting read
 * none, the collection reads each batch once as it is asked for, and the state it keeps between batches holds
 * no id that came back (only counts, and the ids not found go to a file as each batch is recorded).
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ViewDescriptor } from '../../shared/ipc/export';
import type { IdList } from '../ids/id-list';
import { CollectionState, collect } from './collector';
import { estimateExport } from './estimate';
import type { PageSource, SourcePage } from '../walk';
import { NOT_RETURNED } from './missing-ids';
import { planView } from './views';

const view: ViewDescriptor = {
  kind: 'postsByIds',
  operation: 'postsByIds',
  params: {},
  idsFrom: 'imp-0123456789abcdef',
};

/** A list of `count` ids that says which batches were read. */
function countingList(count: number): IdList & { reads: number[] } {
  const reads: number[] = [];
  return {
    count,
    batchSize: 100,
    batches: Math.ceil(count / 100),
    reads,
    batch: async (i) => {
      reads.push(i);
      const out: string[] = [];
      for (let k = i * 100; k < Math.min(count, (i + 1) * 100); k++) out.push(String(1_000_000 + k));
      return out;
    },
  };
}

/** Answers every batch with the ids asked for but every tenth. */
const source: PageSource = {
  fetchPage: async ({ params }): Promise<SourcePage> => {
    const asked = String(params.tweet_ids).split(',');
    const found = asked.filter((id) => Number(id) % 10 !== 0);
    return {
      rawItems: found.map((id) => ({ id, text: `post ${id}` })),
      dropped: [],
      duplicatesRemoved: 0,
      received: found.length,
      notFound: asked.filter((id) => Number(id) % 10 === 0),
      paging: null,
      fetchedAt: 1,
      httpStatus: 200,
      credits: 1,
      fromCache: false,
      attempts: 1,
    };
  },
};

describe('a hydration in memory', () => {
  it('plans and quotes a million ids without reading one', () => {
    const list = countingList(1_000_000);
    const plan = planView(view, list);
    expect(plan).toMatchObject({ requestCount: 10_000, listed: null, fromList: { ids: 1_000_000 } });
    expect(estimateExport(view, 'all', undefined, list)).toMatchObject({ calls: 10_000 });
    expect(list.reads).toEqual([]);
  });

  it('reads each batch once and keeps no id that came back between batches', async () => {
    const list = countingList(2_050);
    const plan = planView(view, list);
    const dir = await mkdtemp(join(tmpdir(), 'skein-hydration-memory-'));
    const { state, journal } = await CollectionState.load(plan, join(dir, 'journal.log'), join(dir, 'missing.jsonl'));
    const outcome = await collect({
      plan,
      source,
      journal,
      state,
      scope: 'all',
      loadedPages: 1,
      caps: {},
      signal: new AbortController().signal,
      clock: { now: () => 1, setTimer: () => () => undefined, sleep: async () => undefined },
      walkId: 'w',
    });
    await journal.close();
    expect(outcome).toEqual({ done: true });
    expect(list.reads).toEqual(Array.from({ length: 21 }, (_, i) => i));
    expect(state.items).toBe(2_050 - 205);
    // no set of the ids kept, no ids not found on the pages: counted, and on disk
    expect(state.seen.size).toBe(0);
    expect([...state.pages].every((p) => p.notFound.length === 0)).toBe(true);
    expect(state.notFound.total).toBe(205);
    const missing = await state.missing!.finish(plan, state.pages, state.failures);
    expect(missing.count).toBe(205);
    const onDisk = (await readFile(join(dir, 'missing.jsonl'), 'utf8')).trim().split('\n');
    expect(onDisk).toHaveLength(205);
    expect(JSON.parse(onDisk[0]!)).toEqual({ id: '1000000', reason: NOT_RETURNED });
  });
});
