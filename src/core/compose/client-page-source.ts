/**
 * The export's PageSource over Skein's API client: pages go through the
 * response store (what the view loaded costs nothing), the limiter, the
 * retry policy and the paging guards, and come back with the raw items.
 */
import type { ApiClient } from '../api';
import type { PageSource, SourcePage } from '../walk';

/** a walk's view of the client's paging guards: its own, apart from what a window shows */
const walkView = (walkId: string): string => `export:${walkId}`;

export function clientPageSource(client: Pick<ApiClient, 'fetchPage' | 'forgetPage' | 'forgetView'>): PageSource {
  return {
    forget({ operation, params, cursor }) {
      client.forgetPage({ operation, params: cursor === null ? params : { ...params, cursor } });
    },
    endWalk(walkId) {
      client.forgetView(walkView(walkId));
    },
    async fetchPage({
      operation,
      params,
      cursor,
      walkId,
      signal,
      cancelWaits,
      onRateLimitWait,
      beforeSend,
      transient,
      deduplicates,
    }): Promise<SourcePage> {
      const { raw, result } = await client.fetchPage({
        operation,
        params: cursor === null ? params : { ...params, cursor },
        signal,
        cancelWaits,
        onRateLimitWait,
        ...(beforeSend ? { beforeSend } : {}),
        viewKey: walkView(walkId),
        // a walk that de-duplicates its own items: the view guards its cursors and holds none of its ids
        viewIds: deduplicates !== true,
        // a hydration's answers are not kept in the response store
        keep: !transient,
        // the journal keeps each item as it arrived
        withTexts: true,
      });
      const { report, meta } = result;
      return {
        rawItems: raw.items,
        ...(raw.texts ? { rawTexts: raw.texts } : {}),
        dropped: report.dropped,
        duplicatesRemoved: report.duplicatesRemoved,
        received: raw.items.length + report.dropped.length + report.duplicatesRemoved,
        notFound: report.notFound,
        paging: result.paging,
        fetchedAt: meta.fetchedAt,
        httpStatus: meta.httpStatus,
        credits: meta.fromCache ? 0 : meta.credits,
        fromCache: meta.fromCache,
        attempts: meta.fromCache ? 0 : meta.attempts,
        ...(result.snapshot ? { snapshot: result.snapshot } : {}),
      };
    },
  };
}
