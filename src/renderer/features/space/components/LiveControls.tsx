import { useId } from 'react';
import { useCostConfirm } from '../../../components/usage/CostConfirm';
import { aboutUsd, formatCredits } from '../../../lib/usage/money';
import { usePrices } from '../../../lib/settings';
import { useLive } from '../live-store';
import { callsPerMinuteLabel, pollCost } from '../poll-cost';
import { updatedAgo, type SpaceSummary } from '../space-summary';

interface Props {
  spaceId: string;
  summary: SpaceSummary;
  polling: boolean;
  visible: boolean;
  fetchedAt: number;
  now: number;
  refreshing: boolean;
  onRefresh: () => void;
}

/** Start (after seeing the cost), pause and resume live updates; how fresh the page is. */
export function LiveControls({ spaceId, summary, polling, visible, fetchedAt, now, refreshing, onRefresh }: Props) {
  const prices = usePrices();
  const costAccepted = useLive((s) => s.costAccepted);
  const paused = useLive((s) => s.paused[spaceId] === true);
  const { acceptCost, pause, resume } = useLive.getState();
  const { ask, dialog } = useCostConfirm();
  const costId = useId();
  const cost = pollCost(summary.pollIntervalSec, prices);
  const costText = `every ${cost.intervalSec} s: ${callsPerMinuteLabel(cost)}, ${formatCredits(cost.creditsPerMinute)} ${aboutUsd(cost.usdPerMinute)} a minute`;

  if (!summary.live) {
    return (
      <div className="space__live">
        <p className="muted">
          {summary.stateLabel === 'Ended'
            ? 'This space has ended'
            : `This space is ${summary.stateLabel.toLowerCase()}`}
          : nothing to update live.
        </p>
        <button type="button" className="btn btn--small" disabled={refreshing} onClick={onRefresh}>
          Refresh
        </button>
      </div>
    );
  }

  const start = async () => {
    const yes = await ask({
      title: 'Start live updates?',
      action: 'Start live updates',
      per: 'a minute',
      estimate: {
        calls: cost.callsPerMinute,
        credits: cost.creditsPerMinute,
        usd: cost.usdPerMinute,
        basis: `one space call every ${cost.intervalSec} s, as the API asks`,
      },
      detail: `Updates stop when the space ends, when you leave this page or hide the window, or when you pause. About ${formatCredits(cost.creditsPerHour)} an hour.`,
    });
    if (yes) {
      acceptCost();
      resume(spaceId);
    }
  };

  const ago = updatedAgo(fetchedAt, now);
  const status = polling
    ? `live · ${ago}`
    : !costAccepted
      ? `not updating · ${ago}`
      : paused
        ? `paused · ${ago}`
        : !visible
          ? `paused while the window is hidden · ${ago}`
          : ago;

  return (
    <div className="space__live">
      <p className={`space__status${polling ? ' space__status--live' : ''}`} data-testid="live-status">
        {polling ? <span className="space__dot" aria-hidden="true" /> : null}
        {status}
      </p>
      {costAccepted ? (
        <button
          type="button"
          role="switch"
          aria-checked={!paused}
          aria-describedby={costId}
          className="space__switch"
          onClick={() => (paused ? resume(spaceId) : pause(spaceId))}
        >
          <span className="space__switch-track" aria-hidden="true">
            <span className="space__switch-thumb" />
          </span>
          Live updates
        </button>
      ) : (
        <button
          type="button"
          className="btn btn--primary btn--small"
          aria-describedby={costId}
          onClick={() => void start()}
        >
          Start live updates
        </button>
      )}
      <span id={costId} className="muted space__cost">
        Costs {costText}
      </span>
      {!polling ? (
        <button type="button" className="btn btn--small" disabled={refreshing} onClick={onRefresh}>
          Refresh once
        </button>
      ) : null}
      {dialog}
    </div>
  );
}
