/**
 * What a project asks of every export of its items, declared here so export names no coding code, and filled by
 * the coding area (core/index.ts wires it): extra columns (its codes), and accounts that opted out, whose items
 * are left out — an item they wrote, the account itself, and a repost or quote of their post. Plain data, so a
 * re-export's own worker gets it too.
 */
import type { ExtraColumns, Format, ItemStream, StreamItem, WriteJob } from '../formats';
import { rawText, writeColumnsSidecar } from '../formats';
import type { ExportManifest } from '../formats';

export interface ItemPolicy {
  extra: ExtraColumns | null;
  exclusions: { userIds: string[]; handles: string[]; accounts: number } | null;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);
const text = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);

/** Whether an opted-out account is this item's author, the item itself, or the author of what it reposts or quotes. */
function excluded(raw: unknown, ids: ReadonlySet<string>, handles: ReadonlySet<string>): boolean {
  const hit = (a: Obj | null) => {
    if (!a) return false;
    const id = text(a.id) ?? text(a.rest_id) ?? text(a.id_str);
    const handle = text(a.userName) ?? text(a.screen_name);
    return (id !== null && ids.has(id)) || (handle !== null && handles.has(handle.toLowerCase()));
  };
  const item = obj(raw);
  if (!item) return false;
  if (!('author' in item)) return hit(item);
  return (
    hit(obj(item.author)) || hit(obj(obj(item.retweeted_tweet)?.author)) || hit(obj(obj(item.quoted_tweet)?.author))
  );
}

/** The stream without opted-out accounts' items (an item is parsed only when its text names one of them). */
function withoutExcluded(
  stream: ItemStream,
  exclusions: ItemPolicy['exclusions'],
): ItemStream & { left: () => number } {
  if (!exclusions || (exclusions.userIds.length === 0 && exclusions.handles.length === 0))
    return { items: () => stream.items(), left: () => 0 };
  const ids = new Set(exclusions.userIds);
  const handles = new Set(exclusions.handles.map((h) => h.toLowerCase()));
  const needles = [...ids, ...handles];
  let left = 0;
  return {
    left: () => left,
    async *items(): AsyncGenerator<StreamItem> {
      left = 0;
      for await (const item of stream.items()) {
        const raw = rawText(item);
        const lower = raw.toLowerCase();
        if (needles.some((n) => lower.includes(n)) && excluded(JSON.parse(raw), ids, handles)) {
          left++;
          continue;
        }
        yield item;
      }
    },
  };
}

/** The manifest's sections of a policy: which columns, where they are, and how many accounts are left out. */
function policySections(policy: ItemPolicy | null, format: Format, target: string): Partial<ExportManifest> {
  if (!policy) return {};
  const where =
    format.columns === 'rows'
      ? 'after each item’s own columns (CSV, Parquet), or as a `codes` object beside each item (JSON Lines)'
      : format.columns === 'top-level'
        ? 'the top-level `codes` object: columns, and a map by item id'
        : `a table beside the file: ${target.split(/[\\/]/).pop() ?? ''}.codes.csv (item_id and the code columns)`;
  return {
    ...(policy.extra ? { codes: { columns: policy.extra.columns, where, note: policy.extra.note } } : {}),
    ...(policy.exclusions
      ? {
          left_out: {
            accounts: policy.exclusions.accounts,
            note: 'items of accounts marked as opted out in the project (their posts, the account, reposts and quotes of their posts) are not in this export',
          },
        }
      : {}),
  };
}

/**
 * Writes an export's items in its format as the project asks: the manifest says what the policy did, opted-out
 * accounts' items are left out, and the codes are extra columns in the rows, or (a format without rows per
 * item) a sidecar table. The stream it wrote says how many items it left out the last time it was read.
 */
export async function writeWithPolicy(
  format: Format,
  job: Omit<WriteJob, 'extra'>,
  policy: ItemPolicy | null,
): Promise<{ left: () => number }> {
  Object.assign(job.manifest, policySections(policy, format, job.target));
  const items = withoutExcluded(job.items, policy?.exclusions ?? null);
  await format.write({ ...job, items, ...(policy?.extra ? { extra: policy.extra } : {}) });
  if (policy?.extra && format.columns === undefined)
    await writeColumnsSidecar(job.target, items, policy.extra, job.signal);
  return items;
}
