/**
 * The pages of a list whose entries have no known shape (list followers,
 * community members/moderators should they ever answer), summarized the way
 * the shared infinite list expects: each entry with a stable key and how to
 * show it; people seen on an earlier page are not shown twice.
 */
import type { ApiCallOutput } from '../../shared/ipc/api';
import type { PagesSummary } from './pages';
import { entryView, type EntryView } from './entry-shape';

export interface EntryRow {
  key: string;
  view: EntryView;
}

type PageLike = Pick<ApiCallOutput, 'paging' | 'report' | 'meta'> & { items: unknown[] };

export function summarizeEntryPages(pages: readonly PageLike[] | undefined): PagesSummary<EntryRow> {
  const items: EntryRow[] = [];
  const seen = new Set<string>();
  let duplicatesRemoved = 0;
  let dropped = 0;
  let stop: string | null = null;
  (pages ?? []).forEach((page, p) => {
    duplicatesRemoved += page.report.duplicatesRemoved;
    dropped += page.report.dropped.length;
    page.items.forEach((item, i) => {
      const view = entryView(item);
      const id = view.kind === 'fields' ? null : view.user.id;
      if (id !== null && seen.has(id)) {
        duplicatesRemoved++;
        return;
      }
      if (id !== null) seen.add(id);
      items.push({ key: id !== null ? `u${id}` : `p${p}-${i}`, view });
    });
    if (page.paging?.stop) stop = page.paging.stop.message;
  });
  const count = pages?.length ?? 0;
  return {
    items,
    duplicatesRemoved,
    dropped,
    stop,
    fromCache: count > 0 && (pages ?? []).every((pg) => pg.meta.fromCache),
    pages: count,
  };
}
