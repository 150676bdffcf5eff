import { useState } from 'react';
import type { WatchSummary } from '../../../../shared/ipc/watch';
import { ErrorState } from '../../../components/ErrorState';
import { useWatchActions } from '../queries';

/**
 * A watch's name, schedule and caps, changed (raising a cap is confirmed by the person in main; a watch that
 * ended at its total cap runs again once the cap is raised), or the watch removed (what it collected stays).
 */
export function EditWatch({ watch, onDone }: { watch: WatchSummary; onDone: () => void }) {
  const { spec } = watch;
  const { update, remove } = useWatchActions();
  const [name, setName] = useState(spec.name);
  const [every, setEvery] = useState(spec.schedule.everyMinutes);
  const [perRun, setPerRun] = useState(spec.caps.perRun);
  const [perDay, setPerDay] = useState(spec.caps.perDay);
  const [total, setTotal] = useState(spec.caps.total);
  const [removing, setRemoving] = useState(false);
  const bad =
    !(perRun > 0 && perDay > 0 && total > 0) || perRun > perDay || perDay > total
      ? 'A run’s cap cannot exceed the daily cap, nor the daily cap the total; each must be above zero.'
      : null;
  const number = (label: string, value: number, set: (n: number) => void) => (
    <label className="field">
      <span>{label}</span>
      <input
        className="input"
        type="number"
        min={1}
        value={value}
        onChange={(e) => set(Math.floor(Number(e.target.value)))}
      />
    </label>
  );
  return (
    <form
      className="watch-edit"
      aria-label={`Edit “${spec.name}”`}
      onSubmit={(e) => {
        e.preventDefault();
        if (bad) return;
        update.mutate(
          {
            id: watch.id,
            patch: { name, schedule: { ...spec.schedule, everyMinutes: every }, caps: { perRun, perDay, total } },
          },
          { onSuccess: onDone },
        );
      }}
    >
      <label className="field">
        <span>Name</span>
        <input className="input" value={name} maxLength={120} onChange={(e) => setName(e.target.value)} required />
      </label>
      {number('Run every (minutes)', every, setEvery)}
      {number('Cap per run', perRun, setPerRun)}
      {number('Cap in any 24 hours', perDay, setPerDay)}
      {number('Cap in total', total, setTotal)}
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
