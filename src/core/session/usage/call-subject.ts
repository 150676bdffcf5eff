/**
 * What a recorded call was about, in a few words for the Usage panel's recent
 * calls: "post 1850…", "@ada", "list 123", "5 ids", with the page of a paged
 * list ("page 3"). Built from the canonical params key (sorted `[name, value]`
 * pairs, see `request.ts`), never from the URL, so no key can appear in it.
 */
import { OPERATIONS, type OperationId } from '../../../shared/api/catalog';

const SUBJECTS: Array<[param: string, say: (v: string) => string]> = [
  ['tweetId', (v) => `post ${v}`],
  ['tweet_id', (v) => `post ${v}`],
  ['userName', (v) => `@${v}`],
  ['userId', (v) => `user ${v}`],
  ['listId', (v) => `list ${v}`],
  ['list_id', (v) => `list ${v}`],
  ['community_id', (v) => `community ${v}`],
  ['space_id', (v) => `space ${v}`],
  ['query', (v) => `“${v.length > 40 ? `${v.slice(0, 40)}…` : v}”`],
  ['tweet_ids', (v) => `${v.split(',').length} post ids`],
  ['userIds', (v) => `${v.split(',').length} user ids`],
  ['woeid', (v) => `place ${v}`],
];

export function callSubject(operation: OperationId, paramsKey: string, page: number | null): string {
  let pairs: Array<[string, unknown]> = [];
  try {
    const parsed: unknown = JSON.parse(paramsKey);
    if (Array.isArray(parsed))
      pairs = parsed.filter((p): p is [string, unknown] => Array.isArray(p) && typeof p[0] === 'string');
  } catch {
    // an unreadable key: no subject, only the page
  }
  const params = new Map(pairs.map(([k, v]) => [k, String(v)]));
  const subject = SUBJECTS.find(([k]) => params.has(k));
  const words = subject ? subject[1](params.get(subject[0]) as string) : '';
  const paged = OPERATIONS[operation].paged && page !== null ? `page ${page}` : '';
  return [words, paged].filter(Boolean).join(' · ');
}

/** Numbers the pages of each list in the order they were first asked for (the first page is 1). */
export class PageNumbers {
  private readonly lists = new Map<string, Map<string, number>>();
  constructor(private readonly max = 500) {}

  of(operation: OperationId, paramsKey: string, cursor: string | null): number {
    if (cursor === null) return 1;
    const key = `${operation}\u0000${paramsKey}`;
    let cursors = this.lists.get(key);
    if (!cursors) {
      if (this.lists.size >= this.max) this.lists.clear();
      this.lists.set(key, (cursors = new Map<string, number>()));
    }
    let n = cursors.get(cursor);
    if (n === undefined) cursors.set(cursor, (n = cursors.size + 2));
    return n;
  }
}
