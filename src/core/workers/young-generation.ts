/**
 * Holds the process's young generations to a size, the part of V8's heap sizing that an export or a hydration on
 * main's thread grew by luck rather than by design. V8 doubles a heap's young generation each time what survived
 * its scavenges since it last grew exceeds its size. What survives an export's scavenge is only the page in hand,
 * but over a long job that adds up to every doubling, whatever the job keeps: main's grew from 16 to 64–128 MB and
 * stayed there (a JSON Lines export of 100,000 posts peaked at 157–160 MB of RSS, 112–113 MB held at 16 MB, in the
 * same time; BENCHMARKS.md).
 *
 * The flags that size a young generation (`--max-semi-space-size`) are read when a heap is made, so main's own
 * cannot be set from inside the process; the factor it grows by is read each time it would grow. So: while main's
 * young generation is at `mainMb` or more it grows no more (the factor 1), and below that (V8 shrinks it in a quiet
 * spell) it grows as usual. A worker started afterwards begins at `workersMb` (or at its `resourceLimits`' young
 * generation, if smaller) rather than at 1 MB, so it does not need to grow: the factor is the process's, and a
 * worker held at 1 MB promotes its short-lived rows to its old generation (a CSV export's file worker: +0.6 s of
 * CPU per 100,000 posts).
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

export interface YoungGeneration {
  /** main's young generation (V8's `new_space`) grows no further once it is this big (MB) */
  mainMb: number;
  /** a worker's young generation starts at this size (MB of a semi-space), at most its own limit */
  workersMb: number;
}

/**
 * What the app runs with. Measured (the export and hydration benches, alternated with V8's own sizing): the same
 * time; peak RSS 15–50 MB lower at 100,000 posts, 100–120 MB at a million, a million ids hydrated in 241 MB (342).
 */
const APP_YOUNG_GENERATION: YoungGeneration = { mainMb: 16, workersMb: 8 };

const MB = 1024 * 1024;

/** main's young generation as V8 has it now (bytes) */
export function youngGenerationSize(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/**
 * How often a held young generation is looked at again (ms): held, it can only shrink, which V8 does in a quiet
 * spell, so a look now and then is enough. An observer of every collection made a performance entry at each
 * one, delivered a turn later: they outlived the scavenge after them and were promoted (an export of 200,000 posts
 * promoted 14.8 MB to main's old generation with it, 13.2 without), which V8 grows to several times what lives there.
 */
const RECHECK_MS = 2_000;

/**
 * Holds this process's young generations (see above) until the returned function is called; call it on the main
 * thread before the workers it should hold start. Until main's is held it is checked after every collection (when V8
 * resizes it); once held, every `RECHECK_MS`, and after every collection again if V8 has shrunk it.
 */
export function holdYoungGeneration(limits: YoungGeneration = APP_YOUNG_GENERATION): () => void {
  setFlagsFromString(`--min-semi-space-size=${limits.workersMb}`);
  let held = false;
  let timer: ReturnType<typeof setInterval> | null = null;
  let observing = false;
  const check = () => {
    const hold = youngGenerationSize() >= limits.mainMb * MB;
    if (hold !== held) {
      held = hold;
      setFlagsFromString(`--semi-space-growth-factor=${hold ? 1 : 2}`);
    }
    if (held && !timer) {
      if (observing) observer.disconnect();
      observing = false;
      timer = setInterval(check, RECHECK_MS);
      timer.unref();
    } else if (!held && !observing) {
      if (timer) clearInterval(timer);
      timer = null;
      observer.observe({ entryTypes: ['gc'] });
      observing = true;
    }
  };
  const observer = new PerformanceObserver(check);
  check();
  return () => {
    if (observing) observer.disconnect();
    observing = false;
    if (timer) clearInterval(timer);
    timer = null;
    setFlagsFromString('--min-semi-space-size=0');
    if (held) setFlagsFromString('--semi-space-growth-factor=2');
    held = false;
  };
}
