/**
 * Dehydrate (issue 25 #5): a view's export as an id list — plain digits, one per line, no header, `.txt` —
 * of its posts or its users (a post view's authors; a space's participants), each id once, in the order
 * first met. Post ids and user ids are never mixed in one file. The manifest goes beside it.
 */
import type { IdsOf } from '../../shared/ipc/export';
import { writeFileAtomic } from '../files/atomic-file';
import { decodeCsvId, TABLES } from './csv/rows';
import { nonEmpty, obj } from './item-fields';
import { rawText } from '../export/journal';
import type { ViewPlan } from '../export/views';
import { itemIdOf } from '../export/views';
import type { ItemStream } from './writers';

const DIGITS = /^\d{1,20}$/;

/** The ids an item gives: its own (posts, users), its author (users of a post view), a space's participants. */
function idsOf(raw: unknown, plan: ViewPlan, of: IdsOf, params: Record<string, string | number | boolean>): string[] {
  switch (plan.itemKind) {
    case 'post': {
      if (of === 'posts') return [itemIdOf(raw) ?? ''];
      return [nonEmpty(obj(obj(raw)?.author)?.id) ?? ''];
    }
    case 'user':
    case 'listFollower':
      return of === 'users' ? [itemIdOf(raw) ?? ''] : [];
    case 'space': {
      const rows = TABLES.space[1]?.rows(raw, null, { params, index: 0 }) ?? [];
      if (of === 'users') return rows.map((r) => (typeof r.user_id === 'string' ? decodeCsvId(r.user_id) : ''));
      const tweet = TABLES.space[0]?.rows(raw, null, { params, index: 0 })[0]?.tweet_id;
      return [typeof tweet === 'string' ? decodeCsvId(tweet) : ''];
    }
    default:
      return [];
  }
}

export interface IdsWritten {
  bytes: number;
  ids: number;
  /** ids that were not plain digits (left out: an id list holds digits only) */
  skipped: number;
}

export async function writeIds(
  target: string,
  source: ItemStream,
  plan: ViewPlan,
  of: IdsOf,
  signal?: AbortSignal,
): Promise<IdsWritten> {
  const seen = new Set<string>();
  let skipped = 0;
  const params = plan.params;
  const bytes = await writeFileAtomic(
    target,
    async (sink) => {
      let chunk = '';
      for await (const item of source.items()) {
        for (const id of idsOf(JSON.parse(rawText(item)), plan, of, params)) {
          if (id === '') continue;
          if (!DIGITS.test(id)) {
            skipped++;
            continue;
          }
          if (seen.has(id)) continue;
          seen.add(id);
          chunk += `${id}\n`;
        }
        if (chunk.length > 1 << 16) {
          await sink.write(chunk);
          chunk = '';
        }
      }
      if (chunk) await sink.write(chunk);
    },
    signal,
  );
  return { bytes, ids: seen.size, skipped };
}
