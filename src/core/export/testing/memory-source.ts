/**
 * A PageSource over pages held in memory, for unit tests: page i answers the
 * cursor `c<i>` (the first page: no cursor). A test can make a page fail once
 * or hold it (like a request waiting for its slot) until it is cancelled or
 * aborted, to stop a run at a known place.
 */
import { SkeinError } from '../../../shared/errors';
import type { PageRequest, PageSource, SourcePage } from '../../walk';

export interface MemoryPage {
  items: unknown[];
  /** override the next cursor (default: `c<i+1>`, none after the last page) */
  next?: string | null;
  hasNext?: boolean;
}

export interface MemorySourceOptions {
  /** page index → fail once with this error */
  failOnce?: Map<number, Error>;
  /** page index whose request waits until it is aborted */
  hold?: number;
  credits?: number;
}

export interface MemorySource extends PageSource {
  readonly requests: PageRequest[];
  /** resolves when the page at `hold` has been asked for */
  readonly held: Promise<void>;
}

export function memorySource(pages: readonly MemoryPage[], options: MemorySourceOptions = {}): MemorySource {
  const requests: PageRequest[] = [];
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const failOnce = new Map(options.failOnce);
  return {
    requests,
    held,
    async fetchPage(req): Promise<SourcePage> {
      requests.push(req);
      const index = req.cursor === null ? 0 : Number(req.cursor.slice(1));
      const page = pages[index];
      if (!page) throw new SkeinError('validation', `no page for cursor ${req.cursor}`);
      const failure = failOnce.get(index);
      if (failure) {
        failOnce.delete(index);
        throw failure;
      }
      if (options.hold === index) {
        release();
        // held like a request waiting for its slot: a cancel (or a hard stop) ends it
        const signal = req.cancelWaits ? AbortSignal.any([req.signal, req.cancelWaits]) : req.signal;
        await new Promise<never>((_, reject) => {
          if (signal.aborted) reject(signal.reason as Error);
          signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        });
      }
      const isLast = index === pages.length - 1;
      const next = page.next !== undefined ? page.next : isLast ? null : `c${index + 1}`;
      return {
        rawItems: page.items,
        dropped: [],
        duplicatesRemoved: 0,
        received: page.items.length,
        notFound: [],
        paging: { hasNextPage: page.hasNext ?? !isLast, nextCursor: next, stop: null },
        fetchedAt: 1_700_000_000_000 + index,
        httpStatus: 200,
        credits: options.credits ?? 15 * page.items.length,
        fromCache: false,
        attempts: 1,
      };
    },
  };
}

/** A small post, enough for ids, threads and CSV. */
export function post(
  id: string,
  inReplyToId: string | null = null,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type: 'tweet',
    id,
    url: `https://example.invalid/p/${id}`,
    text: `post ${id}`,
    createdAt: 'Sun Nov 22 02:13:21 +0000 2026',
    lang: 'en',
    isReply: inReplyToId !== null,
    inReplyToId,
    conversationId: '1000000000000000001',
    author: { type: 'user', id: '2000000000000000002', userName: 'ann', name: 'Ann' },
    ...extra,
  };
}
