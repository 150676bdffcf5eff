/**
 * What a watch will cost, before it is switched on: per run, per day and per month, for each strategy its kind
 * offers, from its schedule, the price table and how often its targets post (what the project shows: their
 * recent posts it holds from their timelines, else their lifetime average from a profile it holds, else an assumption it states).
 * The same arithmetic the runs spend by: a timeline page is billed per post on it, a batch lookup per user
 * or post, a list timeline per call (`creditsFor`, shared with the sandbox's ledger).
 */
import { creditsFor, creditsToUsd, type PriceTable } from '../../shared/api/pricing';
import { largestPageKnown, type OperationId } from '../../shared/api/catalog';
import type { WatchKind, WatchOptions, WatchProjection, WatchStrategy } from '../../shared/ipc/watch';
import type { AccountFacts, PostingHistory } from './tables/records';
import { KINDS, STRATEGY_LABELS } from './kinds';

const DAY_MS = 86_400_000;
const PAGE = 20;
/** posts a day assumed for an account the project shows nothing of */
const ASSUMED_POSTS_PER_DAY = 1;
/** the span of an account's posts in the project below which they are read as a burst, not a posting rate */
const MIN_HISTORY_DAYS = 3;
/** a share of posts that is deleted (a probe sees the count move for those too) */
const DELETED_SHARE = 0.05;
/** accounts a people search answers with, each billed (the catalog's typical page) */
const TYPICAL_SEARCH = largestPageKnown('userSearch');

export interface Rates {
  /** posts a day, per target */
  perTarget: Map<string, number>;
  /** how many targets' rates came from their recent posts, their profiles, or the assumption */
  from: { recent: number; lifetime: number; assumed: number };
}

/** Each target's posting rate, from what the project holds (recent posts over 30 days, or a profile). */
export function postingRates(
  targets: readonly string[],
  history: readonly PostingHistory[],
  facts: readonly AccountFacts[],
  now: number,
): Rates {
  const byAuthor = new Map(history.map((h) => [h.author, h]));
  const byId = new Map(facts.map((f) => [f.id, f]));
  const perTarget = new Map<string, number>();
  const from = { recent: 0, lifetime: 0, assumed: 0 };
  for (const t of targets) {
    const h = byAuthor.get(t);
    const recent = h && h.posts >= 3 && h.last > h.first ? h : null;
    // n posts span n-1 intervals
    const recentRate = (span: number) => (recent ? (recent.posts - 1) / span : 0);
    const span = recent ? (recent.last - recent.first) / DAY_MS : 0;
    if (recent && span >= MIN_HISTORY_DAYS) {
      perTarget.set(t, recentRate(span));
      from.recent++;
      continue;
    }
    // a shorter history is a burst (a thread, a live event), not a rate: the account's own counters say more
    const f = byId.get(t);
    if (f && f.statusesCount !== null && f.createdAt !== null && now > f.createdAt) {
      perTarget.set(t, f.statusesCount / Math.max(1, (now - f.createdAt) / DAY_MS));
      from.lifetime++;
      continue;
    }
    if (recent) {
      perTarget.set(t, recentRate(MIN_HISTORY_DAYS));
      from.recent++;
      continue;
    }
    perTarget.set(t, ASSUMED_POSTS_PER_DAY);
    from.assumed++;
  }
  return { perTarget, from };
}

export interface ProjectionInput {
  kind: WatchKind;
  targets: readonly string[];
  strategy: WatchStrategy;
  everyMinutes: number;
  options: WatchOptions;
  rates: Rates;
  prices: PriceTable;
  /** the most items one answer of an operation has held in this project (0: none seen) */
  largestPage: (operation: OperationId) => number;
  /** @handles still to be resolved (one people search each), read as accounts the project shows nothing of */
  unresolved?: number;
  /** the days it is to run, for the whole watch's cost (null: no end) */
  days?: number | null;
}

/** a cap proposed with room over what is projected, in round hundreds */
const roundUp = (n: number) => Math.max(100, Math.ceil(n / 100) * 100);
/** the room a proposed cap leaves over the projection: posting comes in bursts, re-checks come on top */
const MARGIN = 1.5;
/** the room a run's cap leaves over the first read: a page may hold more posts than any seen so far */
const FIRST_MARGIN = 1.2;

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function batches(operation: 'usersByIds' | 'postsByIds', n: number, prices: PriceTable): number {
  let credits = 0;
  for (let left = n; left > 0; left -= 100) {
    const k = Math.min(100, left);
    credits += creditsFor({ operation, httpStatus: 200, items: k, idsAsked: k }, prices);
  }
  return credits;
}

