/**
 * One way to run work in a worker: typed calls both ends agree on, errors that keep their SkeinError
 * code across the boundary (through a worker and through a port), a crash that rejects what waited,
 * and a stop that ends a stuck worker.
 */
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { SkeinError } from '../../shared/errors';
import { connectPort, inProcess, startWorker, type Client, type RunningWorker, type StartOptions } from '.';
import { toyApi, type ToyApi } from './testing/toy';

const entry = new URL('./testing/toy-worker.ts', import.meta.url);
const execArgv = ['--import', 'tsx'];
const running: Array<RunningWorker<ToyApi, { greeting: string }>> = [];
afterEach(async () => {
  for (const worker of running.splice(0)) await worker.stop();
});

async function start(over: Partial<StartOptions> = {}) {
  const worker = await startWorker<ToyApi, { greeting: string }>({ entry, execArgv, name: 'the toy', ...over });
  running.push(worker);
  return worker;
}

/** what a SkeinError thrown by `refuse` arrives as */
async function refusal(client: Client<ToyApi>): Promise<SkeinError> {
  const error: unknown = await client.call('refuse', 'full').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SkeinError);
  return error as SkeinError;
}

describe('a worker', () => {
  it('answers typed calls, plain and async, and posts in order; says what it was started with', async () => {
    const worker = await start({ workerData: { greeting: 'hi' } });
    expect(worker.ready).toEqual({ greeting: 'hi' });
    expect(await worker.call('add', 2, 3)).toBe(5);
    expectTypeOf(worker.call('add', 2, 3)).toEqualTypeOf<Promise<number>>();
    expectTypeOf(worker.call('echo', 'x')).toEqualTypeOf<Promise<string>>();
    expect(await worker.call('echo', 'heron')).toBe('heron');
    worker.post('note', 'one');
    worker.post('note', 'two');
    expect(await worker.call('notes')).toEqual(['one', 'two']);
    // @ts-expect-error: a wrong argument does not compile
    await expect(worker.call('add', 2, 'x')).resolves.toBe('2x');
    // @ts-expect-error: nor a name the interface does not have
    await expect(worker.call('toString')).rejects.toThrow('there is no method toString');
  });

  it("keeps a SkeinError's code, message and details; any other error arrives as an Error with its message", async () => {
    const worker = await start();
    const error = await refusal(worker);
    expect(error.toData()).toEqual({
      code: 'write-failed',
      message: 'refused: full',
      details: { action: 'Open another project.', path: 'a.b' },
    });
    const plain: unknown = await worker.call('fail').catch((e: unknown) => e);
    expect(plain).toBeInstanceOf(Error);
    expect(plain).not.toBeInstanceOf(SkeinError);
    expect((plain as Error).message).toBe('plain failure');
  });

  it('tells onError about a post that failed, since nobody waits for it', async () => {
    const onError = vi.fn();
    const worker = await start({ onError });
    worker.post('note', '');
    await expect.poll(() => onError.mock.calls.length).toBe(1);
    expect((onError.mock.calls[0]?.[0] as Error).message).toBe('an empty note');
  });

  it('rejects the start when its setup fails, with the code kept', async () => {
    const error: unknown = await start({ workerData: { refuse: true } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkeinError);
    expect((error as SkeinError).toData()).toEqual({
      code: 'not-available',
      message: 'the toy will not start',
      details: { action: 'Nothing to do.' },
    });
  });

  it('rejects the calls waiting when it crashes, and every later call; onError is told', async () => {
    const onError = vi.fn();
    const worker = await start({ onError });
    const waiting = worker.call('wait');
    worker.post('crash');
    await expect(waiting).rejects.toThrow('the toy stopped');
    expect((onError.mock.calls[0]?.[0] as Error).message).toBe('the toy broke');
    await expect(worker.call('add', 1, 1)).rejects.toThrow('the toy stopped');

    const other = await start({ onError });
    const asleep = other.call('wait');
    other.post('exit', 3);
    await expect(asleep).rejects.toThrow('the toy stopped (exit code 3)');
    expect((onError.mock.calls[1]?.[0] as Error).message).toBe('the toy stopped (exit code 3)');
  });

  it('stop ends a stuck worker after its timeout, and what waited is rejected', { timeout: 20_000 }, async () => {
    const worker = await start({ stopTimeoutMs: 300 });
    const stuck = worker.call('spin');
    const before = performance.now();
    await worker.stop();
    expect(performance.now() - before).toBeLessThan(4_000);
    await expect(stuck).rejects.toThrow('the toy was stopped');
    await worker.stop(); // again: already ended
  });

  it("serves another thread over a port: the attached api, codes kept, and the port's closing released", async () => {
    const worker = await start();
    const other = connectPort<ToyApi>(worker.port());
    expect(await other.call('add', 2, 3)).toBe(1005);
    expect((await refusal(other)).toData()).toMatchObject({ code: 'write-failed', details: { path: 'a.b' } });
    await expect(other.call('fail')).rejects.toThrow('plain failure');
    await other.close();
    await expect.poll(() => worker.call('notes')).toEqual(['port closed']);
    // main's own connection is untouched
    expect(await worker.call('add', 2, 3)).toBe(5);
  });
});

describe('the same api on this thread', () => {
  it('answers the same calls, with the implementation’s own errors', async () => {
    const onError = vi.fn();
    const here = inProcess(toyApi(), onError);
    expect(await here.call('add', 2, 3)).toBe(5);
    expect(await here.call('echo', 'heron')).toBe('heron');
    expect((await refusal(here)).code).toBe('write-failed');
    await expect(here.call('fail')).rejects.toThrow(TypeError);
    here.post('note', 'one');
    here.post('note', '');
    expect(await here.call('notes')).toEqual(['one']);
    expect((onError.mock.calls[0]?.[0] as Error).message).toBe('an empty note');
  });
});
