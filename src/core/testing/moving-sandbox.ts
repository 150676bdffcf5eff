/**
 * A sandbox whose world moves on a clock the test can push forward, and Skeins pointed at it: what the
 * watch tests share. `now` runs with the wall clock from `base`, plus whatever `advance` has added, so the
 * sandbox's posts and Skein's schedules agree on the hour. Registers its own beforeAll/afterAll.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox';
import { createCore, type Core, type CoreDeps } from '../index';
import { testCoreDeps } from './core-deps';

export interface MovingSandbox {
  now: () => number;
  /** moves the shared clock on by `ms` */
  advance: (ms: number) => void;
  /** sets how far the clock stands from `base` (plus the wall time since the start) */
  setOffset: (ms: number) => void;
  sandbox: () => Sandbox;
  /** the sandbox's control plane: GET or POST a `/__sandbox/…` path, its JSON answer (undefined for 204) */
  control: <T>(path: string, init?: RequestInit) => Promise<T>;
  /** a Skein on the sandbox with its own project file and data folder; watches not started */
  core: (over?: Partial<CoreDeps>) => { core: Core; project: string; dir: string };
}

export function movingSandbox(options: {
  base: number;
  seed: number;
  activity?: number;
  prefix: string;
}): MovingSandbox {
  const sandboxes: Sandbox[] = [];
  const dirs: string[] = [];
  const t0 = Date.now();
  let offset = 0;
  const now = () => options.base + offset + (Date.now() - t0);
  let sandbox: Sandbox | undefined;
  const started = (): Sandbox => {
    if (!sandbox) throw new Error('the sandbox starts in beforeAll');
    return sandbox;
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, now, seed: options.seed, activity: options.activity ?? 4 });
    sandboxes.push(sandbox);
  });
  afterAll(async () => {
    for (const s of sandboxes) await s.close();
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });

  return {
    now,
    advance: (ms) => {
      offset += ms;
    },
    setOffset: (ms) => {
      offset = ms;
    },
    sandbox: started,
    control: async <T>(path: string, init?: RequestInit): Promise<T> => {
      const res = await fetch(`${started().baseUrl}${path}`, init);
      return (res.status === 204 ? undefined : await res.json()) as T;
    },
    core: (over = {}) => {
      const dir = mkdtempSync(join(tmpdir(), options.prefix));
      dirs.push(dir);
      const project = join(dir, 'p.skein');
      const core = createCore(
        testCoreDeps(join(dir, 'data'), sandboxes, {
          apiBaseUrl: started().baseUrl,
          apiKey: 'k',
          requestsPerSecond: 1_000,
          now,
          projectPath: project,
          workers: undefined,
          confirm: async () => true,
          watches: { start: false },
          ...over,
        }),
      );
      return { core, project, dir };
    },
  };
}
