/**
 * The readers researchers open Skein's files with, for tests: Python with the modules a test needs (pandas,
 * networkx, igraph) and R with its packages (data.table, readr, igraph); xml-schema.ts has the XML Schema
 * validator (an npm package, nothing to install). A test that needs a system reader is declared
 * with `readerIt`: where the reader is missing it is skipped with one line saying why, except in CI
 * (`process.env.CI`), where it fails, because `.ci/run` installs every one of them.
 */
import { execFileSync } from 'node:child_process';
import { it } from 'vitest';

/** Pythons to try, in order: the one on PATH, then Debian's (where apt's python3-* modules live). */
const PYTHONS = ['python3', '/usr/bin/python3'];
const found = new Map<string, string | null>();

function answers(exe: string, args: string[]): boolean {
  try {
    execFileSync(exe, args, { stdio: 'ignore', timeout: 60_000 });
    return true;
  } catch {
    return false;
  }
}

/** A Python that imports every one of `modules`, or null. */
export function pythonWith(...modules: string[]): string | null {
  const key = `py:${modules.join(',')}`;
  if (!found.has(key)) {
    const code = modules.map((m) => `import ${m}`).join('; ') || 'pass';
    found.set(key, PYTHONS.find((exe) => answers(exe, ['-c', code])) ?? null);
  }
  return found.get(key) ?? null;
}

/** `Rscript` when it loads every one of `packages`, or null. */
export function rscriptWith(...packages: string[]): string | null {
  const key = `r:${packages.join(',')}`;
  if (!found.has(key)) {
    const code = packages.map((p) => `suppressPackageStartupMessages(library(${p}))`).join('; ') || 'invisible(0)';
    found.set(key, answers('Rscript', ['-e', code]) ? 'Rscript' : null);
  }
  return found.get(key) ?? null;
}

/** Runs a script with its arguments; its standard output, parsed as JSON. */
export function runJson<T = unknown>(exe: string, script: string, args: readonly string[] = []): T {
  const flag = exe === 'Rscript' ? '-e' : '-c';
  const out = execFileSync(exe, [flag, script, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  return JSON.parse(out) as T;
}

/**
 * `it`, given the reader's executable (or null when missing): skipped locally with a one-line reason, failed in
 * CI, where `.ci/run` installs it.
 */
export function readerIt(
  exe: string | null,
  what: string,
): (name: string, test: (exe: string) => Promise<void> | void, timeout?: number) => void {
  return (name, test, timeout = 60_000) => {
    if (exe !== null) {
      it(name, () => test(exe), timeout);
    } else if (process.env.CI) {
      it(name, () => {
        throw new Error(`${what} is missing: .ci/run installs it, so in CI this test must run`);
      });
    } else {
      console.warn(`skipped "${name}": ${what} is not installed here (.ci/run installs it)`);
      it.skip(name, () => undefined);
    }
  };
}
