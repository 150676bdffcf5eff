import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { WATCH_KINDS, type WatchDraft, type WatchKind, type WatchStrategy } from '../../../../shared/ipc/watch';
import { ErrorState } from '../../../components/ErrorState';
import { formatUsd } from '../../../lib/usage/money';
import { proposalQuery, useWatchActions } from '../queries';
import { count, KIND_LABELS, TARGET_HINTS, UNIT_MINUTES, type EveryUnit } from '../words';

const lines = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((t) => t.trim())
    .filter(Boolean);

function NumberField({
  label,
  value,
  onChange,
  min = 0,
  hint,
}: {
  label: string;
  value: number;
  onChange: (n: number) => void;
  min?: number;
  hint?: string;
}) {
  const id = useId();
  return (
    <label className="field" htmlFor={id}>
      <span>{label}</span>
      <input
        id={id}
        className="input"
        type="number"
        min={min}
        step={1}
        value={Number.isFinite(value) ? value : ''}
        onChange={(e) => onChange(Math.floor(Number(e.target.value)))}
      />
      {hint ? <small className="muted">{hint}</small> : null}
    </label>
  );
}

/**
 * A new watch: what it follows, how often, its hard caps; then what each way of collecting would cost (per
 * run, day and month, and how that was reckoned), chosen before it is switched on. Main confirms the caps
 * with the person in live mode.
 */
