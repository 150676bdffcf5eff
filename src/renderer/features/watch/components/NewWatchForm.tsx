import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { WATCH_KINDS, type WatchKind } from '../../../../shared/ipc/watch';
import { ErrorState } from '../../../components/ErrorState';
import { useForm } from '../../../lib/use-form';
import { formatUsd } from '../../../lib/usage/money';
import {
  canSwitchOn,
  capsProblem,
  chosenStrategy,
  createRequest,
  estimateIsStale,
  NEW_WATCH,
  targetList,
  tracksCounters,
  watchDraft,
} from '../form';
import { proposalQuery, useWatchActions } from '../queries';
import { count, KIND_LABELS, TARGET_HINTS, type EveryUnit } from '../words';

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
  const [form, change] = useForm(() => NEW_WATCH);
  const { create } = useWatchActions();
  const proposal = useQuery(proposalQuery(form.estimated));
  const described = watchDraft(form);
  const stale = estimateIsStale(form);
  const chosen = chosenStrategy(form, proposal.data?.recommended ?? null);
  const problem = capsProblem(form);
  const ready = proposal.isSuccess && !stale && canSwitchOn(form, chosen);
  return (
    <form
      className="watch-form"
      aria-label="New watch"
      onSubmit={(e) => {
        e.preventDefault();
        if (!ready || chosen === null) return;
        create.mutate(createRequest(form, chosen), { onSuccess: onCreated });
      }}
    >
      <div className="watch-form__grid">
        <label className="field">
          <span>Name</span>
          <input
            className="input"
            value={form.name}
            maxLength={120}
            onChange={(e) => change({ name: e.target.value })}
            required
          />
        </label>
        <label className="field">
          <span>What to follow</span>
          <select className="select" value={form.kind} onChange={(e) => change({ kind: e.target.value as WatchKind })}>
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
            value={form.targets}
            onChange={(e) => change({ targets: e.target.value })}
            aria-describedby="watch-targets-hint"
            rows={4}
          />
          <small id="watch-targets-hint" className="muted">
            {TARGET_HINTS[form.kind]}. {targetList(form.targets).length} given.
          </small>
        </label>
        <div className="field">
          <span>Run every</span>
          <div className="watch-form__every">
            <input
              className="input"
              type="number"
              min={1}
              value={form.every}
              aria-label="Run every (number)"
              onChange={(e) => change({ every: Math.max(1, Math.floor(Number(e.target.value))) })}
            />
            <select
              className="select"
              value={form.unit}
              aria-label="Run every (unit)"
              onChange={(e) => change({ unit: e.target.value as EveryUnit })}
            >
              <option value="minutes">minutes</option>
              <option value="hours">hours</option>
              <option value="days">days</option>
            </select>
          </div>
        </div>
        {form.kind === 'accounts' ? (
          <label className="field">
            <span>A list of these accounts (optional)</span>
            <input
              className="input"
              value={form.listId}
              inputMode="numeric"
              onChange={(e) => change({ listId: e.target.value })}
              placeholder="list id"
            />
            <small className="muted">Reading one list’s timeline can be far cheaper.</small>
          </label>
        ) : null}
        {tracksCounters(form.kind) ? (
          <NumberField
            label="Counters of posts younger than (days)"
            value={form.trackDays}
            onChange={(trackDays) => change({ trackDays })}
            hint="Read again by id once a day; 0: off."
          />
        ) : null}
      </div>
      <fieldset className="watch-form__caps">
        <legend>Hard credit caps (a page that could pass one is not asked for)</legend>
        <NumberField label="Per run" value={form.perRun} onChange={(perRun) => change({ perRun })} min={1} />
        <NumberField label="In any 24 hours" value={form.perDay} onChange={(perDay) => change({ perDay })} min={1} />
        <NumberField label="In total" value={form.total} onChange={(total) => change({ total })} min={1} />
      </fieldset>
      {problem ? <p className="watch-form__problem">{problem}</p> : null}
      <div className="watch-form__buttons">
        <button
          type="button"
          className="btn"
          disabled={described.targets.length === 0}
          onClick={() => change({ strategy: null, estimated: described })}
        >
          {form.estimated && !stale ? 'Estimate again' : 'Estimate the cost'}
        </button>
        <button type="submit" className="btn btn--primary" disabled={!ready || create.isPending}>
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
                        onChange={() => change({ strategy: o.strategy })}
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