/** Whether a strategy is offered for this kind, and why not when not. */
export function availability(kind: WatchKind, strategy: WatchStrategy, listId: string | null): string | null {
  if (!KINDS[kind].strategies.includes(strategy)) return `${KINDS[kind].label} cannot be read this way.`;
  if (strategy === 'list' && listId === null)
    return 'Needs a list whose members are these accounts: give its id (Skein cannot make one: the API only reads).';
  return null;
}

export function projectWatch(input: ProjectionInput): WatchProjection {
  const unresolved = input.unresolved ?? 0;
  // handles not yet resolved are accounts the project shows nothing of: the assumed rate
  const p: ProjectionInput = {
    ...input,
    targets: [...input.targets, ...Array.from({ length: unresolved }, (_, i) => `@${i}`)],
  };
  const { prices, options } = p;
  const spec = KINDS[p.kind];
  const runsPerDay = 1440 / p.everyMinutes;
  const intervalDays = p.everyMinutes / 1440;
  const parts: Array<{ label: string; perDay: number }> = [];
  const notes: string[] = [];
  const n = p.targets.length;
  /** the first run: each target's starting point, its first pages whatever they hold, at their largest */
  let firstRun: number;
  /** what a periodic full read costs over a run that makes none, in `perDay`, for a watch whose runs are counted */
  let fullRead: { everyRuns: number; credits: number } | null = null;
  const rate = (t: string) => p.rates.perTarget.get(t) ?? ASSUMED_POSTS_PER_DAY;
  /** the largest page a listing's caps assume: a run stops before a page this big could pass its cap */
  let bound: { items: number; credits: number } | null = null;
  const pageCost = (operation: OperationId) => {
    const items = largestPageKnown(operation, p.largestPage(operation));
    const credits = creditsFor({ operation, httpStatus: 200, items }, prices);
    if (bound === null || credits > bound.credits) bound = { items, credits };
    return credits;
  };
  /** pages one read of a newest-first listing takes: the new items and the overlap, a page at least */
  const readPages = (newItems: number) => 1 + Math.floor((newItems + options.overlap) / PAGE);

  if (spec.snapshot) {
    const op = spec.snapshot.operation;
    const each = creditsFor({ operation: op, httpStatus: 200, items: 1 }, prices);
    parts.push({ label: `${n} ${spec.target.noun}${n === 1 ? '' : 's'} read each run`, perDay: n * each * runsPerDay });
    firstRun = n * each;
    notes.push(`Each run asks once per ${spec.target.noun} (${fmt(each)} credits).`);
  } else if (p.strategy === 'list') {
    const newPerRun = p.targets.reduce((sum, t) => sum + rate(t), 0) * intervalDays;
    const per = readPages(newPerRun) * pageCost('listTimeline');
    parts.push({ label: 'the list’s timeline each run', perDay: per * runsPerDay });
    firstRun = Math.max(per, options.firstPages * pageCost('listTimeline'));
    notes.push(
      `One list timeline a run (${fmt(pageCost('listTimeline'))} credits a page, whatever it holds); if the list has members besides these accounts, their posts fill its pages too.`,
    );
  } else if (p.strategy === 'probe' && spec.probe) {
    const probe = batches(spec.probe.operation, n, prices);
    parts.push({ label: `the probe of ${n}`, perDay: probe * runsPerDay });
    const listing = spec.listing as NonNullable<typeof spec.listing>;
    const page = pageCost(listing.operation);
    // the first run is a full read (run 0 of every `fullEvery`): the probe, then every target's starting point
    firstRun = probe + n * options.firstPages * page;
    let changed = 0;
    let unchanged = 0;
    for (const t of p.targets) {
      // the chance its count moved between two runs: a post made, or one deleted
      const r = rate(t) * (1 + DELETED_SHARE);
      const moved = 1 - Math.exp(-r * intervalDays);
      changed += moved * readPages(rate(t) * intervalDays) * page;
      unchanged += (1 - moved) * page;
    }
    parts.push({ label: 'listings where the count changed', perDay: changed * runsPerDay });
    parts.push({
      label: `a full read every ${options.fullEvery} runs`,
      perDay: (unchanged * runsPerDay) / options.fullEvery,
    });
    fullRead = { everyRuns: options.fullEvery, credits: unchanged };
    notes.push(
      `A probe (${fmt(probe)} credits for ${n}) each run; a listing (${fmt(page)} credits a page) only where the count moved, and every ${options.fullEvery} runs for all (a probe misses a post made and another deleted between two runs).`,
    );
  } else {
    const listing = spec.listing as NonNullable<typeof spec.listing>;
    const page = pageCost(listing.operation);
    let per = 0;
    for (const t of p.targets) per += (listing.order === 'newest' ? readPages(rate(t) * intervalDays) : 1) * page;
    firstRun = Math.max(per, n * options.firstPages * page);
    parts.push({ label: `${n} listing${n === 1 ? '' : 's'} each run`, perDay: per * runsPerDay });
    notes.push(
      listing.order === 'newest'
        ? `Each run reads every ${spec.target.noun}’s newest page (${fmt(page)} credits: billed per item, new or not) and more while it finds new ones.`
        : `Each run reads the whole conversation (${fmt(page)} credits a page): replies come in no time order.`,
    );
  }
  if (options.trackDays > 0 && spec.listing) {
    const tracked = p.targets.reduce((sum, t) => sum + rate(t), 0) * options.trackDays;
    const perPass = batches('postsByIds', Math.ceil(tracked), prices);
    parts.push({
      label: `counters of posts younger than ${options.trackDays} days`,
      perDay: (perPass * runsPerDay) / options.trackEvery,
    });
    notes.push(`About ${fmt(tracked)} recent posts read again by id every ${options.trackEvery} runs.`);
  }
  const perDay = parts.reduce((sum, x) => sum + x.perDay, 0);
  const { recent, lifetime, assumed } = p.rates.from;
  // handles still to resolve are read at the assumed rate too: said with the others, never an empty list
  const guessed = assumed + unresolved;
  if (spec.listing && (p.kind === 'accounts' || p.strategy === 'list')) {
    const told = [
      recent ? `${recent} from their timelines this project holds` : null,
      lifetime ? `${lifetime} from their lifetime averages` : null,
      guessed
        ? `${guessed} assumed at ${ASSUMED_POSTS_PER_DAY} post a day (the project shows nothing of them yet)`
        : null,
    ].filter(Boolean);
    if (told.length) notes.push(`Posting rates: ${told.join('; ')}.`);
  }
  notes.push('Re-checks of what goes missing come on top (a batch lookup per 100).');
  const perRun = perDay / runsPerDay;
  if (firstRun > perRun)
    notes.push(
      `The first run reads each ${spec.target.noun}’s starting point (${options.firstPages} page${options.firstPages === 1 ? '' : 's'} each, whatever ${options.firstPages === 1 ? 'it holds' : 'they hold'}): up to ${fmt(firstRun)} credits.`,
    );
  const resolving =
    unresolved * creditsFor({ operation: 'userSearch', httpStatus: 200, items: TYPICAL_SEARCH }, prices);
  const days = input.days ?? null;
  const runs = days === null ? null : Math.max(1, Math.ceil(days * runsPerDay));
  // a watch of counted runs makes the full reads its runs reach (run 0 is the first read), not a share of each
  const later = (n: number) =>
    fullRead === null
      ? n * perRun
      : n * (perRun - fullRead.credits / fullRead.everyRuns) + Math.floor(n / fullRead.everyRuns) * fullRead.credits;
  const whole = runs === null || days === null ? null : resolving + firstRun + later(runs - 1);
  const proposedPerRun = roundUp(Math.max(firstRun * FIRST_MARGIN, perRun * MARGIN));
  const proposedPerDay = roundUp(Math.max(proposedPerRun, firstRun + perDay * MARGIN));
  const proposedTotal = roundUp(Math.max(proposedPerDay, whole === null ? perDay * 30 * MARGIN : whole * MARGIN));
  return {
    strategy: p.strategy,
    runsPerDay,
    perRun,
    perDay,
    perMonth: perDay * 30,
    usdPerDay: creditsToUsd(perDay, prices),
    usdPerMonth: creditsToUsd(perDay * 30, prices),
    parts,
    basis: `${STRATEGY_LABELS[p.strategy]}, a run every ${p.everyMinutes} minutes (${fmt(runsPerDay)} a day). ${notes.join(' ')}`,
    firstRun,
    resolving,
    ...(whole !== null && runs !== null && days !== null
      ? { whole: { days, runs, credits: whole, usd: creditsToUsd(whole, prices) } }
      : {}),
    caps: { perRun: proposedPerRun, perDay: proposedPerDay, total: proposedTotal },
    ...(bound ? { pageBound: bound } : {}),
  };
}
