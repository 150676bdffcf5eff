import { useState } from 'react';
import type { WatchSummary } from '../../../../shared/ipc/watch';
import { ErrorState } from '../../../components/ErrorState';
import { navigate } from '../../../lib/navigation';
import { routes } from '../../../lib/routes';
import { usePrices } from '../../../lib/settings';
import { formatUsd } from '../../../lib/usage/money';
import { useWatchActions } from '../queries';
import { targetLabel } from '../targets';
import { against, count, everyWords, KIND_LABELS, mediaWords, runWords, utcMinute } from '../words';
import { EditWatch } from './EditWatch';
import { TableExports } from './TableExports';
import { WatchDetails } from './WatchDetails';

const STRATEGY_WORDS = {
  full: 'full page each run',
  probe: 'probe first, then read what changed',
  list: 'through one list',
};

/** the first targets as the person gave them ("@name" or an id), and how many more */
function targetsWords(targets: readonly string[], handles: Readonly<Record<string, string>>): string {
  const shown = targets.slice(0, 5).map((t) => targetLabel(t, handles));
  return `${shown.join(', ')}${targets.length > 5 ? ` and ${targets.length - 5} more` : ''}`;
}

function Meter({ label, spent, cap, perUsd }: { label: string; spent: number; cap: number; perUsd: number }) {
  const a = against(spent, cap, perUsd);
  return (
    <div className="watch-meter">
      <span className="watch-meter__label">{label}</span>
      <meter
        min={0}
        max={cap}
        value={Math.min(spent, cap)}
        high={cap * 0.8}
        optimum={0}
        aria-label={`${label}: ${a.words}`}
      />
      <span className="watch-meter__words">{a.words}</span>
    </div>
  );
}

