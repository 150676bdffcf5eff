/** The readers a researcher opens Skein's files with, where `.ci/run` installs them (Debian's packages). */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Debian's Python, where python3-pandas lives (not a pyenv's, which has no pandas) */
export const PYTHON = '/usr/bin/python3';

/** Whether Debian's Python can import pandas; CI always has it, a local machine may not (README, Readers). */
export function hasPandas(): boolean {
  if (!existsSync(PYTHON)) return false;
  try {
    execFileSync(PYTHON, ['-c', 'import pandas'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
