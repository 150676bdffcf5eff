import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { WATCH_KINDS, type WatchKind } from '../../../../shared/ipc/watch';
import { resolveHandles } from '../../../lib/lookups';
import { usePrices } from '../../../lib/settings';
import { useForm } from '../../../lib/use-form';
import { estimatePages } from '../../../lib/usage/cost-estimate';
import { formatUsd } from '../../../lib/usage/money';
import {
  budgetOf,
  canSwitchOn,
  capsOf,
  capsProblem,
  chosenStrategy,
  createRequest,
  describeProblem,
  estimateIsStale,
  newWatch,
  targetsOf,
  keepsMedia,
  tracksCounters,
  untilProblem,
  watchDraft,
  type NewWatchFields,
} from '../form';
import { proposalQuery, useWatchActions } from '../queries';
import { targetsProblem } from '../targets';
import { count, KIND_LABELS, TARGET_HINTS, type EveryUnit } from '../words';
import { BudgetField } from './BudgetField';
import { InputProblem } from './InputProblem';
import { KeepMediaField } from './KeepMediaField';

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
  hint?: string | undefined;
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

/** "1,234 credits ($0.01)" */
function Credits({ credits, perUsd }: { credits: number; perUsd: number }) {
  return (
    <>
      {count(credits)} credits <span className="muted">({formatUsd(credits / perUsd)})</span>
    </>
  );
}

/**
 * The targets' @handles not yet resolved: what resolving them costs (one people search each), asked for with one
 * click; the ids found are kept beside their handles, and the handles no account has are listed by name.
 */
function ResolveTargets({ form, change }: { form: NewWatchFields; change: (c: Partial<NewWatchFields>) => void }) {
  const qc = useQueryClient();
  const prices = usePrices();
  const [progress, setProgress] = useState<number | null>(null);
  const handles = targetsOf(form).unresolved;
  if (handles.length === 0) return null;
  const cost = estimatePages('userSearch', handles.length, prices);
  const resolve = async () => {
    const resolved = await resolveHandles(qc, handles, setProgress);
    const next = { ...form.resolutions };
    for (const r of resolved) next[r.handle.toLowerCase()] = 'id' in r ? { id: r.id } : { missing: r.why };
    setProgress(null);
    const fields = { ...form, resolutions: next };
    // an estimate asked before: asked again for the ids found
    change({ resolutions: next, ...(form.estimated ? { estimated: watchDraft(fields, Date.now()) } : {}) });
  };
  return (
    <div className="watch-resolve" role="group" aria-label="Handles to resolve">
      <p>
        {handles.length === 1 ? 'One handle' : `${handles.length} handles`} to resolve into account ids: {cost.calls}{' '}
        people {cost.calls === 1 ? 'search' : 'searches'}, about{' '}
        <Credits credits={cost.credits} perUsd={prices.creditsPerUsd} />.
      </p>
      <button type="button" className="btn btn--small" disabled={progress !== null} onClick={() => void resolve()}>
        Resolve {handles.length === 1 ? '1 handle' : `${handles.length} handles`}
      </button>
      {progress !== null ? (
        <span role="status">
          {' '}
          Resolving handle {progress + 1} of {handles.length}…
        </span>
      ) : null}
    </div>
  );
}

/**
 * A new watch: what it follows (ids, @handles or profile links, mixed), how often and until when, its hard caps
 * and its budget in dollars; then what each way of collecting would cost (per run, day and month, and for the
 * whole watch with its first read), chosen before it is switched on. The caps start as the estimate proposes
 * them: a run's cap covers the first read. Main confirms the caps with the person in live mode.
 */
