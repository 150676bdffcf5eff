/**
 * What every export of a project's items adds and leaves out: the project's codes as extra columns
 * (per field, the resolved value and how it was reached: `code_<field>`, `code_<field>_status`), and the
 * accounts that opted out, whose items are left out. Read once per export from the project; plain data.
 */
import { valueText } from '../../shared/coding/codebook';
import { resolveValues, resolvedKey } from './resolve';
import { currentVersion, type Handle } from './service';
import type { StoreOf } from './store';

export interface ExportPolicy {
  extra: { columns: string[]; values: Map<string, Array<string | null>>; note: string } | null;
  /** opted-out accounts: their posts, reposts and quotes of their posts, and their accounts are left out */
  exclusions: { userIds: string[]; handles: string[]; accounts: number } | null;
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 30) || 'codebook';

export function exportPolicy(deps: { store: StoreOf }) {
  return async (handle: Handle, itemKind: string): Promise<ExportPolicy | null> => {
    const project = await deps.store(handle);
    const optOuts = await project.optOuts();
    const exclusions = optOuts.length
      ? {
          userIds: optOuts.flatMap((o) => (o.userId ? [o.userId] : [])),
          handles: optOuts.flatMap((o) => (o.handle ? [o.handle.toLowerCase()] : [])),
          // an account is one opt-out, whether it is known by its id, its handle or both
          accounts: optOuts.length,
        }
      : null;
    let extra: ExportPolicy['extra'] = null;
    if (itemKind === 'post' || itemKind === 'user' || itemKind === 'listFollower') {
      const kind = itemKind === 'post' ? 'post' : 'user';
      const books = (await project.codebooks()).filter((b) => b.codings > 0);
      const columns: string[] = [];
      const values = new Map<string, Array<string | null>>();
      for (const summary of books) {
        const cb = await project.codebook(summary.id);
        if (!cb) continue;
        const { definition } = currentVersion(cb);
        const codings = (await project.codings(cb.id, null)).filter((c) => c.kind === kind);
        if (codings.length === 0) continue;
        const adjudications = (await project.adjudications(cb.id, null)).filter((a) => a.kind === kind);
        const resolved = resolveValues(codings, adjudications);
        const prefix = books.length > 1 ? `code_${slug(cb.name)}_` : 'code_';
        const start = columns.length;
        for (const f of definition.fields) columns.push(`${prefix}${f.key}`, `${prefix}${f.key}_status`);
        const ids = new Set(codings.map((c) => c.id));
        for (const id of ids) {
          const cells = values.get(id) ?? [];
          definition.fields.forEach((f, i) => {
            const r = resolved.get(resolvedKey(kind, id, f.key));
            // a value this Skein cannot read (a newer Skein's, on a shared project) goes out as written
            cells[start + 2 * i] = r && r.value !== null ? valueText(r.value) : null;
            cells[start + 2 * i + 1] = r ? r.status : null;
          });
          values.set(id, cells);
        }
      }
      for (const cells of values.values()) for (let i = 0; i < columns.length; i++) cells[i] ??= null;
      if (columns.length > 0)
        extra = {
          columns,
          values,
          note: 'per field, the adjudicated value, else the value every coder gave, else the one coder’s; the _status column says which (adjudicated, agreed, single, disagreed: several coders differ and none decided). Every value with its coder is in the coding workbench’s annotation table.',
        };
    }
    return extra || exclusions ? { extra, exclusions } : null;
  };
}
