/**
 * How the Watches view says things: a schedule, a run's outcome, a gap's reason, a counter's name,
 * and an item's counters as the points of a stepped line. Pure, with its own tests.
 */
import { formatUsd } from '../../lib/usage/money';
import type {
  CounterMetric,
  CounterSeries,
  GapReason,
  RunStatus,
  WatchKind,
  WatchSummary,
} from '../../../shared/ipc/watch';

export function everyWords(minutes: number): string {
  if (minutes % 1440 === 0) return minutes === 1440 ? 'every day' : `every ${minutes / 1440} days`;
  if (minutes % 60 === 0) return minutes === 60 ? 'every hour' : `every ${minutes / 60} hours`;
  return minutes === 1 ? 'every minute' : `every ${minutes} minutes`;
}

export type EveryUnit = 'minutes' | 'hours' | 'days';
export const UNIT_MINUTES: Record<EveryUnit, number> = { minutes: 1, hours: 60, days: 1440 };

export const KIND_LABELS: Record<WatchKind, string> = {
  accounts: 'Accounts: their posts',
  mentions: 'Accounts: posts that mention them',
  list: 'A list’s timeline',
  replies: 'A conversation: its replies',
  quotes: 'A post: its quotes',
  community: 'A community: its members over time',
  trends: 'Trends for a place',
  space: 'A live space: its participants',
};

export const TARGET_HINTS: Record<WatchKind, string> = {
  accounts: '@handles, profile links or numeric account ids, one per line or separated by commas',
  mentions: 'Handles, one per line (@ optional)',
  list: 'The list’s numeric id',
  replies: 'The id of the post the conversation starts with',
  quotes: 'The quoted post’s id',
  community: 'The community’s numeric id',
  trends: 'Where On Earth ids, one per line (1 is worldwide)',
  space: 'The space’s id',
};

const RUN_WORDS: Record<RunStatus, string> = {
  running: 'running',
  done: 'done',
  capped: 'stopped at a cap',
  failed: 'failed',
  stopped: 'stopped',
  interrupted: 'interrupted',
  skipped: 'skipped',
};

const GAP_WORDS: Record<GapReason, string> = {
  closed: 'Skein was closed',
  stopped: 'the runner stopped',
  asleep: 'asleep',
  busy: 'runs were late',
  cap: 'a cap was reached',
  failed: 'a run failed',
  paused: 'paused',
};

const METRIC_WORDS: Record<CounterMetric, string> = {
  likes: 'Likes',
  reposts: 'Reposts',
  replies: 'Replies',
  quotes: 'Quotes',
  bookmarks: 'Bookmarks',
  views: 'Views',
  followers: 'Followers',
  following: 'Following',
  posts: 'Posts',
  members: 'Members',
  listeners: 'Listeners',
  participants: 'Participants',
  rank: 'Rank',
};

/** the order metrics are offered in: the one people ask for first */
const METRIC_ORDER: readonly CounterMetric[] = [
  'likes',
  'reposts',
  'replies',
  'quotes',
  'views',
  'bookmarks',
  'followers',
  'following',
  'posts',
  'members',
  'listeners',
  'participants',
  'rank',
];

/**
 * A word the project keeps, said in words: this Skein's own from `words`; one it does not know (a newer Skein's,
 * on a shared project) as it was written, and an empty one as `blank`. Only own keys count, so a word such as
 * `constructor` is shown as written too.
 */
function keptWords<K extends string>(words: Record<K, string>, word: string, blank: string): string {
  if (Object.hasOwn(words, word)) return words[word as K];
  return word.trim() === '' ? blank : word;
}

/** a metric's name in words; one this Skein does not know (kept by a newer one) as it was written */
export const metricWords = (metric: string): string => keptWords(METRIC_WORDS, metric, 'A metric with no name');

/** a run's status in words (a newer Skein's as written) */
export const runWords = (status: string): string => keptWords(RUN_WORDS, status, 'no status');

/** why a gap was recorded, in words (a newer Skein's reason as written) */
export const gapWords = (reason: string): string => keptWords(GAP_WORDS, reason, 'no reason given');

/** A metric's values as a stepped line: each value from when it was first seen to when it was last seen. */
export function steps(series: CounterSeries, metric: string): Array<{ x: number; y: number }> {
  const m = series.metrics.find((s) => s.metric === metric);
  if (!m) return [];
  const out: Array<{ x: number; y: number }> = [];
  for (const p of m.points) {
    out.push({ x: p.at, y: p.value });
    if (p.lastAt > p.at) out.push({ x: p.lastAt, y: p.value });
  }
  return out;
}

/** the metrics a series has, in the usual order; any this Skein does not know after those, by name */
export function metricsOf(series: CounterSeries): string[] {
  const have = new Set(series.metrics.map((m) => m.metric));
  const others = [...have].filter((m) => !Object.hasOwn(METRIC_WORDS, m)).sort();
  return [...METRIC_ORDER.filter((m) => have.has(m)), ...others];
}

/** "12,345" */
export const count = (n: number): string => Math.round(n).toLocaleString('en-US');

/** "2026-11-22 14:02 UTC" */
export const utcMinute = (t: number): string => `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** a spend against a cap: "5,010 of 20,000 credits", with dollars when the rate is given, and the share (0–1) */
export function against(spent: number, cap: number, creditsPerUsd?: number): { words: string; share: number } {
  const usd = creditsPerUsd ? ` (${formatUsd(cap / creditsPerUsd)})` : '';
  return { words: `${count(spent)} of ${count(cap)} credits${usd}`, share: cap > 0 ? Math.min(1, spent / cap) : 0 };
}

/**
 * What a watch that keeps its media says of them: the files kept for it so far, or that none are yet, and the last
 * failure in words; null when it does not keep media.
 */
export function mediaWords(watch: Pick<WatchSummary, 'spec' | 'media'>): string | null {
  const m = watch.media ?? null;
  if (!watch.spec.options.keepMedia && !m) return null;
  const files = m
    ? `${m.files.toLocaleString('en')} media ${m.files === 1 ? 'file' : 'files'} kept for this watch`
    : 'No media kept yet: they are kept after its next run that finds posts';
  const off = watch.spec.options.keepMedia ? '' : ' (no longer kept after each run)';
  return m?.failure ? `${files}${off}. The last keeping: ${m.failure}.` : `${files}${off}.`;
}
