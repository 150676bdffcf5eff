/**
 * Where a project's own files live beside it: a project file's in `<file>-<what>` next to it; a team project's,
 * which has no file, in Skein's data folder under a name made from its location (never its password).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';

const TEAM_PROJECT = /^postgres(ql)?:\/\//i;

export function projectFolder(location: string, userDataDir: string, what: 'media' | 'pages' | 'dataset'): string {
  if (!TEAM_PROJECT.test(location)) return `${location}-${what}`;
  const id = createHash('sha256').update(location).digest('hex').slice(0, 16);
  return join(userDataDir, `team-${what}`, id);
}
