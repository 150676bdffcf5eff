/**
 * A small persisted JSON object over `conf` (atomic writes). Reading never
 * creates anything on disk (the folder appears with the first write). If the
 * folder cannot be used (read-only, no permission), values live in memory
 * for the session instead of taking the app down; `problem` says why.
 * A store that names the keys it `owns` writes only those: the file's other keys (a newer Skein's, after going back
 * to this one) are written back as they were.
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

export function openJsonStore<T extends Record<string, unknown>>(
  dir: string | undefined,
  name: string,
  options: { owns?: ReadonlyArray<keyof T & string> } = {},
): JsonStore<T> {
  let memory: Partial<T> = {};
  /** whether `memory` holds what the file holds (after this store's first write) */
  let written = false;
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
      const c = open();
      const owns = options.owns;
      let others: Record<string, unknown> = {};
      if (owns) {
        // the file is read for the keys it does not own once, at the first write: after it, `memory` holds them
        // (Skein is the file's only writer), so a store written on every call reads nothing more
        let before: Record<string, unknown> = memory;
        try {
          if (c && !written) before = c.store;
        } catch {
          // a file that cannot be read now keeps nothing of its own
        }
        others = Object.fromEntries(Object.entries(before).filter(([k]) => !owns.includes(k as keyof T & string)));
      }
      // the other keys are not T's: kept as they were, beside what this store writes
      memory = { ...others, ...value };
      written = true;
      if (c) c.store = memory;
    },
  };
}
