/**
 * The scroll budgets of one speed, the same for every scrolled view (the thread, the Archive view): CPU per
 * frame beside frame-interval p95/p99, frames over 25 ms, long tasks, blank frames (budget at 2,400 px/s) and
 * the anchor's worst jump.
 */
import { BUDGETS, budget, FRAME_JITTER_MS, info, type Metric } from './budgets';
import type { Distribution } from './stats';
import { round, shareAbove } from './stats';

export function frameMetrics(o: {
  /** `scroll.2400`, `archiveScroll.9000` */
  id: string;
  section: string;
  speed: number;
  cpuPerFrameMs: number;
  intervals: number[];
  distribution: Distribution;
  longTaskMs: number[];
  blankFrames: number;
  worstJumpPx: number;
}): { cpu: Metric; frames: Metric[]; marks: Metric[] } {
  const { id, section, distribution: d } = o;
  const at = `at ${o.speed.toLocaleString('en-US')} px/s`;
  const long = o.longTaskMs;
  return {
    cpu: info(`${id}.cpu`, section, `renderer CPU per frame ${at} (independent of the load)`, o.cpuPerFrameMs, 'ms'),
    frames: [
      budget(
        `${id}.p95`,
        section,
        `frame interval p95 ${at}`,
        d.p95,
        'ms',
        BUDGETS.scrollP95Ms,
        undefined,
        FRAME_JITTER_MS,
      ),
      budget(
        `${id}.p99`,
        section,
        `frame interval p99 ${at}`,
        d.p99,
        'ms',
        BUDGETS.scrollP99Ms,
        undefined,
        FRAME_JITTER_MS,
      ),
      budget(
        `${id}.slow`,
        section,
        `frames over ${BUDGETS.slowFrameMs} ms ${at}`,
        round(shareAbove(o.intervals, BUDGETS.slowFrameMs) * 100, 2),
        '%',
        BUDGETS.slowFrameShare * 100,
      ),
      budget(
        `${id}.longtasks`,
        section,
        `long tasks ${at}`,
        long.length,
        'count',
        BUDGETS.longTasks,
        long.length ? `longest ${Math.round(Math.max(...long))} ms` : undefined,
      ),
    ],
    marks: [
      o.speed === 2400
        ? budget(
            `${id}.blank`,
            section,
            `blank-viewport frames ${at}`,
            o.blankFrames,
            'frames',
            BUDGETS.blankFramesAt2400,
          )
        : info(`${id}.blank`, section, `blank-viewport frames ${at}`, o.blankFrames, 'frames'),
      budget(`${id}.jump`, section, `worst anchor jump per frame ${at}`, o.worstJumpPx, 'px', BUDGETS.anchorJumpPx),
    ],
  };
}
