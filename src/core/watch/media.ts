/**
 * Keeping the media of a watch's posts after each run that found new ones (the spec's `keepMedia`; the first time,
 * after any run that read posts): the watch's
 * collection (every post it kept) is handed to the keeping the composition fits over core/media, which fetches
 * only what is not kept yet, so each file is fetched once however many runs carry it. How it went is noted in
 * the project (kept files so far, the last failure in words) for the watch's card. A failure here never fails
 * the run: the run is settled before the media are asked for.
 */
import type { PresenceRecord, WatchRecord } from './tables/records';
import { isoMinute } from './state';
import type { WatchProject } from './store';

/** how one keeping of a watch's media ended */
export interface WatchMediaOutcome {
  /** files fetched whole this time */
  kept: number;
  failed: number;
  /** why it failed or stopped, in plain words; null when it did not */
  message: string | null;
}

/** keeps the media of a collection's posts (core/media's keeping job, fitted by the composition); stops on `signal` */
export type KeepWatchMedia = (collection: number, signal: AbortSignal) => Promise<WatchMediaOutcome>;

/** what a watch's card says of its media: files kept for it so far, and the last failure */
export interface WatchMediaNote {
  files: number;
  /** when media were last kept for it */
  at: number;
  failure: string | null;
}

const noteKey = (watch: number) => `watch-media:${watch}`;

export async function readMediaNote(project: WatchProject, watch: number): Promise<WatchMediaNote | null> {
  const raw = await project.notes?.read(noteKey(watch)).catch(() => null);
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<WatchMediaNote>;
    return typeof v.files === 'number' && typeof v.at === 'number'
      ? { files: v.files, at: v.at, failure: typeof v.failure === 'string' ? v.failure : null }
      : null;
  } catch {
    return null;
  }
}

/** the watch's collection: every post it kept, in its presence rows' order (the same one while no run ends) */
export async function watchCollection(
  project: WatchProject,
  w: Pick<WatchRecord, 'id' | 'name'>,
  t: number,
): Promise<{ collection: number; items: number }> {
  const store = project.store;
  async function* ids(): AsyncIterable<string[]> {
    let after: { watch: number; kind: string; id: string } | null = null;
    for (;;) {
      const page = await store.attritionPage({ watch: w.id, after, limit: 1_000 });
      if (page.length === 0) return;
      yield page.filter((p) => p.kind === 'post').map((p) => p.id);
      const last = page[page.length - 1] as PresenceRecord;
      after = { watch: last.watch, kind: last.kind, id: last.id };
    }
  }
  const stats = await store.stats(w.id, t);
  const last = stats.lastRun;
  // what the watch holds changes only with a run: asked again with none since, the same collection opens
  // (a run under way makes a new one each time)
  const collection = await project.keepCollection({
    name: `${w.name} · kept by the watch · ${isoMinute(t)}`,
    manifest: {
      mode: project.kind,
      watch: w.id,
      posts: stats.kept.posts,
      after_run: last?.id ?? null,
      ...(last && last.endedAt === null ? { made_at: new Date(t).toISOString() } : {}),
    },
    ids: ids(),
  });
  return { collection, items: stats.kept.posts };
}

/**
 * After a run: keeps the watch's media when the run found new posts, or, the first time (the option just switched
 * on, or the watch's first run, whose posts are its starting point, not new), when it read any; notes how it
 * went. Never throws; the line it returns is for the runner's log (null: nothing to keep).
 */
export async function keepRunMedia(
  project: WatchProject,
  w: Pick<WatchRecord, 'id' | 'name'>,
  run: { newItems: number; seenItems: number },
  keep: KeepWatchMedia,
  now: () => number,
  signal: AbortSignal,
): Promise<string | null> {
  const before = await readMediaNote(project, w.id);
  if (run.newItems === 0 && (before !== null || run.seenItems === 0)) return null;
  let outcome: WatchMediaOutcome;
  try {
    const { collection } = await watchCollection(project, w, now());
    outcome = await keep(collection, signal);
  } catch (error) {
    outcome = { kept: 0, failed: 0, message: error instanceof Error ? error.message : String(error) };
  }
  const failure =
    outcome.message ??
    (outcome.failed > 0 ? `${outcome.failed} file${outcome.failed === 1 ? ' was' : 's were'} not kept` : null);
  const note: WatchMediaNote = { files: (before?.files ?? 0) + outcome.kept, at: now(), failure };
  await project.notes?.write(noteKey(w.id), JSON.stringify(note)).catch(() => undefined);
  return `media: ${outcome.kept} file${outcome.kept === 1 ? '' : 's'} kept (${note.files} for the watch so far)${failure ? ` — ${failure}` : ''}`;
}
