/**
 * A test file's demo cores: the sandboxes they start and the folders they keep, all closed and removed after
 * the file's tests, and a bridge to call a core as the renderer does (a failed call throws with its message).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { Core, CoreDeps } from '..';
import { createCore } from '..';
import type { Sandbox } from '../../sandbox';
import { call } from './bridge-call';
import { testCoreDeps } from './core-deps';

type BridgeCall = <T = Record<string, unknown>>(channel: string, input: unknown) => Promise<T>;

/** calls a core's handlers by channel, as the preload would; a failed call throws */
const bridgeOf =
  (core: Core): BridgeCall =>
  <T>(channel: string, input: unknown) =>
    call<T>(core, channel, input);

/** Registers the file's clean-up (vitest's afterAll); call it at the top of a test file. */
export function demoCores(prefix: string) {
  const sandboxes: Sandbox[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const s of sandboxes) await s.close();
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });
  return {
    /** every sandbox a core of this file started (closed after the file's tests) */
    sandboxes,
    /** a new folder, removed after the file's tests */
    folder: (name = ''): string => {
      const dir = mkdtempSync(join(tmpdir(), `${prefix}${name ? `-${name}` : ''}-`));
      dirs.push(dir);
      return dir;
    },
    /** a core with the test wiring, its data in `userDataDir`, and a bridge to call it */
    core: (userDataDir: string, over: Partial<CoreDeps> = {}) => {
      const core = createCore(testCoreDeps(userDataDir, sandboxes, over));
      return { core, call: bridgeOf(core) };
    },
  };
}
