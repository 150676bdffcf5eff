/**
 * The usage panel: what this session (and all sessions) cost, by operation,
 * and the recent calls one by one — cached answers and 501s shown as free.
 * The numbers are Skein's estimate from the price table: the API does not
 * report charges.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useDismissable } from '../../../lib/layers';
import { appInfoQuery } from '../../../lib/app-info';
import { usageKeys, usageQuery } from '../../../lib/usage/meter';
import { navigate } from '../../../lib/navigation';
import { ErrorState } from '../../../components/ErrorState';
import { SkeletonList } from '../../../components/states';
import { ViewFrame } from '../../../components/ViewFrame';
import { skein } from '../../../lib/bridge';
import { fullCount } from '../../../lib/format';
import { routes } from '../../../lib/routes';
import { stamp } from '../../../lib/time';
import { formatCredits, formatUsdExact } from '../../../lib/usage/money';
import { RecentCallsTable, ByOperationTable } from './UsageTables';
import './usage.css';

function ResetButton({ disabled }: { disabled: boolean }) {
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const resetButton = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);
  // the question is in front: Esc keeps the counters (never Back); focus returns to "Reset counters"
  useDismissable(confirming, () => setConfirming(false));
  useEffect(() => {
    if (wasConfirming.current && !confirming) resetButton.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);
  const reset = useMutation({
    mutationFn: () => skein().usage.reset(),
    onSuccess: (snapshot) => client.setQueryData(usageKeys.snapshot(), snapshot),
  });
  if (reset.isError) return <ErrorState compact error={reset.error} what="reset" onRetry={() => reset.mutate()} />;
  if (!confirming)
    return (
      <button
        ref={resetButton}
        type="button"
        className="btn"
        disabled={disabled || reset.isPending}
        onClick={() => setConfirming(true)}
      >
        Reset counters
      </button>
    );
  return (
    <div role="group" aria-label="Reset the usage counters?" className="usage__confirm">
      <span>Forget the counted calls?</span>
      <button
        type="button"
        className="btn btn--primary"
        onClick={() => {
          setConfirming(false);
          reset.mutate();
        }}
      >
        Yes, reset
      </button>
      <button type="button" className="btn" onClick={() => setConfirming(false)} autoFocus>
        Keep
      </button>
    </div>
  );
}

export function UsageView() {
  const usage = useQuery(usageQuery());
  const mode = useQuery(appInfoQuery()).data?.mode;
  return (
    <ViewFrame title="Usage" className="view--usage" actions={<ResetButton disabled={!usage.data} />}>
      <div className="usage">
        <p className="muted">
          Estimated with the price table in{' '}
          <a
            href="#/settings"
            onClick={(e) => {
              e.preventDefault();
              navigate(routes.settings());
            }}
          >
            Settings
          </a>
          ; the API does not report what it charged. Answers served from cache and calls the API announces as not
          available (HTTP 501) are free. Dollars here are exact to the last fraction of a cent, so that the cost of a
          few calls stays visible.
        </p>
        {usage.status === 'pending' ? (
          <SkeletonList count={2} label="Loading usage…" />
        ) : usage.status === 'error' ? (
          <ErrorState error={usage.error} what="usage" onRetry={() => void usage.refetch()} />
        ) : (
          <>
            <dl className="usage__totals">
              <div>
                <dt>Calls this session</dt>
                <dd>{fullCount(usage.data.session.calls)}</dd>
              </div>
              <div>
                <dt>Credits this session</dt>
                <dd>{formatCredits(usage.data.session.credits)}</dd>
              </div>
              <div>
                <dt>Cost this session</dt>
                <dd>{formatUsdExact(usage.data.session.usd)}</dd>
              </div>
              {usage.data.lastHour ? (
                <div>
                  <dt>Live, last 60 minutes</dt>
                  <dd>
                    {formatCredits(usage.data.lastHour.credits)} of {formatCredits(usage.data.lastHour.budget)} allowed
                  </dd>
                </div>
              ) : null}
              <div>
                <dt>All sessions (live mode)</dt>
                <dd>
                  {fullCount(usage.data.lifetime.calls)} calls · {formatUsdExact(usage.data.lifetime.usd)}
                  {usage.data.lifetimeSince !== undefined ? (
                    <>
                      {' '}
                      since{' '}
                      <time dateTime={new Date(usage.data.lifetimeSince).toISOString()}>
                        {stamp(usage.data.lifetimeSince)}
                      </time>
                    </>
                  ) : null}
                </dd>
              </div>
            </dl>
            {usage.data.lifetimeSince !== undefined ? (
              <p className="note" role="note">
                The totals from before then could not be read (the usage file was damaged). They are kept in the usage
                file as they were, beside the totals counted since.
              </p>
            ) : null}
            {mode === 'demo' ? (
              <p className="note" role="note">
                Demo mode: calls go to Skein&apos;s built-in sample service. They are free and not kept: the session
                figures show what they would cost live, and “All sessions” counts live-mode calls only.
              </p>
            ) : null}
            <ByOperationTable snapshot={usage.data} />
            <RecentCallsTable snapshot={usage.data} />
            {usage.data.history?.length || usage.data.historyUnread ? (
              <section aria-labelledby="usage-history" className="usage__history">
                <h2 id="usage-history">Changes to counting and limits</h2>
                <ul>
                  {(usage.data.history ?? []).map((h, i) => (
                    <li key={`${h.at}-${i}`}>
                      <time dateTime={new Date(h.at).toISOString()}>{stamp(h.at)}</time> — {h.detail}
                    </li>
                  ))}
                </ul>
                {usage.data.historyUnread ? (
                  <p className="note">
                    {usage.data.historyUnread === 1
                      ? 'One more change is kept that this Skein cannot read (damaged); it is left as it is.'
                      : `${usage.data.historyUnread} more changes are kept that this Skein cannot read (damaged); they are left as they are.`}
                  </p>
                ) : null}
              </section>
            ) : null}
          </>
        )}
      </div>
    </ViewFrame>
  );
}
