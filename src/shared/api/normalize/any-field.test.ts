/**
 * The property that keeps the live service's odd fields from costing posts: any single field of a valid post
 * (nested ones included: the author, the quoted post and its own quoted post, entities, media, the card)
 * replaced by "", {}, null or a value of another type never removes the post from its page: the reader keeps
 * it, the raw item (what an export writes) is the very object received, unchanged, and what the bridge sends
 * can be made of it. Only the post's own `id` may not be replaced: an item whose id cannot be read is the one
 * thing skipped (and counted). The export side of the property (JSONL, CSV, Parquet read back by DuckDB) is
 * `core/export/one-field-export.test.ts`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { postFixture } from '../fixtures';
import { ODD_VALUES, VALID_POSTS, replaceablePaths, withField } from '../fixtures/one-field';
import { cardPost, type Post } from '../schemas';
import { normalizePage } from './page';
import { readCard } from './card';

const envelope = (tweets: unknown[]) => ({ status: 'success', msg: 'success', tweets, has_next_page: false });

/** "", {}, null, every other type, and anything fast-check makes up */
const replacement = fc.oneof(fc.constantFrom(...ODD_VALUES), fc.anything({ maxDepth: 2 }));

describe('one odd field never drops a post', () => {
  it('every valid post reads as it is, with nothing dropped', () => {
    for (const post of VALID_POSTS) expect(normalizePage('postQuotes', envelope([post])).dropped).toEqual([]);
  });

  it('any single field (but the post’s own id) replaced by "", {}, null or another type keeps the post, whole', () => {
    const cases = fc
      .constantFrom(...VALID_POSTS)
      .chain((post) => fc.tuple(fc.constant(post), fc.constantFrom(...replaceablePaths(post)), replacement));
    fc.assert(
      fc.property(cases, ([post, path, value]) => {
        const raw = withField(post, path, value) as Record<string, unknown>;
        const before = JSON.stringify(raw);
        const page = normalizePage('postQuotes', envelope([raw]));
        expect(page.dropped, `${path.join('.')} = ${JSON.stringify(value)}`).toEqual([]);
        expect(page.items).toHaveLength(1);
        expect((page.items[0] as Post).id).toBe(post.id);
        // the raw item is what exports write: the very object received, unchanged
        expect(page.rawItems[0]).toBe(raw);
        expect(JSON.stringify(raw)).toBe(before);
        // what the bridge sends is made of it without throwing
        expect(cardPost(page.items[0] as Post).id).toBe(post.id);
        readCard(raw.card, raw.entities);
      }),
      { numRuns: 4000 },
    );
  });

  it('a post whose own id cannot be read is the one skipped, and counted', () => {
    for (const id of ['', null, {}, 'abc', 2 ** 53 + 2]) {
      const page = normalizePage('postQuotes', envelope([{ ...postFixture, id }, postFixture]));
      expect(page.items).toHaveLength(1);
      expect(page.dropped).toEqual([expect.objectContaining({ index: 0, path: 'tweets[0].id' })]);
    }
  });
});
