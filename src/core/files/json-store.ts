/**
 * A small persisted JSON object over `conf` (atomic writes). Reading never
 * creates anything on disk (the folder appears with the first write). If the
 * folder cannot be used (read-only, no permission), values live in memory
 * for the session instead of taking the app down; `problem` says why.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Conf from 'conf';

export interface JsonStore<T extends Record<string, unknown>> {
  read: () => Partial<T>;
  write: (value: Partial<T>) => void;
  /** the file, once it exists or is about to */
  readonly path: string | null;
  readonly problem: string | null;
}

export function openJsonStore<T extends Record<string, unknown>>(dir: string | undefined, name: string): JsonStore<T> {
  let memory: Partial<T> = {};
  let conf: Conf<Partial<T>> | null = null;
  let problem: string | null = dir ? null : 'kept in memory by design';
  const file = dir ? join(dir, `${name}.json`) : null;

  const open = (): Conf<Partial<T>> | null => {
    if (conf || !dir || problem) return conf;
    try {
      conf = new Conf<Partial<T>>({ cwd: dir, configName: name, clearInvalidConfig: true, projectVersion: '1' });
    } catch (e) {
      problem = `cannot use ${dir}: ${e instanceof Error ? e.message : String(e)}`;
    }
    return conf;
  };

  return {
    get path() {
      return file;
    },
    get problem() {
      return problem;
    },
    read() {
      const c = conf ?? (file && existsSync(file) ? open() : null);
      if (!c) return { ...memory };
      try {
        return { ...c.store };
      } catch (e) {
        problem = e instanceof Error ? e.message : String(e);
        return { ...memory };
      }
    },
    write(value) {
      memory = { ...value };
      const c = open();
      if (c) c.store = value;
    },
  };
}
