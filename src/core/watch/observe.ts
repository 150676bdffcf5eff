/**
 * What a run reads in each item it is given: its id, when it was made, by whom, and its counters, through the
 * client's own tolerant readers (every spelling of api-field-notes.md). Untrusted input: anything that does not
 * read as an item is left out (never thrown), a counter that is not a number is not recorded.
 */
import { parseApiDate } from '../../shared/api/dates';
import { normalizeCommunity } from '../../shared/api/normalize/community';
import { normalizePost } from '../../shared/api/normalize/post';
import { normalizeSpace } from '../../shared/api/normalize/space';
import { normalizeTrend } from '../../shared/api/normalize/trend';
import { normalizeUser } from '../../shared/api/normalize/user';
import type { CounterKind, CounterMetric } from '../../shared/ipc/watch';

export interface Observed {
  kind: CounterKind;
  id: string;
  createdAt: number | null;
  /** the author's id (posts) */
  author: string | null;
  /** the author's handle (posts), lower-case: a mentions watch's target is a handle */
  handles: string[];
  counters: Partial<Record<CounterMetric, number>>;
  /** a user's post count (the probe compares it), a post's reply or quote count */
  counts: { statusesCount?: number; replyCount?: number; quoteCount?: number };
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);
const int = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= Number.MAX_SAFE_INTEGER ? v : undefined;
const idOf = (v: unknown): string | null => (typeof v === 'string' && /^\d{1,25}$/.test(v) ? v : null);

function counters(entries: Array<[CounterMetric, unknown]>): Partial<Record<CounterMetric, number>> {
  const out: Partial<Record<CounterMetric, number>> = {};
  for (const [metric, value] of entries) {
    const n = int(value);
    if (n !== undefined) out[metric] = n;
  }
  return out;
}

export function observePost(raw: unknown): Observed | null {
  const p = obj(normalizePost(raw));
  const id = idOf(p?.id);
  if (!p || !id) return null;
  const author = obj(p.author);
  const views = typeof p.viewCount === 'string' && /^\d+$/.test(p.viewCount) ? Number(p.viewCount) : undefined;
  const mentioned = obj(p.entities)?.user_mentions;
  const handles = [
    typeof author?.userName === 'string' ? author.userName : null,
    ...(Array.isArray(mentioned) ? mentioned.map((m) => obj(m)?.screen_name) : []),
  ]
    .filter((h): h is string => typeof h === 'string' && h !== '')
    .map((h) => h.toLowerCase());
  return {
    kind: 'post',
    id,
    createdAt: parseApiDate(typeof p.createdAt === 'string' ? p.createdAt : null),
    author: idOf(author?.id),
    handles,
    counters: counters([
      ['likes', p.likeCount],
      ['reposts', p.retweetCount],
      ['replies', p.replyCount],
      ['quotes', p.quoteCount],
      ['bookmarks', p.bookmarkCount],
      ['views', views],
    ]),
    counts: { replyCount: int(p.replyCount), quoteCount: int(p.quoteCount) },
  };
}

export function observeUser(raw: unknown): Observed | null {
  const u = obj(normalizeUser(raw));
  const id = idOf(u?.id);
  if (!u || !id) return null;
  return {
    kind: 'user',
    id,
    createdAt: parseApiDate(typeof u.createdAt === 'string' ? u.createdAt : null),
    author: null,
    handles: typeof u.userName === 'string' ? [u.userName.toLowerCase()] : [],
    counters: counters([
      ['followers', u.followers],
      ['following', u.following],
      ['posts', u.statusesCount],
    ]),
    counts: { statusesCount: int(u.statusesCount) },
  };
}

export function observeCommunity(raw: unknown): Observed | null {
  const data = obj(obj(obj(normalizeCommunity(raw))?.data)?.community_results_by_rest_id);
  const result = obj(data?.result);
  const id = idOf(data?.rest_id ?? result?.rest_id);
  if (!result || !id) return null;
  return {
    kind: 'community',
    id,
    createdAt: null,
    author: null,
    handles: [],
    counters: counters([['members', result.member_count]]),
    counts: {},
  };
}

/** a space, and its participants' ids (who is new since the last run) */
export function observeSpace(raw: unknown): { observed: Observed; participants: string[] } | null {
  const space = obj(obj(obj(normalizeSpace(raw))?.data)?.audio_space_by_rest_id);
  const meta = obj(space?.metadata);
  if (!meta) return null;
  const parts = obj(meta.participants) ?? {};
  const people = ['admins', 'speakers', 'listeners'].flatMap((k) => {
    const list = parts[k];
    return Array.isArray(list) ? list.map((p) => idOf(obj(p)?.user_id)).filter((x): x is string => x !== null) : [];
  });
  const id = typeof meta.rest_id === 'string' ? meta.rest_id : typeof meta.media_key === 'string' ? meta.media_key : '';
  return {
    observed: {
      kind: 'space',
      id,
      createdAt: null,
      author: null,
      handles: [],
      counters: counters([
        ['listeners', meta.total_live_listeners],
        ['participants', int(parts.total) ?? people.length],
      ]),
      counts: {},
    },
    participants: [...new Set(people)],
  };
}

/** a place's trends in rank order: each one's rank (its id is its name) */
export function observeTrends(items: readonly unknown[]): Observed[] {
  const out: Observed[] = [];
  items.forEach((raw, i) => {
    const t = obj(normalizeTrend(raw));
    const name = typeof t?.name === 'string' ? t.name.slice(0, 64) : '';
    if (name === '') return;
    out.push({
      kind: 'trend',
      id: name,
      createdAt: null,
      author: null,
      handles: [],
      counters: { rank: i + 1 },
      counts: {},
    });
  });
  return out;
}
