import { useState } from 'react';
import type { WatchSummary } from '../../../../shared/ipc/watch';
import { ErrorState } from '../../../components/ErrorState';
import { usePrices } from '../../../lib/settings';
import { useForm } from '../../../lib/use-form';
import { formatUsd } from '../../../lib/usage/money';
import { editFields, editProblem, keepsMedia, updatePatch, type EditWatchFields } from '../form';
import { useWatchActions } from '../queries';
import { BudgetField } from './BudgetField';
import { KeepMediaField } from './KeepMediaField';

/**
 * A watch's name, schedule and caps, changed (raising a cap is confirmed by the person in main; a watch that
 * ended at its total cap runs again once the cap is raised), or the watch removed (what it collected stays).
 */
export function EditWatch({ watch, onDone }: { watch: WatchSummary; onDone: () => void }) {
  const { spec } = watch;
  const { update, remove } = useWatchActions();
  const prices = usePrices();
  const [form, change] = useForm(() => editFields(spec, prices));
  const [removing, setRemoving] = useState(false);
  const [now] = useState(() => Date.now());
  const bad = editProblem(form, prices, now);
  const number = (label: string, field: 'every' | 'perRun' | 'perDay', credits = true) => (
    <label className="field">
      <span>{label}</span>
      <input
        className="input"
        type="number"
        min={1}
        value={form[field]}
        onChange={(e) => change({ [field]: Math.floor(Number(e.target.value)) })}
      />
      {credits ? <small className="muted">{formatUsd(form[field] / prices.creditsPerUsd)}</small> : null}
    </label>
  );
  return (
    <form
      className="watch-edit"
      aria-label={`Edit “${spec.name}”`}
      onSubmit={(e) => {
        e.preventDefault();
        if (bad) return;
        update.mutate({ id: watch.id, patch: updatePatch(spec, form, prices, Date.now()) }, { onSuccess: onDone });
      }}
    >
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
      {number('Run every (minutes)', 'every', false)}
      <label className="field">
        <span>Run until</span>
        <input
          className="input"
          type="date"
          value={form.until}
          onChange={(e) => change({ until: e.target.value } satisfies Partial<EditWatchFields>)}
        />
        <small className="muted">{form.until ? 'Its last day (UTC).' : 'No end.'}</small>
      </label>
      {number('Cap per run', 'perRun')}
      {number('Cap in any 24 hours', 'perDay')}
      <BudgetField
        usd={Number.isFinite(form.budgetUsd) ? Math.round(form.budgetUsd * 100) / 100 : ''}
        credits={Math.floor(form.budgetUsd * prices.creditsPerUsd)}
        onChange={(budgetUsd) => change({ budgetUsd })}
      />
      {keepsMedia(spec.kind) ? (
        <KeepMediaField checked={form.keepMedia} onChange={(keepMedia) => change({ keepMedia })} />
      ) : null}
      {bad ? <p className="watch-form__problem">{bad}</p> : null}
      <div className="watch-form__buttons">
        <button type="submit" className="btn btn--primary btn--small" disabled={bad !== null || update.isPending}>
          Save
        </button>
        <button type="button" className="btn btn--small" onClick={onDone}>
          Cancel
        </button>
        {removing ? (
          <span className="watch-edit__remove" role="group" aria-label="Remove the watch">
            Stop it for good? What it collected stays in the project.{' '}
            <button type="button" className="btn btn--small" onClick={() => remove.mutate(watch.id)}>
              Remove
            </button>{' '}
            <button type="button" className="btn btn--small" onClick={() => setRemoving(false)}>
              Keep it
            </button>
          </span>
        ) : (
          <button type="button" className="btn btn--small" onClick={() => setRemoving(true)}>
            Remove…
          </button>
        )}
      </div>
      {update.isError ? <ErrorState compact error={update.error} what="the change" /> : null}
      {remove.isError ? <ErrorState compact error={remove.error} what="the watch" /> : null}
    </form>
  );
}
