/** A toy api for the workers' tests: served in a worker (toy-worker.ts), over a port, or on this thread. */
import { SkeinError } from '../../../shared/errors';

export interface ToyApi {
  add: (a: number, b: number) => number;
  /** answers later (an async implementation) */
  echo: (text: string) => Promise<string>;
  /** throws a SkeinError with details */
  refuse: (why: string) => never;
  /** throws a plain error */
  fail: () => never;
  /** one way: remembered, then read back with `notes` */
  note: (text: string) => void;
  notes: () => string[];
  /** never answers (the worker stays free) */
  wait: () => Promise<never>;
  /** an uncaught error a moment later: the worker crashes */
  crash: () => void;
  /** the worker ends itself with this exit code */
  exit: (code: number) => void;
  /** never answers: the worker is stuck */
  spin: () => void;
}

export function toyApi(): ToyApi {
  const notes: string[] = [];
  return {
    add: (a, b) => a + b,
    echo: async (text) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return text;
    },
    refuse: (why) => {
      throw new SkeinError('write-failed', `refused: ${why}`, { action: 'Open another project.', path: 'a.b' });
    },
    fail: () => {
      throw new TypeError('plain failure');
    },
    note: (text) => {
      if (text === '') throw new Error('an empty note');
      notes.push(text);
    },
    notes: () => notes,
    wait: () => new Promise<never>(() => undefined),
    crash: () => {
      setTimeout(() => {
        throw new Error('the toy broke');
      }, 1);
    },
    exit: (code) => process.exit(code),
    spin: () => {
      for (;;);
    },
  };
}
