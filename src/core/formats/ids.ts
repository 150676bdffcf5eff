/**
 * Dehydrate (share a dataset as ids, as platform terms ask): a view's export as an id list — plain
 * digits, one per line, no header, `.txt` — of its posts or its users (a post view's authors; a space's
 * participants), each id once, in the order first met. Post ids and user ids are never mixed in one
 * file. The manifest goes beside it.
 */
import type { IdsOf } from '../../shared/ipc/export';
import { writeFileAtomic, writeJoined } from '../files/atomic-file';
import { decodeCsvId, TABLES } from './csv/rows';
import {
  fileAndSidecar,
  rawText,
  withSidecar,
  writeOptions,
  type Format,
  type ItemStream,
  type WritePlan,
} from './format';
import { itemIdOf, nonEmpty, obj } from './item-fields';
import type { ExportManifest } from './manifest';

const DIGITS = /^\d{1,20}$/;

/** The ids an item gives: its own (posts, users), its author (users of a post view), a space's participants. */
function idsOf(raw: unknown, plan: WritePlan, of: IdsOf, params: Record<string, string | number | boolean>): string[] {
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

/** Writes each plain-digit id once (an id list holds digits only: anything else is left out); the bytes written. */
async function writeIds(
  target: string,
  source: ItemStream,
  plan: WritePlan,
  of: IdsOf,
  signal?: AbortSignal,
): Promise<number> {
  const seen = new Set<string>();
  const params = plan.params;
  return writeFileAtomic(
    target,
    (sink) =>
      writeJoined(sink, source.items(), (item) => {
        let lines = '';
        for (const id of idsOf(JSON.parse(rawText(item)), plan, of, params)) {
          if (!DIGITS.test(id) || seen.has(id)) continue;
          seen.add(id);
          lines += `${id}\n`;
        }
        return lines;
      }),
    signal,
  );
}

function idsSection(of: IdsOf): NonNullable<ExportManifest['ids']> {
  return {
    of,
    format: 'plain digits, one id per line, no header, UTF-8',
    note:
      of === 'posts'
        ? "the export's post ids, each once, in the order collected"
        : "the export's user ids (a post view's authors, a space's participants), each once, in the order first met",
  };
}

export const ids: Format = {
  id: 'ids',
  label: 'Id list',
  hint: 'dehydrated: plain digits, one per line, no header (.txt)',
  extension: 'txt',
  offers: [
    {
      id: 'ids-posts',
      label: 'Post ids only (.txt)',
      hint: 'dehydrated: plain digits, one per line, no header, to share or hydrate later',
      options: { idsOf: 'posts' },
      kinds: ['post', 'space'],
      archive: { kinds: ['post'] },
    },
    {
      id: 'ids-users',
      label: 'User ids only (.txt)',
      hint: "dehydrated: the users' (or authors') ids, one per line, no header",
      options: { idsOf: 'users' },
      kinds: ['post', 'user', 'listFollower', 'space'],
      archive: { kinds: ['post', 'user'] },
    },
  ],
  files: fileAndSidecar,
  rowProvenance: null,
  section: ({ options }) => ({ ids: idsSection(writeOptions(options).idsOf) }),
  write: (job) =>
    withSidecar(job, () => writeIds(job.target, job.items, job.plan, writeOptions(job.options).idsOf, job.signal)),
};
