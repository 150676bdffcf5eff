/**
 * What becomes of an item a watch follows (its presence, the attrition history), as pure functions of the row
 * held and what a run saw: the store reads the rows a run touches, applies these, and writes the result back,
 * so both stores keep one rule. An item is present until a listing leaves it out (missing); a re-check by id
 * that does not find it calls it gone, one that does brings it back; seen again in a listing, a missing item is
 * simply present and a gone one has returned.
 */
import type { PresenceRecord, RunOutcome } from '../tables/records';
import { ByItem } from './by-item';

type Seen = RunOutcome['seen'][number];
type Missed = RunOutcome['missing'][number];
type Rechecked = RunOutcome['rechecked'][number];

const DAY_MS = 86_400_000;

/** how long after each re-check that did not find an item it is asked for again; after the last, never */
export const RECHECK_AFTER_MS: readonly number[] = [DAY_MS, 7 * DAY_MS, 30 * DAY_MS];

/** When an item not found by its `n`th re-check (from 1), at `at`, is asked for again; null: never. */
export function nextRecheck(n: number, at: number): number | null {
  const after = RECHECK_AFTER_MS[n - 1];
  return after === undefined ? null : at + after;
}

/** The row of an item a watch reads for the first time, in run `run`. */
export function firstSighting(watch: number, run: number, s: Seen): PresenceRecord {
  return {
    watch,
    kind: s.kind,
    id: s.id,
    target: s.target,
    createdAt: s.createdAt,
    firstSeen: s.at,
    lastSeen: s.at,
    firstRun: run,
    baseline: s.baseline,
    firstMissingAt: null,
    rechecks: 0,
    status: 'present',
    reason: null,
    statusAt: s.at,
    nextCheck: null,
  };
}

/** An item held, read again in a listing: its last sighting stretched, what it lacked filled, and back if it was away. */
export function seenAgain(p: PresenceRecord, s: Seen): PresenceRecord {
  const next: PresenceRecord = {
    ...p,
    lastSeen: Math.max(p.lastSeen, s.at),
    target: p.target ?? s.target,
    createdAt: p.createdAt ?? s.createdAt,
  };
  if (p.status !== 'gone' && p.status !== 'missing') return next;
  return {
    ...next,
    status: p.status === 'gone' ? 'returned' : 'present',
    reason: 'seen again in a listing',
    statusAt: s.at,
    nextCheck: null,
  };
}

/** An item held that a listing left out: missing, due for a re-check at once; null when it is already away. */
export function missed(p: PresenceRecord, m: Missed): PresenceRecord | null {
  if (p.status === 'missing' || p.status === 'gone') return null;
  return { ...p, status: 'missing', reason: m.reason, statusAt: m.at, firstMissingAt: m.at, nextCheck: m.at };
}

/**
 * An item held, asked for by id. Found: one that was called gone has returned, one only missing from a listing
 * is simply present. Not found: gone (since it was first called so), asked again at the run's `nextCheck`.
 */
export function rechecked(p: PresenceRecord, c: Rechecked): PresenceRecord {
  const rechecks = p.rechecks + 1;
  if (c.found) {
    const status = p.status === 'gone' ? 'returned' : p.status === 'missing' ? 'present' : p.status;
    return { ...p, status, reason: c.reason, statusAt: c.at, rechecks, nextCheck: null };
  }
  return {
    ...p,
    status: 'gone',
    reason: c.reason,
    statusAt: p.status === 'gone' ? p.statusAt : c.at,
    firstMissingAt: p.firstMissingAt ?? c.at,
    rechecks,
    nextCheck: c.nextCheck,
  };
}

/**
 * A run's presence, settled: from the rows held for the items it touched (`held`, as the store read them), what
 * it saw, then what it missed, then what it asked for again, each in order (an item seen twice takes both
 * sightings). The rows that changed or are new, each once.
 */
export function settlePresence(
  held: readonly PresenceRecord[],
  watch: number,
  run: number,
  o: Pick<RunOutcome, 'seen' | 'missing' | 'rechecked'>,
): PresenceRecord[] {
  const rows = new ByItem<{ p: PresenceRecord }>();
  for (const p of held) rows.set(p.kind, p.id, { p });
  const touched = new Set<{ p: PresenceRecord }>();
  for (const s of o.seen) {
    let row = rows.get(s.kind, s.id);
    if (row) row.p = seenAgain(row.p, s);
    else rows.set(s.kind, s.id, (row = { p: firstSighting(watch, run, s) }));
    touched.add(row);
  }
  for (const m of o.missing) {
    const row = rows.get(m.kind, m.id);
    const next = row && missed(row.p, m);
    if (!row || !next) continue;
    row.p = next;
    touched.add(row);
  }
  for (const c of o.rechecked) {
    const row = rows.get(c.kind, c.id);
    if (!row) continue;
    row.p = rechecked(row.p, c);
    touched.add(row);
  }
  return [...touched].map((row) => row.p);
}
