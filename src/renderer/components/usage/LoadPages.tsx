/**
 * "Load N more pages" for a cursor-paged list, page after page until N,
 * the end, an error or Stop. More than ten pages at once asks first, with
 * what they will cost. Works with any `useInfiniteQuery` result.
 */
import { useId, useRef, useState } from 'react';
import type { OperationId } from '../../../shared/api/catalog';
import { creditsLabel } from '../../lib/format';
import { usePrices } from '../../lib/settings';
import { estimatePages, needsConfirmation } from '../../lib/usage/cost-estimate';
import { useCostConfirm } from './CostConfirm';
import './cost.css';

const PAGE_CHOICES = [5, 10, 25, 50] as const;

interface Props {
  operation: OperationId;
  hasNextPage: boolean;
  /** TanStack Query's fetchNextPage */
  fetchNextPage: () => Promise<{ hasNextPage: boolean; isError: boolean }>;
  /** "posts", "followers" */
  noun: string;
}

export function LoadPages({ operation, hasNextPage, fetchNextPage, noun }: Props) {
  const prices = usePrices();
  const { ask, dialog } = useCostConfirm();
  const [pages, setPages] = useState<number>(PAGE_CHOICES[0]);
  const [progress, setProgress] = useState<{ done: number; of: number } | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const stop = useRef(false);
  const selectId = useId();
  // the cost is shown before any page is asked for, whatever the number
  const shown = estimatePages(operation, pages, prices);

  const run = async () => {
    const estimate = estimatePages(operation, pages, prices);
    if (needsConfirmation(pages)) {
      const yes = await ask({ title: `Load ${pages} more pages of ${noun}?`, action: `Load ${pages} pages`, estimate });
      if (!yes) return;
    }
    stop.current = false;
    setResult(null);
    let done = 0;
    let more = hasNextPage;
    setProgress({ done, of: pages });
    while (done < pages && more && !stop.current) {
      const r = await fetchNextPage();
      if (r.isError) break;
      done += 1;
      more = r.hasNextPage;
      setProgress({ done, of: pages });
    }
    setProgress(null);
    setResult(
      `Loaded ${done} ${done === 1 ? 'page' : 'pages'}${more ? '' : ' — the end of the list'}${stop.current ? ' (stopped)' : ''}.`,
    );
  };

  return (
    <div className="load-pages" role="group" aria-label={`Load several pages of ${noun}`}>
      <label htmlFor={selectId}>Load</label>
      <select
        id={selectId}
        className="select"
        value={pages}
        disabled={progress !== null}
        onChange={(e) => setPages(Number(e.target.value))}
      >
        {PAGE_CHOICES.map((n) => (
          <option key={n} value={n}>
            {n} more pages
          </option>
        ))}
      </select>
      {progress ? (
        <>
          <span role="status">
            Loading page {progress.done + 1} of {progress.of}…
          </span>
          <button type="button" className="btn btn--small" onClick={() => (stop.current = true)}>
            Stop
          </button>
        </>
      ) : (
        <>
          <button
            type="button"
            className="btn btn--small"
            disabled={!hasNextPage}
            onClick={() => void run()}
            aria-describedby={`${selectId}-cost`}
          >
            Load
          </button>
          {hasNextPage ? (
            <span id={`${selectId}-cost`} className="muted" title={shown.basis}>
              up to {shown.calls} calls, about {creditsLabel(shown.credits, null)}
            </span>
          ) : null}
        </>
      )}
      {result ? (
        <span role="status" className="muted">
          {result}
        </span>
      ) : null}
      {dialog}
    </div>
  );
}
