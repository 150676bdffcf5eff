/**
 * A small persisted JSON object over `conf` (atomic writes). If the folder
 * cannot be used (read-only, no permission), the values live in memory for
 * the session instead of taking the app down; `problem` says why.
 */
import Conf from 'conf';

export interface JsonStore<T extends Record<string, unknown>> {
  read(): Partial<T>;
  write(value: Partial<T>): void;
  readonly path: string | null;
  readonly problem: string | null;
}

export function openJsonStore<T extends Record<string, unknown>>(dir: string | undefined, name: string): JsonStore<T> {
  let memory: Partial<T> = {};
  let conf: Conf<Partial<T>> | null = null;
  let problem: string | null = dir ? null : 'kept in memory by design';
  if (dir) {
    try {
      conf = new Conf<Partial<T>>({ cwd: dir, configName: name, clearInvalidConfig: true, projectVersion: '1' });
    } catch (e) {
      problem = `cannot use ${dir}: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  return {
    get path() {
      return conf?.path ?? null;
    },
    get problem() {
      return problem;
    },
    read() {
      if (!conf) return { ...memory };
      try {
        return { ...conf.store };
      } catch (e) {
        problem = e instanceof Error ? e.message : String(e);
        return { ...memory };
      }
    },
    write(value) {
      memory = { ...value };
      if (conf) conf.store = value;
    },
  };
}
