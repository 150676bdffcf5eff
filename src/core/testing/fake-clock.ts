/**
 * A manual clock for tests. Time moves only when the test says so
 * (`advance`), or, with `autoAdvance`, when code *waits* (`sleep`): the wait
 * ends at once and the clock jumps to its end, so a sequential walk runs
 * instantly while every wait is still measured in virtual time. Guards
 * (`setTimer`: timeouts, deadlines) never fire by themselves; they fire when
 * time passes them, through `advance` or an auto-advanced wait.
 */
import { sleepOnTimer } from '../clock';
import { type Clock } from '../ports';

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
}

export class FakeClock implements Clock {
  private t: number;
  private seq = 0;
  private timers: Timer[] = [];
  private readonly auto: boolean;
  /** every wait asked for through sleep(), in ms, in order */
  readonly sleeps: number[] = [];

  constructor(start = Date.UTC(2026, 0, 15, 12, 0, 0), opts: { autoAdvance?: boolean } = {}) {
    this.t = start;
    this.auto = opts.autoAdvance ?? false;
  }

  now(): number {
    return this.t;
  }

  setTimer(ms: number, fn: () => void): () => void {
    const timer: Timer = { at: this.t + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((x) => x !== timer);
    };
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    if (!this.auto) return sleepOnTimer(this, ms, signal);
    if (signal?.aborted) throw signal.reason as Error;
    this.moveTo(Math.max(this.t, this.t + ms));
    await Promise.resolve();
  }

  /** timers waiting to fire */
  get pending(): number {
    return this.timers.length;
  }

  /** Move time forward by `ms`, firing due timers in order (promise work runs between them). */
  async advance(ms: number): Promise<void> {
    const target = this.t + ms;
    for (;;) {
      await flush();
      const next = this.earliest();
      if (!next || next.at > target) break;
      this.fire(next);
    }
    this.t = target;
    await flush();
  }

  private moveTo(target: number): void {
    for (;;) {
      const next = this.earliest();
      if (!next || next.at > target) break;
      this.fire(next);
    }
    this.t = target;
  }

  private earliest(): Timer | undefined {
    let best: Timer | undefined;
    for (const x of this.timers) if (!best || x.at < best.at || (x.at === best.at && x.seq < best.seq)) best = x;
    return best;
  }

  private fire(timer: Timer): void {
    this.timers = this.timers.filter((x) => x !== timer);
    this.t = Math.max(this.t, timer.at);
    timer.fn();
  }
}

async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
