/**
 * The kinds of watch, one entry each (a registry: a new kind is one entry here): what its targets are, which
 * listing or answer a run reads for each, how it is probed, which strategies it offers, and how to read what
 * comes back (`observe.ts`).
 */
import type { OperationId } from '../../shared/api/catalog';
import type { WatchKind, WatchStrategy } from '../../shared/ipc/watch';

export interface Listing {
  operation: OperationId;
  params: (target: string) => Record<string, string | number | boolean>;
  /**
   * `newest`: newest first, so a run reads until it meets what it holds; `none`: no time order (a
   * conversation's replies), so a run reads it whole
   */
  order: 'newest' | 'none';
}

export interface KindSpec {
  kind: WatchKind;
  label: string;
  /** what one target is, for the form and its errors */
  target: { noun: string; pattern: RegExp; hint: string };
  strategies: readonly WatchStrategy[];
  /** a listing per target (accounts, mentions, a list, a conversation, quotes) */
  listing?: Listing;
  /** one answer per target per run (a community, trends for a place, a space) */
  snapshot?: { operation: OperationId; params: (target: string) => Record<string, string | number | boolean> };
  /** the batch lookup that tells whether a target changed: the count compared from run to run */
  probe?: { operation: 'usersByIds' | 'postsByIds'; count: 'statusesCount' | 'replyCount' | 'quoteCount' };
}

const NUMERIC = /^\d{1,25}$/;
const HANDLE = /^@?[A-Za-z0-9_]{1,50}$/;

export const KINDS: Readonly<Record<WatchKind, KindSpec>> = {
  accounts: {
    kind: 'accounts',
    label: 'Accounts: their posts',
    target: { noun: 'account id', pattern: NUMERIC, hint: 'numeric account ids, one per line' },
    strategies: ['full', 'probe', 'list'],
    listing: {
      operation: 'userTimeline',
      // both sent: the live service and the spec disagree on the defaults (api-field-notes.md)
      params: (userId) => ({ userId, includeReplies: true, includeParentTweet: false }),
      order: 'newest',
    },
    probe: { operation: 'usersByIds', count: 'statusesCount' },
  },
  mentions: {
    kind: 'mentions',
    label: 'Accounts: posts that mention them',
    target: { noun: 'handle', pattern: HANDLE, hint: 'handles, one per line (@ optional)' },
    strategies: ['full'],
    listing: {
      operation: 'userMentions',
      params: (handle) => ({ userName: handle.replace(/^@/, '') }),
      order: 'newest',
    },
  },
  list: {
    kind: 'list',
    label: 'A list’s timeline',
    target: { noun: 'list id', pattern: NUMERIC, hint: 'the list’s numeric id' },
    strategies: ['full'],
    listing: { operation: 'listTimeline', params: (listId) => ({ listId }), order: 'newest' },
  },
  replies: {
    kind: 'replies',
    label: 'A conversation: its replies',
    target: { noun: 'post id', pattern: NUMERIC, hint: 'the id of the post the conversation starts with' },
    strategies: ['probe', 'full'],
    listing: { operation: 'postRepliesV2', params: (tweetId) => ({ tweetId, queryType: 'Latest' }), order: 'none' },
    probe: { operation: 'postsByIds', count: 'replyCount' },
  },
  quotes: {
    kind: 'quotes',
    label: 'A post: its quotes',
    target: { noun: 'post id', pattern: NUMERIC, hint: 'the quoted post’s id' },
    strategies: ['probe', 'full'],
    listing: { operation: 'postQuotes', params: (tweetId) => ({ tweetId }), order: 'newest' },
    probe: { operation: 'postsByIds', count: 'quoteCount' },
  },
  community: {
    kind: 'community',
    label: 'A community: its members over time',
    target: { noun: 'community id', pattern: NUMERIC, hint: 'the community’s numeric id' },
    strategies: ['full'],
    snapshot: { operation: 'communityInfo', params: (community_id) => ({ community_id }) },
  },
  trends: {
    kind: 'trends',
    label: 'Trends for a place',
    target: { noun: 'WOEID', pattern: /^\d{1,10}$/, hint: 'Where On Earth ids (1 is worldwide)' },
    strategies: ['full'],
    snapshot: { operation: 'trends', params: (woeid) => ({ woeid: Number(woeid), count: 50 }) },
  },
  space: {
    kind: 'space',
    label: 'A live space: its participants',
    target: { noun: 'space id', pattern: /^[A-Za-z0-9_-]{1,64}$/, hint: 'the space’s id' },
    strategies: ['full'],
    snapshot: { operation: 'spaceDetail', params: (space_id) => ({ space_id }) },
  },
};

export const STRATEGY_LABELS: Readonly<Record<WatchStrategy, string>> = {
  full: 'Full page each run',
  probe: 'Probe first, then read what changed',
  list: 'Through one list',
};

/** the targets of a spec as the runs use them (handles without @), or the first that is not one */
export function checkTargets(kind: WatchKind, targets: readonly string[]): { ok: string[] } | { bad: string } {
  const spec = KINDS[kind];
  const out: string[] = [];
  for (const raw of targets) {
    const t = raw.trim();
    if (!spec.target.pattern.test(t)) return { bad: t };
    const clean = kind === 'mentions' ? t.replace(/^@/, '') : t;
    if (!out.includes(clean)) out.push(clean);
  }
  return { ok: out };
}