/** One watch: what it follows and how, when it runs, what it spent against its caps, and its controls. */
export function WatchCard({ watch }: { watch: WatchSummary }) {
  const { spec } = watch;
  const actions = useWatchActions();
  const prices = usePrices();
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const busy = Object.values(actions).some((m) => m.isPending);
  const error = Object.values(actions).find((m) => m.isError)?.error;
  const last = watch.lastRun;
  const projection = watch.projectedAtStart ?? watch.projection;
  const perUsd = prices.creditsPerUsd;
  const usd = (credits: number) => formatUsd(credits / perUsd);
  const noun = spec.kind === 'accounts' ? (watch.kept.targets === 1 ? 'account' : 'accounts') : 'targets';
  const openKept = () =>
    actions.collect.mutate(watch.id, { onSuccess: (r) => navigate(routes.archive('', r.collection)) });
  return (
    <article className="watch-card" aria-labelledby={`watch-${watch.id}`}>
      <header className="watch-card__head">
        <h2 id={`watch-${watch.id}`}>{spec.name}</h2>
        <span className={`chip watch-state watch-state--${watch.state}`}>
          {watch.running ? 'running now' : watch.state}
        </span>
      </header>
      <p className="watch-card__what">
        {KIND_LABELS[spec.kind]}: {spec.targets.length} {spec.targets.length === 1 ? 'target' : 'targets'} (
        {targetsWords(spec.targets, spec.handles)}), {everyWords(spec.schedule.everyMinutes)}
        {spec.schedule.until !== null ? ` until ${utcMinute(spec.schedule.until)}` : ''},{' '}
        {STRATEGY_WORDS[spec.strategy]}
        {spec.listId ? ` (list ${spec.listId})` : ''}.
      </p>
      {watch.kept.posts > 0 ? (
        <p className="watch-card__kept">
          <strong data-testid="kept">
            {count(watch.kept.posts)} {watch.kept.posts === 1 ? 'post' : 'posts'} of {count(watch.kept.targets)} {noun}{' '}
            kept
          </strong>{' '}
          <button type="button" className="btn btn--small" disabled={actions.collect.isPending} onClick={openKept}>
            Open them in the Archive
          </button>
        </p>
      ) : null}
      {mediaWords(watch) ? <p className="watch-card__media">{mediaWords(watch)}</p> : null}
      {watch.stateReason ? <p className="watch-card__reason">{watch.stateReason}</p> : null}
      <dl className="watch-card__facts">
        <div>
          <dt>Next run</dt>
          <dd data-testid="next-run">{watch.nextRunAt !== null ? utcMinute(watch.nextRunAt) : '—'}</dd>
        </div>
        <div>
          <dt>Last run</dt>
          <dd data-testid="last-run">
            {last
              ? `${utcMinute(last.startedAt)}: ${runWords(last.status)}, ${count(last.credits)} credits (${usd(last.credits)}), ${last.newItems} new`
              : 'none yet'}
          </dd>
        </div>
        <div>
          <dt>Runs</dt>
          <dd data-testid="runs">{watch.runs}</dd>
        </div>
        <div>
          <dt>New in the runs</dt>
          <dd data-testid="new-items">{watch.newItems}</dd>
        </div>
        <div>
          <dt>Gaps</dt>
          <dd data-testid="gaps">
            {watch.gaps.open} open, {watch.gaps.filled} filled
          </dd>
        </div>
        <div>
          <dt>Disappeared</dt>
          <dd data-testid="attrition">
            {watch.attrition.gone} gone, {watch.attrition.missing} missing, {watch.attrition.returned} back
            {watch.attrition.other > 0 ? `, ${watch.attrition.other} of a status this Skein does not know` : ''}
          </dd>
        </div>
      </dl>
      <div className="watch-card__meters">
        {last ? <Meter label="Last run" spent={last.credits} cap={spec.caps.perRun} perUsd={perUsd} /> : null}
        <Meter label="Last 24 hours" spent={watch.spent.lastDay} cap={spec.caps.perDay} perUsd={perUsd} />
        <Meter label="In total" spent={watch.spent.total} cap={spec.caps.total} perUsd={perUsd} />
      </div>
      {projection ? (
        <p className="watch-card__projection">
          Projected when switched on: <strong>{count(projection.perDay)} credits a day</strong> (
          {formatUsd(projection.usdPerDay)}), {formatUsd(projection.usdPerMonth)} a month
          {projection.whole
            ? `; ${count(projection.whole.credits)} credits (${formatUsd(projection.whole.usd)}) over ${count(projection.whole.days)} days, first read included`
            : ''}
          .
          {watch.comparison && watch.comparison.ratio !== null ? (
            <>
              {' '}
              Spent over {watch.runs} {watch.runs === 1 ? 'run' : 'runs'}, first read included:{' '}
              <strong data-testid="spent-vs-projected">{count(watch.comparison.spent)}</strong> credits (
              {usd(watch.comparison.spent)}) against {count(watch.comparison.projected)} projected (×
              {watch.comparison.ratio.toFixed(2)}
              {watch.comparison.days < 7 ? '; the comparison settles after a week of runs' : ''}).
            </>
          ) : null}
          {watch.projection && watch.projectedAtStart
            ? ` From what the project shows now: ${count(watch.projection.perDay)} a day (${formatUsd(watch.projection.usdPerDay)}).`
            : ''}
        </p>
      ) : null}
      <div className="watch-card__actions">
        {watch.state === 'paused' ? (
          <button
            type="button"
            className="btn btn--small"
            disabled={busy}
            onClick={() => actions.resume.mutate(watch.id)}
          >
            Resume
          </button>
        ) : (
          <button
            type="button"
            className="btn btn--small"
            disabled={busy || watch.state === 'ended'}
            onClick={() => actions.pause.mutate(watch.id)}
          >
            Pause
          </button>
        )}
        <button
          type="button"
          className="btn btn--small"
          disabled={busy || watch.state !== 'active' || watch.running}
          onClick={() => actions.runNow.mutate(watch.id)}
        >
          Run now
        </button>
        <button type="button" className="btn btn--small" aria-expanded={editing} onClick={() => setEditing((e) => !e)}>
          Edit
        </button>
        <button type="button" className="btn btn--small" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? 'Hide runs, gaps and what disappeared' : 'Runs, gaps and what disappeared'}
        </button>
        <span className="muted watch-card__usd">Budget: {formatUsd(spec.caps.total / perUsd)} in total</span>
      </div>
      {error ? <ErrorState compact error={error} what="the watch" /> : null}
      {editing ? <EditWatch watch={watch} onDone={() => setEditing(false)} /> : null}
      {open ? (
        <>
          <WatchDetails watch={watch} />
          <TableExports label="This watch" watchId={watch.id} />
        </>
      ) : null}
    </article>
  );
}