export function NewWatchForm({ onCreated }: { onCreated: () => void }) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<WatchKind>('accounts');
  const [targets, setTargets] = useState('');
  const [every, setEvery] = useState(2);
  const [unit, setUnit] = useState<EveryUnit>('hours');
  const [listId, setListId] = useState('');
  const [trackDays, setTrackDays] = useState(0);
  const [perRun, setPerRun] = useState(5_000);
  const [perDay, setPerDay] = useState(20_000);
  const [total, setTotal] = useState(200_000);
  const [draft, setDraft] = useState<WatchDraft | null>(null);
  const [strategy, setStrategy] = useState<WatchStrategy | null>(null);
  const { create } = useWatchActions();
  const proposal = useQuery(proposalQuery(draft));
  const everyMinutes = Math.max(1, every * UNIT_MINUTES[unit]);
  const options = useMemo(
    () => ({ trackDays, trackEvery: Math.max(1, Math.round(1440 / everyMinutes)) }),
    [trackDays, everyMinutes],
  );
  const described: WatchDraft = {
    kind,
    targets: lines(targets),
    listId: listId.trim() === '' ? null : listId.trim(),
    everyMinutes,
    options,
  };
  const stale = draft !== null && JSON.stringify(draft) !== JSON.stringify(described);
  const chosen = strategy ?? proposal.data?.recommended ?? null;
  const capsProblem =
    perRun <= 0 || perDay <= 0 || total <= 0
      ? 'Every cap must be above zero.'
      : perRun > perDay || perDay > total
        ? 'A run’s cap cannot exceed the daily cap, nor the daily cap the total.'
        : null;
  const canSwitchOn = proposal.isSuccess && !stale && chosen !== null && name.trim() !== '' && capsProblem === null;
  return (
    <form
      className="watch-form"
      aria-label="New watch"
      onSubmit={(e) => {
        e.preventDefault();
        if (!canSwitchOn || chosen === null) return;
        create.mutate(
          {
            name: name.trim(),
            kind,
            targets: described.targets,
            strategy: chosen,
            listId: chosen === 'list' ? described.listId : null,
            schedule: { everyMinutes },
            caps: { perRun, perDay, total },
            options,
          },
          { onSuccess: onCreated },
        );
      }}
    >
      <div className="watch-form__grid">
        <label className="field">
          <span>Name</span>
          <input className="input" value={name} maxLength={120} onChange={(e) => setName(e.target.value)} required />
        </label>
        <label className="field">
          <span>What to follow</span>
          <select className="select" value={kind} onChange={(e) => setKind(e.target.value as WatchKind)}>
            {WATCH_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </label>
        <label className="field watch-form__wide">
          <span>Targets</span>
          <textarea
            className="textarea"
            value={targets}
            onChange={(e) => setTargets(e.target.value)}
            aria-describedby="watch-targets-hint"
            rows={4}
          />
          <small id="watch-targets-hint" className="muted">
            {TARGET_HINTS[kind]}. {lines(targets).length} given.
          </small>
        </label>
        <div className="field">
          <span>Run every</span>
          <div className="watch-form__every">
            <input
              className="input"
              type="number"
              min={1}
              value={every}
              aria-label="Run every (number)"
              onChange={(e) => setEvery(Math.max(1, Math.floor(Number(e.target.value))))}
            />
            <select
              className="select"
              value={unit}
              aria-label="Run every (unit)"
              onChange={(e) => setUnit(e.target.value as EveryUnit)}
            >
              <option value="minutes">minutes</option>
              <option value="hours">hours</option>
              <option value="days">days</option>
            </select>
          </div>
        </div>
        {kind === 'accounts' ? (
          <label className="field">
            <span>A list of these accounts (optional)</span>
            <input
              className="input"
              value={listId}
              inputMode="numeric"
              onChange={(e) => setListId(e.target.value)}
              placeholder="list id"
            />
            <small className="muted">Reading one list’s timeline can be far cheaper.</small>
          </label>
        ) : null}
        {kind === 'accounts' || kind === 'mentions' || kind === 'list' || kind === 'quotes' || kind === 'replies' ? (
          <NumberField
            label="Counters of posts younger than (days)"
            value={trackDays}
            onChange={setTrackDays}
            hint="Read again by id once a day; 0: off."
          />
        ) : null}
      </div>
      <fieldset className="watch-form__caps">
        <legend>Hard credit caps (a page that could pass one is not asked for)</legend>
        <NumberField label="Per run" value={perRun} onChange={setPerRun} min={1} />
        <NumberField label="In any 24 hours" value={perDay} onChange={setPerDay} min={1} />
        <NumberField label="In total" value={total} onChange={setTotal} min={1} />
      </fieldset>
      {capsProblem ? <p className="watch-form__problem">{capsProblem}</p> : null}
      <div className="watch-form__buttons">
        <button
          type="button"
          className="btn"
          disabled={described.targets.length === 0}
          onClick={() => {
            setStrategy(null);
            setDraft(described);
          }}
        >
          {draft && !stale ? 'Estimate again' : 'Estimate the cost'}
        </button>
        <button type="submit" className="btn btn--primary" disabled={!canSwitchOn || create.isPending}>
          Switch it on
        </button>
      </div>
      {stale ? <p className="muted">The description changed: estimate again before switching it on.</p> : null}
      {proposal.isError ? <ErrorState compact error={proposal.error} what="the estimate" /> : null}
      {proposal.isSuccess && !stale ? (
        <fieldset className="watch-proposal">
          <legend>How to collect, and what it costs</legend>
          <table className="watch-table">
            <thead>
              <tr>
                <th scope="col">Strategy</th>
                <th scope="col" className="num">
                  Per run
                </th>
                <th scope="col" className="num">
                  Per day
                </th>
                <th scope="col" className="num">
                  Per month
                </th>
              </tr>
            </thead>
            <tbody>
              {proposal.data.options.map((o) => (
                <tr key={o.strategy} aria-disabled={!o.available}>
                  <th scope="row">
                    <label>
                      <input
                        type="radio"
                        name="watch-strategy"
                        value={o.strategy}
                        disabled={!o.available}
                        checked={chosen === o.strategy}
                        onChange={() => setStrategy(o.strategy)}
                      />{' '}
                      {o.label}
                      {o.strategy === proposal.data.recommended ? ' (cheapest)' : ''}
                    </label>
                    {o.reason ? <span className="watch-table__note">{o.reason}</span> : null}
                  </th>
                  <td className="num">{o.projection ? count(o.projection.perRun) : '—'}</td>
                  <td className="num">
                    {o.projection ? (
                      <>
                        {count(o.projection.perDay)} <span className="muted">{formatUsd(o.projection.usdPerDay)}</span>
                      </>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td className="num">{o.projection ? formatUsd(o.projection.usdPerMonth) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="watch-proposal__basis">
            {proposal.data.options.find((o) => o.strategy === chosen)?.projection?.basis}
          </p>
        </fieldset>
      ) : null}
      {create.isError ? <ErrorState compact error={create.error} what="the watch" /> : null}
    </form>
  );
}
