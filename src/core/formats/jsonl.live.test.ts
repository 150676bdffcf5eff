/**
 * A JSON Lines file written while it collects is byte for byte the one the journal's path writes: the same export
 * run fresh (live) and run capped then resumed (the journal's path, as every resume is) give the same file — items
 * whose received text spans lines or spells a number its own way, threads and people — whether the export writes
 * its files in this thread or, as the app does, hands them to a worker (which leaves this one to the export).
 */
import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { ViewDescriptor } from '../../shared/ipc/export';
import type { OpenLive } from '../export/live-thread';
import { liveViews, openLiveFor, recorded, type LiveWhere } from '../export/testing/live';
import { memorySource, post, type MemoryPage } from '../export/testing/memory-source';
import { runExport } from '../export/testing/run-export';
import { duckdb } from '../testing/duckdb';
import { pythonWith, readerIt, runJson } from '../testing/readers';
import type { PageSource } from '../walk';

const ROOT = '1000000000000000001';
const HOSTILE = ['line\r\nbreak', '"quoted" \\ back', '日本 ✓ é 🧵', '', '</script><b>x</b>', '\u2028 sep'];

function threadPages(): MemoryPage[] {
  return [0, 1, 2, 3].map((p) => ({
    items: [
      ...(p === 0 ? [post(ROOT)] : []),
      ...[0, 1, 2, 3, 4].map((i) => {
        const n = p * 5 + i;
        const id = String(9007199254740993n + BigInt(n));
        return post(id, n % 3 === 0 ? ROOT : String(9007199254740993n + BigInt(Math.max(0, n - 1))), {
          text: HOSTILE[n % HOSTILE.length],
          quoted_tweet: n % 4 === 2 ? { id: '7', author: { id: '8', userName: '=x' } } : null,
          entities: {},
          likeCount: 10,
        });
      }),
      ...(p === 0 ? [{ no: 'id' }] : []),
    ],
  }));
}

function peoplePages(): MemoryPage[] {
  return [0, 1].map((p) => ({
    items: HOSTILE.map((text, i) => ({
      type: 'user',
      id: String(3000000000000000000n + BigInt(p * 100 + i)),
      userName: `u${p}${i}`,
      description: text,
    })),
  }));
}

/**
 * People whose descriptions run long (a post's text can reach 25,000 characters): lines bigger than a write's buffer,
 * each page shorter than the one before, so the journal encodes each into the same buffer
 */
function longPages(): MemoryPage[] {
  return [0, 1, 2].map((p) => ({
    items: [0, 1, 2].map((i) => ({
      type: 'user',
      id: String(3000000000000000000n + BigInt(p * 100 + i)),
      userName: `long${p}${i}`,
      description: `${'日本 ✓ é '.repeat(5_000 - p * 1_500)}${p}${i}`,
    })),
  }));
}

/**
 * The items' text as a service may send it: spread over lines, with a number spelled as it was (a big id's
 * digits, an exponent) — what the journal keeps, and what a JSON Lines line must carry on one line.
 */
function asReceived(source: PageSource): PageSource {
  return {
    ...source,
    fetchPage: async (request) => {
      const page = await source.fetchPage(request);
      const rawTexts = page.rawItems.map((item, i) =>
        JSON.stringify(item, null, i % 2 === 0 ? 2 : undefined).replace(/"likeCount":\s*10/, '"likeCount": 1e1'),
      );
      return { ...page, rawTexts };
    },
  };
}

const { thread, people } = liveViews(ROOT);

async function exportJsonl(pages: MemoryPage[], view: ViewDescriptor, resumed: boolean, openLive?: OpenLive) {
  const { dir, target, done } = await runExport(pages, {
    view,
    format: 'jsonl',
    resumed,
    deps: { source: asReceived(memorySource(pages)), ...(openLive ? { openLive } : {}) },
  });
  expect(done.status).toBe('complete');
  return { target, text: await readFile(target, 'utf8'), beside: (await readdir(dir)).sort() };
}

const pandas = readerIt(pythonWith('pandas'), 'Python with pandas (python3-pandas)');

describe('a JSON Lines file written while it collects', () => {
  const cases: Array<[string, () => MemoryPage[], ViewDescriptor]> = [
    ['a thread', threadPages, thread],
    ['people', peoplePages, people],
    ['people with long descriptions', longPages, people],
  ];
  const where: LiveWhere[] = ['in this thread', 'in a worker'];
  it.each(where.flatMap((w) => cases.map(([name, pages, view]) => [`${name}, ${w}`, pages, view, w] as const)))(
    '%s: the same bytes as the journal writes',
    { timeout: 30_000 },
    async (_name, pages, view, w) => {
      const live = recorded(openLiveFor(w));
      const written = await exportJsonl(pages(), view, false, live.open);
      const journaled = await exportJsonl(pages(), view, true);
      // the file was the one written while collecting, not the journal's path's
      expect(live.used).toEqual([true]);
      expect(written.text).toBe(journaled.text);
      expect(written.beside).toEqual(['out.jsonl', 'out.jsonl.manifest.json', 'state']);
      // one item a line, each as received (its line breaks made spaces), with where it came from
      const lines = written.text.trimEnd().split('\n');
      expect(lines.length).toBe(pages().reduce((n, p) => n + p.items.length, 0));
      for (const line of lines) {
        const entry = JSON.parse(line) as { __skein: { page: number }; item: unknown };
        expect(typeof entry.__skein.page).toBe('number');
      }
      if (view === thread) {
        expect(written.text).toContain('"likeCount": 1e1');
        expect(written.text).toMatch(/"item":\{ {3}"type": "tweet",/);
        expect(written.text).toContain('"root_id":"1000000000000000001"');
      }
    },
  );

  pandas('pandas and DuckDB read the file written while collecting: a row per item, its id as sent', async (python) => {
    const { target } = await exportJsonl(threadPages(), thread, false, recorded(openLiveFor('in a worker')).open);
    const ids = threadPages().flatMap((p) => p.items.map((item) => (item as { id?: string }).id ?? null));
    const read = runJson<Array<string | null>>(
      python,
      `import sys, json, pandas as pd
df = pd.read_json(sys.argv[1], lines=True, dtype=False)
print(json.dumps([item.get("id") for item in df["item"]]))`,
      [target],
    );
    expect(read).toEqual(ids);
    const rows = await duckdb(
      `SELECT item->>'$.id' AS id, __skein.page AS page FROM read_json_auto('${target}') ORDER BY page, id`,
    );
    expect(rows.map((r) => r.id).sort()).toEqual(ids.map((id) => id ?? null).sort());
  });
});