export function NewWatchForm({
  onCreated,
  initial,
}: {
  onCreated: () => void;
  /** what the form starts with (a profile's "Watch…": its account) */
  initial?: Partial<Pick<NewWatchFields, 'name' | 'targets' | 'resolutions'>>;
}) {
  const [form, change] = useForm(() => ({ ...newWatch(Date.now()), ...initial }));
  const [now] = useState(() => Date.now());
  const { create, saveJob } = useWatchActions();
  const prices = usePrices();
  const perUsd = prices.creditsPerUsd;
  const proposal = useQuery(proposalQuery(form.estimated));
  const described = watchDraft(form, now);
  const read = targetsOf(form);
  const stale = estimateIsStale(form, now);
  const chosen = chosenStrategy(form, proposal.data?.recommended ?? null);
  const current = proposal.isSuccess && !stale ? proposal.data.options.find((o) => o.strategy === chosen) : undefined;
  const projection = current?.projection ?? null;
  const caps = capsOf(form, projection?.caps ?? null, prices);
  const describedProblem = describeProblem(form);
  const problems = [targetsProblem(read), describedProblem, untilProblem(form.until, now), capsProblem(caps)].filter(
    (p): p is string => p !== null,
  );
  const ready = proposal.isSuccess && !stale && canSwitchOn(form, chosen, caps, now);
  const budget = budgetOf(form, caps, prices);
  return (
    <form
      className="watch-form"
      aria-label="New watch"
      onSubmit={(e) => {
        e.preventDefault();
        if (!ready || chosen === null) return;
        create.mutate(createRequest(form, chosen, caps, now), { onSuccess: onCreated });
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
            {TARGET_HINTS[form.kind]}. {read.ids.length} ready
            {read.unresolved.length > 0 ? `, ${read.unresolved.length} to resolve` : ''}
            {read.duplicates > 0 ? `; ${read.duplicates} given twice, kept once` : ''}.
          </small>
        </label>
        {form.kind === 'accounts' ? (
          <div className="watch-form__wide">
            <ResolveTargets form={form} change={change} />
          </div>
        ) : null}
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
        <label className="field">
          <span>Run until</span>
          <input className="input" type="date" value={form.until} onChange={(e) => change({ until: e.target.value })} />
          <small className="muted">
            {form.until ? `Its last day (UTC); ${described.days ?? '—'} days from today.` : 'No end.'}
          </small>
        </label>
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
        {keepsMedia(form.kind) ? (
          <KeepMediaField checked={form.keepMedia} onChange={(keepMedia) => change({ keepMedia })} />
        ) : null}
      </div>
      <fieldset className="watch-form__caps">
        <legend>
          Hard caps (a page that could pass one is not asked for)
          {projection?.caps && form.perRun === null && form.perDay === null && form.budgetUsd === null
            ? ': as the estimate proposes, a run’s cap covering the first read'
            : ''}
        </legend>
        <NumberField
          label="Per run (credits)"
          value={caps.perRun}
          onChange={(perRun) => change({ perRun })}
          min={1}
          hint={formatUsd(caps.perRun / perUsd)}
        />
        <NumberField
          label="In any 24 hours (credits)"
          value={caps.perDay}
          onChange={(perDay) => change({ perDay })}
          min={1}
          hint={formatUsd(caps.perDay / perUsd)}
        />
        <BudgetField usd={budget} credits={caps.total} onChange={(budgetUsd) => change({ budgetUsd })} />
        {projection?.pageBound ? (
          <p className="muted watch-form__overshoot">
            A page is counted at the most one has held ({count(projection.pageBound.items)} items,{' '}
            {count(projection.pageBound.credits)} credits), so a run stops short of a cap rather than pass it. Only a
            page bigger than any seen could pass a cap, by what it holds beyond {count(projection.pageBound.items)}.
          </p>
        ) : null}
      </fieldset>
      {problems.length > 0 ? <InputProblem problems={problems} /> : null}
      <div className="watch-form__buttons">
        <button
          type="button"
          className="btn"
          disabled={
            described.targets.length + (described.unresolved ?? 0) === 0 ||
            read.bad.length > 0 ||
            describedProblem !== null
          }
          onClick={() => change({ strategy: null, estimated: described })}
        >
          {form.estimated && !stale ? 'Estimate again' : 'Estimate the cost'}
        </button>
        <button
          type="button"
          className="btn"
          disabled={!ready || saveJob.isPending}
          title="Save this watch as a job file, to run with skein run on a machine with no display"
          onClick={() => {
            if (!ready || chosen === null) return;
            saveJob.mutate({ watch: createRequest(form, chosen, caps, now), days: described.days ?? null });
          }}
        >
          Save as job…
        </button>
        <button type="submit" className="btn btn--primary" disabled={!ready || create.isPending}>
          Switch it on
        </button>
      </div>
      {saveJob.data?.file ? (
        <p className="muted" role="status">
          Saved as a job: {saveJob.data.file}. Run it without a window with skein run: its first run switches the watch
          on in that project, for {described.days ? `${described.days} days from then` : 'no set end'}.
        </p>
      ) : null}
      {saveJob.isError ? <InputProblem error={saveJob.error} what="the job file" /> : null}
      {stale ? <p className="muted">The description changed: estimate again before switching it on.</p> : null}
      {proposal.isError ? <InputProblem error={proposal.error} what="the estimate" /> : null}
      {proposal.isSuccess && !stale ? (
        <fieldset className="watch-proposal">
          <legend>How to collect, and what it costs</legend>
          {projection?.whole ? (
            <p className="watch-proposal__whole" data-testid="whole-watch">
              About <strong>{count(projection.whole.credits)} credits</strong> ({formatUsd(projection.whole.usd)}) over{' '}
              {count(projection.whole.days)} {projection.whole.days === 1 ? 'day' : 'days'}, first read included
              {read.unresolved.length > 0 ? ', and resolving the handles' : ''}.
            </p>
          ) : null}
          <div className="watch-table__scroll">
            <table className="watch-table">
              <thead>
                <tr>
                  <th scope="col">Strategy</th>
                  <th scope="col" className="num">
                    First run
                  </th>
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
                    <td className="num">
                      {o.projection?.firstRun !== undefined ? (
                        <>
                          {count(o.projection.firstRun)}{' '}
                          <span className="muted">{formatUsd(o.projection.firstRun / perUsd)}</span>
                        </>
                      ) : (
                        '—'
                      )}
                    </td>
                    <td className="num">
                      {o.projection ? (
                        <>
                          {count(o.projection.perRun)}{' '}
                          <span className="muted">{formatUsd(o.projection.perRun / perUsd)}</span>
                        </>
                      ) : (
                        '—'
                      )}
                    </td>
                    <td className="num">
                      {o.projection ? (
                        <>
                          {count(o.projection.perDay)}{' '}
                          <span className="muted">{formatUsd(o.projection.usdPerDay)}</span>
                        </>
                      ) : (
                        '—'
                      )}
                    </td>
                    <td className="num">
                      {o.projection ? (
                        <>
                          {count(o.projection.perMonth)}{' '}
                          <span className="muted">{formatUsd(o.projection.usdPerMonth)}</span>
                        </>
                      ) : (
                        '—'
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="watch-proposal__basis">{projection?.basis}</p>
        </fieldset>
      ) : null}
      {create.isError ? <InputProblem error={create.error} what="the watch" /> : null}
    </form>
  );
}
