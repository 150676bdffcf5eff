/**
 * The sandbox clock: the injected `now` plus an offset that the control plane
 * can set or advance (`POST /__sandbox/clock`), so a test can move a running
 * space forward between two polls without waiting.
 */
export class SandboxClock {
  private offsetMs = 0;

  constructor(private readonly base: () => number) {}

  now(): number {
    return this.base() + this.offsetMs;
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  /** make `now()` answer `epochMs` at this instant */
  set(epochMs: number): void {
    this.offsetMs = epochMs - this.base();
  }

  reset(): void {
    this.offsetMs = 0;
  }

  get offset(): number {
    return this.offsetMs;
  }
}
