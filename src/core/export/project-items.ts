/**
 * A hydration's "already in the project (free)": the ids of its list that the current project holds are not bought
 * again. At the start the list is split, once, into the ids the project holds and those to fetch (two files in the
 * job's folder, so a resume plans the same batches); the held ones are read from the project a batch at a time and
 * journaled as pages that cost nothing. Neither the list nor the project's answer is ever held whole.
 */
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { indexIdFile, type IdList } from '../ids';
import type { ListingSample } from './conversation-estimate';
import type { SourcePage } from '../walk';

/** An item the project holds: its raw JSON as last received (empty when not asked for) and when (epoch ms). */
export interface HeldItem {
  id: string;
  raw: string;
  at: number;
}

/** What an export asks of the current project (the archive's worker): a hydration's held ids, in chunks; an estimate's conversation. */
export interface ProjectItems {
  held: (kind: 'post' | 'user', ids: string[], withRaw: boolean) => Promise<HeldItem[]>;
  /** the reply listings of a post the project holds, one per order (absent: an estimate reads none) */
  conversation?: (rootId: string) => Promise<ListingSample[]>;
}

/** batches of the list asked of the project at once (500 ids) */
const BATCHES_PER_ASK = 5;

async function eachChunk(list: IdList, fn: (ids: string[]) => Promise<void>): Promise<void> {
  for (let i = 0; i < list.batches; i += BATCHES_PER_ASK) {
    const ids: string[] = [];
    for (let b = i; b < Math.min(list.batches, i + BATCHES_PER_ASK); b++) ids.push(...(await list.batch(b)));
    await fn(ids);
  }
}

/** How many ids of the list the project holds (the quote's "already in the project (free)"). */
export async function countHeld(list: IdList, kind: 'post' | 'user', project: ProjectItems): Promise<number> {
  let held = 0;
  await eachChunk(list, async (ids) => {
    held += (await project.held(kind, ids, false)).length;
  });
  return held;
}

const HELD_FILE = 'held.ids';
const FETCH_FILE = 'fetch.ids';

/** A list of `count` ids that is only counted (a quote plans calls without reading ids). */
export function countedList(count: number, batchSize: number): IdList {
  return { count, batchSize, batches: Math.ceil(count / batchSize), batch: async () => [] };
}

/** The job's split of its list, made at its start; null when the job was started without one. */
export async function keptSplit(jobDir: string, batchSize: number): Promise<{ held: IdList; fetch: IdList } | null> {
  try {
    return {
      held: await indexIdFile(join(jobDir, HELD_FILE), batchSize),
      fetch: await indexIdFile(join(jobDir, FETCH_FILE), batchSize),
    };
  } catch {
    return null;
  }
}

/** Splits the list into the ids the project holds and those to fetch, in list order, into the job's folder. */
export async function splitList(
  list: IdList,
  kind: 'post' | 'user',
  project: ProjectItems,
  jobDir: string,
): Promise<{ held: IdList; fetch: IdList }> {
  const held = await open(join(jobDir, HELD_FILE), 'w');
  const fetch = await open(join(jobDir, FETCH_FILE), 'w').catch(async (error: unknown) => {
    await held.close();
    throw error;
  });
  try {
    await eachChunk(list, async (ids) => {
      const have = new Set((await project.held(kind, ids, false)).map((h) => h.id));
      const kept = ids.filter((id) => have.has(id));
      const rest = ids.filter((id) => !have.has(id));
      if (kept.length) await held.write(`${kept.join('\n')}\n`);
      if (rest.length) await fetch.write(`${rest.join('\n')}\n`);
    });
    await held.sync();
    await fetch.sync();
  } finally {
    await held.close();
    await fetch.close();
  }
  return (await keptSplit(jobDir, list.batchSize)) as { held: IdList; fetch: IdList };
}

/** A batch of held ids as a page: the items as the project last received them, at no cost. */
export async function projectPage(
  project: ProjectItems,
  kind: 'post' | 'user',
  ids: string[],
  now: number,
): Promise<SourcePage> {
  const held = await project.held(kind, ids, true);
  const byId = new Map(held.map((h) => [h.id, h]));
  const rawItems: unknown[] = [];
  const rawTexts: string[] = [];
  const notFound: string[] = [];
  let newest = 0;
  // in the list's order
  for (const id of ids) {
    const h = byId.get(id);
    if (!h) {
      notFound.push(id);
      continue;
    }
    // the journal keeps the text the project holds; the parsed item is still read for its id (de-duplication), its
    // place in a thread and a live CSV's fields
    rawItems.push(JSON.parse(h.raw) as unknown);
    rawTexts.push(h.raw);
    newest = Math.max(newest, h.at);
  }
  return {
    rawItems,
    rawTexts,
    dropped: [],
    duplicatesRemoved: 0,
    received: rawItems.length,
    notFound,
    paging: null,
    fetchedAt: newest || now,
    httpStatus: 200,
    credits: 0,
    fromCache: true,
    attempts: 0,
  };
}
