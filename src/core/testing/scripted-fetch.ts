/**
 * A fetch that answers from a script, for tests of the request policy that
 * need exact statuses and headers (the sandbox covers the real thing).
 */
import type { FetchLike } from '../api/transport';

export type Step =
  | { status: number; body?: unknown; headers?: Record<string, string>; text?: string }
  | { error: Error }
  /** never answers until aborted */
  | { hang: true };

export interface ScriptedFetch extends FetchLike {
  calls: Array<{ url: string; headers: Record<string, string> }>;
}

export function scriptedFetch(steps: Step[]): ScriptedFetch {
  const queue = [...steps];
  const calls: ScriptedFetch['calls'] = [];
  const f = (async (url: string, init: RequestInit) => {
    calls.push({ url, headers: { ...(init.headers as Record<string, string>) } });
    const step = queue.shift() ?? queue.at(-1) ?? steps.at(-1);
    if (!step) throw new Error('script exhausted');
    if (queue.length === 0) queue.push(step);
    const signal = init.signal;
    if ('error' in step) throw step.error;
    if ('hang' in step) {
      return new Promise<Response>((_resolve, reject) => {
        if (signal?.aborted) reject(signal.reason as Error);
        signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      });
    }
    const text = step.text ?? (step.body === undefined ? '' : JSON.stringify(step.body));
    return new Response(text, {
      status: step.status,
      headers: { 'content-type': 'application/json', ...step.headers },
    });
  }) as ScriptedFetch;
  f.calls = calls;
  return f;
}
