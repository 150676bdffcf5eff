/** Bench results go to bench/results/<name>.json (git-ignored). */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO } from './runtime';

export const RESULTS = path.join(REPO, 'bench', 'results');

export function writeResults(name: string, data: Record<string, unknown>): string {
  mkdirSync(RESULTS, { recursive: true });
  const file = path.join(RESULTS, `${name}.json`);
  const machine = {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? 'unknown',
  };
  writeFileSync(file, `${JSON.stringify({ name, at: new Date().toISOString(), machine, ...data }, null, 2)}\n`);
  return file;
}
