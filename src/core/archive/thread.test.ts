/**
 * A project file Skein will not open is refused the same way whether the archive runs in its worker or on
 * main's thread: a `write-failed` error with the file's problem in plain words and what to do about it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SkeinError } from '../../shared/errors';
import { startArchiveThread, type ArchiveThreadOptions } from './thread';

const dir = mkdtempSync(join(tmpdir(), 'skein-archive-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each<[string, ArchiveThreadOptions, boolean]>([
  [
    'in its worker',
    { entry: new URL('../compose/archive-worker.ts', import.meta.url), execArgv: ['--import', 'tsx'] },
    true,
  ],
  ['on main’s thread', {}, false],
])('the archive %s', (_, options, inWorker) => {
  it('refuses a file that is not a project as write-failed, with what to do', { timeout: 30_000 }, async () => {
    const thread = await startArchiveThread(options);
    expect(thread.inWorker).toBe(inWorker);
    const path = join(dir, `words-${String(inWorker)}.skein`);
    writeFileSync(path, 'not a database, only words. '.repeat(100));
    const error: unknown = await thread
      .call('open', 'current', { path, name: 'Words', kind: 'live' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkeinError);
    expect((error as SkeinError).toData()).toEqual({
      code: 'write-failed',
      message: `The file ${path} is not a Skein project or is damaged (file is not a database). Skein left it untouched.`,
      details: { action: 'Open another project, or create a new one.' },
    });
    // the archive goes on answering
    await thread.call('open', 'current', { path: join(dir, `ok-${String(inWorker)}.skein`), name: 'Ok', kind: 'live' });
    expect((await thread.call('summary', 'current')).name).toBe('Ok');
    await thread.close();
  });
});
