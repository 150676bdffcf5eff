/**
 * A collection's share package, apart from the project: what is refused is refused before the save dialog opens
 * and before anything is read, in words that say what to do instead; a project that cannot keep the citation
 * does not keep anyone from sharing.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { SkeinError } from '../../shared/errors';
import { REVIEW_MAX_ITEMS } from '../../shared/ipc/coding';
import { createCodingExports } from './exports';
import type { CodingService } from './service';
import type { CodingStore } from './store';
import { aCitation } from './testing/citation';

interface Over {
  /** where the save dialog answers (null: cancelled) */
  saveAs?: string | null;
  /** what keeping the citation does (a project this role may only read refuses it) */
  setMeta?: () => Promise<void>;
  /** the collection's posts, by id */
  posts?: string[];
}

function exportsOver(items: number, over: Over = {}) {
  const asked: string[] = [];
  const read: string[] = [];
  const posts = over.posts ?? [];
  const store = {
    collections: async () => [{ id: 7, name: 'Big', kind: 'search', createdAt: 0, items, researcher: null }],
    optOuts: async () => [],
    grouped: (q: { kind: string }) => {
      read.push('grouped');
      return (async function* () {
        if (q.kind === 'post' && posts.length) yield posts.map((id) => ({ id, group: null }));
      })();
    },
    keptItems: async (_kind: string, ids: string[]) => ({
      held: ids.map((id) => ({
        id,
        raw: JSON.stringify({ id, text: 'hi', author: { id: '9', userName: 'ada' } }),
        at: 0,
      })),
      damaged: [],
    }),
    setMeta: over.setMeta ?? (async () => undefined),
  } as unknown as CodingStore;
  const exports = createCodingExports({
    service: { store: async () => store } as unknown as CodingService,
    chooseSavePath: async (o) => {
      asked.push(o.title ?? '');
      return over.saveAs ?? null;
    },
    now: () => Date.UTC(2026, 11, 1),
    app: { name: 'Skein', version: '0' },
    projectName: async () => 'P',
    pseudonymKey: () => 'a-team-key-of-enough-length-0123456789',
  });
  return { exports, asked, read };
}

const citation = aCitation;

describe('a collection’s share package', () => {
  it('refuses a package for review of a collection over the bound, before the dialog, saying what to do', async () => {
    const { exports, asked, read } = exportsOver(REVIEW_MAX_ITEMS + 1);
    const share = exports.shareCollection({
      collection: 7,
      review: true,
      rehydration: true,
      includeTexts: false,
      citation,
    });
    await expect(share).rejects.toThrow(SkeinError);
    await expect(share).rejects.toThrow(/at most 100,000 items, and “Big” has 100,001/);
    expect(asked).toEqual([]);
    expect(read).toEqual([]);
  });

  it('makes the package for re-hydration of the same collection: ids have no bound', async () => {
    const { exports, asked, read } = exportsOver(REVIEW_MAX_ITEMS + 1);
    // the dialog is cancelled here: nothing written, nothing refused
    expect(
      await exports.shareCollection({ collection: 7, review: false, rehydration: true, includeTexts: false, citation }),
    ).toBeNull();
    expect(asked).toEqual(['Save the share package']);
    // and nothing was read for it
    expect(read).toEqual([]);
  });

  it('says a collection no longer in the project is not there', async () => {
    const { exports } = exportsOver(1);
    await expect(
      exports.shareCollection({ collection: 8, review: false, rehydration: true, includeTexts: false, citation }),
    ).rejects.toThrow('This collection is no longer in the project.');
  });

  it('shares from a project this role may only read: the packages are made, the citation not kept, and said', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-share-'));
    try {
      const { exports } = exportsOver(2, {
        saveAs: join(dir, 'shared.zip'),
        posts: ['1850000000000000001', '1850000000000000002'],
        setMeta: async () => {
          throw new SkeinError('write-failed', 'Your role may only read this team project.');
        },
      });
      const written = await exports.shareCollection({
        collection: 7,
        review: true,
        rehydration: true,
        includeTexts: false,
        citation,
      });
      expect(written?.packages.map((p) => p.note)).toEqual([
        expect.stringContaining(
          'The citation was not kept in the project for next time (Your role may only read this team project).',
        ),
        expect.stringContaining('The citation was not kept in the project for next time'),
      ]);
      const ids = unzipSync(readFileSync(join(dir, 'shared.for-rehydration.zip')))['post_ids.txt']!;
      expect(strFromU8(ids)).toBe('1850000000000000001\n1850000000000000002\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
