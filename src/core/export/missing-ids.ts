/**
 * What a batch lookup asked for and did not get, with the reason as far as Skein knows it. The service answers a
 * batch with the items it has and says nothing of the others, so most reasons are the honest "not returned";
 * an item that came back unreadable, or a batch that failed after its retries, says so.
 *
 * A hydration's missing ids are written to a file in the job's folder as each batch is recorded (`MissingLog`),
 * never held: the file is rebuilt from the journal whenever the job is opened again, so it always matches it.
 */
import { appendFileSync, createReadStream, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { looksRounded, MAYBE_ROUNDED, NOT_RETURNED } from '../../shared/ids/id-token';
import type { MissingId } from '../../shared/ipc/ids';
import type { MissingList } from '../ids';
import type { FailedFetch, PageRecord } from '../walk';
import type { ViewPlan } from './views';

export { NOT_RETURNED };

/** The missing ids of one answered page, with why. */
function pageMissing(page: Pick<PageRecord, 'notFound' | 'dropped'>): MissingId[] {
  const reasons = new Map<string, string>();
  // an id a spreadsheet may have rounded is not counted as a deleted post
  for (const id of page.notFound) reasons.set(id, looksRounded(id) ? MAYBE_ROUNDED : NOT_RETURNED);
  // an unreadable item is also "not found" among the readable ones: say what really happened
  for (const d of page.dropped) {
    if (d.id && reasons.has(d.id)) reasons.set(d.id, `returned, but Skein could not read it (${d.message})`);
  }
  return [...reasons].map(([id, reason]) => ({ id, reason }));
}

/** Batches whose fetch failed and that no page answered later: their ids were never asked again. */
function unansweredFailures(pages: Iterable<Pick<PageRecord, 'request'>>, failures: readonly FailedFetch[]) {
  const answered = new Set<number>();
  for (const page of pages) answered.add(page.request);
  const failed = new Map<number, FailedFetch>();
  for (const f of failures) if (!answered.has(f.request)) failed.set(f.request, f);
  return failed;
}

const FLUSH_CHARS = 1 << 16;

/** A hydration's missing ids as JSON lines in a file, appended page by page. */
export class MissingLog {
  private pending = '';
  private written = 0;
  private rounded = 0;

  /** Starts the file afresh (the journal's replay adds every page again). */
  constructor(readonly path: string) {
    writeFileSync(path, '');
  }

  /** ids written so far */
  get count(): number {
    return this.written;
  }

  add(page: Pick<PageRecord, 'notFound' | 'dropped'>): void {
    for (const m of pageMissing(page)) {
      this.pending += `${JSON.stringify(m)}\n`;
      this.written++;
      if (m.reason === MAYBE_ROUNDED) this.rounded++;
    }
    if (this.pending.length >= FLUSH_CHARS) this.flush();
  }

  flush(): void {
    if (this.pending === '') return;
    appendFileSync(this.path, this.pending);
    this.pending = '';
  }

  /**
   * Every missing id: the pages' (from the file), then the ids of batches that failed and were not asked
   * again (read from the list a batch at a time), with the total first so a reader can say how many.
   */
  async finish(
    plan: ViewPlan,
    pages: Iterable<Pick<PageRecord, 'request'>>,
    failures: readonly FailedFetch[],
  ): Promise<MissingList> {
    this.flush();
    const failed = unansweredFailures(pages, failures);
    let count = this.written;
    for (const request of failed.keys()) count += plan.askedCount(request) ?? 0;
    const path = this.path;
    return {
      count,
      possiblyRounded: this.rounded,
      async *ids() {
        const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
        for await (const line of lines) if (line) yield JSON.parse(line) as MissingId;
        for (const [request, f] of failed) {
          for (const id of (await plan.request(request)).idsAsked ?? []) {
            yield { id, reason: `not asked again: its batch failed (${f.message})` };
          }
        }
      },
    };
  }
}
