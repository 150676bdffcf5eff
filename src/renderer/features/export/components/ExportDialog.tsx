import { useEffect, useId, useRef, useState } from 'react';
import { OPERATIONS } from '../../../../shared/api/catalog';
import type {
  ControlKey,
  ExportJob,
  ExportScope,
  ExportStartInput,
  ViewDescriptor,
} from '../../../../shared/ipc/export';
import { chosenExport, hydrationOffers, offersFor, type ControlValues } from '../../../../shared/ipc/export-offers';
import {
  describeEstimate,
  describeJob,
  EMPTY_CAPS,
  exportOrder,
  fileName,
  isActive,
  offersKeepMedia,
  readCaps,
  sameSubject,
  viewMediaWords,
  withKeepMedia,
  type CapFields,
} from '../form';
import { ErrorState } from '../../../components/ErrorState';
import { usePrices } from '../../../lib/settings';
import { useExportActions, useExportEstimate, useExportJobs, useFormatOffers, useViewMediaEstimate } from '../queries';
import { ExportMedia } from './ExportMedia';
import { KeepInProject } from './KeepInProject';
import { FormatFields } from './FormatFields';
import { RunningExports, WaitNotice } from './RunningExports';
import { UnreadExports } from './UnreadExports';
import './export.css';

const ORDERS = ['Latest', 'Relevance', 'Likes'] as const;

/** A reply view's order: Latest by default; a ranked order warns that it can leave replies out. */
function OrderFields({ order, onChange }: { order: ReturnType<typeof exportOrder>; onChange: (o: string) => void }) {
  if (order.shown === null) return null;
  return (
    <fieldset>
      <legend>Order</legend>
      <div className="export__inline">
        {ORDERS.map((o) => (
          <label key={o} className="export__choice">
            <input type="radio" name="order" value={o} checked={order.chosen === o} onChange={() => onChange(o)} />
            <span>
              {o}
              {o === 'Latest' ? <span className="muted"> (complete)</span> : null}
              {o === order.shown ? <span className="muted"> (as shown)</span> : null}
            </span>
          </label>
        ))}
      </div>
      {order.warning ? (
        <p className="export__warning" role="note">
          {order.warning}
        </p>
      ) : null}
    </fieldset>
  );
}

function CapsFields({
  fields,
  onChange,
  error,
}: {
  fields: CapFields;
  onChange: (f: CapFields) => void;
  error: string | null;
}) {
  const id = useId();
  const input = (key: keyof CapFields, label: string) => (
    <label className="field export__cap">
      <span>{label}</span>
      <input
        className="input"
        inputMode="numeric"
        placeholder="no cap"
        value={fields[key]}
        onChange={(e) => onChange({ ...fields, [key]: e.target.value })}
        aria-describedby={error ? `${id}-error` : undefined}
      />
    </label>
  );
  return (
    <fieldset className="export__caps">
      <legend>Stop after (optional)</legend>
      <div className="export__cap-row">
        {input('maxPages', 'Pages')}
        {input('maxItems', 'Items')}
        {input('maxCredits', 'Credits')}
      </div>
      {error ? (
        <p id={`${id}-error`} className="export__error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

function JobProgress({ job }: { job: ExportJob }) {
  const f = job.progress.fraction;
  return (
    <div className="export__job" data-export-status={job.status}>
      {isActive(job) ? (
        <progress
          className="export__progress"
          max={1}
          {...(f === null ? {} : { value: f })}
          aria-label="Export progress"
        />
      ) : null}
      <p role="status" aria-live="polite">
        {describeJob(job)}
      </p>
      <WaitNotice job={job} />
      {job.files.length > 0 && job.status !== 'cancelled' && job.status !== 'failed' ? (
        <p className="muted export__files">
          {job.files.map((f) => (
            <span key={f} title={f}>
              {fileName(f)}
            </span>
          ))}
        </p>
      ) : null}
      {job.error?.details?.action ? <p className="muted">{job.error.details.action}</p> : null}
    </div>
  );
}

/** The export dialog of one view: format, scope and caps; then progress, cancel and resume. */
export function ExportDialog({ view, onClose }: { view: ViewDescriptor; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const paged = OPERATIONS[view.operation].paged;
  const itemKind = OPERATIONS[view.operation].itemKind;
  const formats = useFormatOffers();
  // a hydration reads an id list back for analysis: its dialog says so and offers the formats that serve it
  const hydrating = view.idsFrom !== undefined;
  const offers = (hydrating ? hydrationOffers : offersFor)(formats.data ?? [], itemKind);
  const prices = usePrices();
  // the first offer until one is picked
  const [choice, setChoice] = useState<string | null>(null);
  const offer = offers.find((o) => o.id === choice) ?? offers[0];
  // the options' controls keep what was set when another format is picked (two CSVs share theirs)
  const [values, setValues] = useState<ControlValues>({});
  const setValue = (key: ControlKey, value: string | boolean) => setValues((v) => ({ ...v, [key]: value }));
  const [chosenOrder, setChosenOrder] = useState<string | null>(null);
  const [pickedScope, setScope] = useState<ExportScope>('loaded');
  // exporting what is loaded keeps the order on screen (no call); fetching everything defaults to Latest
  const order = exportOrder(view, chosenOrder, pickedScope);
  // "what is loaded" exists only in the order on screen
  const scope: ExportScope = order.loadedAvailable ? pickedScope : 'all';
  // only an order the user chose can rule out "what is loaded" (the default follows the scope)
  const loadedRuledOut = chosenOrder !== null && !exportOrder(view, chosenOrder, 'loaded').loadedAvailable;
  const [caps, setCaps] = useState<CapFields>(EMPTY_CAPS);
  const [keepMedia, setKeepMedia] = useState(false);
  const [capError, setCapError] = useState<string | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  const jobs = useExportJobs();
  const estimate = useExportEstimate(order.view, scope, jobId === null);
  const mediaEstimate = useViewMediaEstimate(
    order.view,
    scope,
    keepMedia && jobId === null && offersKeepMedia(order.view),
  );
  const actions = useExportActions();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  // reopened while an export of this view runs (after "Hide"): show that job, its progress and its Cancel
  const runningHere =
    jobId === null ? (jobs.data ?? []).find((j) => isActive(j) && sameSubject(j.view, view)) : undefined;
  // kept once shown, so its end (done, partial) stays on screen (state adjusted while rendering, not in an effect)
  if (runningHere) setJobId(runningHere.id);
  const shownId = jobId ?? runningHere?.id ?? null;
  const job = shownId ? (jobs.data ?? []).find((j) => j.id === shownId) : undefined;
  const unfinished = (jobs.data ?? []).filter(
    (j) => j.id !== shownId && (j.resumable || j.unrecorded !== undefined) && !isActive(j),
  );
  const running = (jobs.data ?? []).filter((j) => j.id !== shownId && isActive(j));

  const [savedJob, setSavedJob] = useState<string | null>(null);

  /** what the dialog starts (and what a saved job runs), or null when a cap cannot be read */
  const request = (): ExportStartInput | null => {
    const read = readCaps(caps);
    if (!read.ok) {
      setCapError(read.message);
      return null;
    }
    setCapError(null);
    setStartError(null);
    if (!offer) return null;
    return withKeepMedia(
      {
        view: order.view,
        scope,
        ...chosenExport(offer, values, itemKind),
        ...(scope === 'all' ? { caps: read.caps } : {}),
      },
      keepMedia,
    );
  };

  const start = () => {
    const input = request();
    if (!input) return;
    actions.start.mutate(input, {
      onSuccess: ({ job: started }) => started && setJobId(started.id),
      onError: (e) => setStartError(e.message),
    });
  };

  const saveAsJob = () => {
    const input = request();
    if (!input) return;
    setSavedJob(null);
    actions.saveJob.mutate(
      { kind: hydrating ? 'hydrate' : 'export', start: input },
      { onSuccess: ({ file }) => setSavedJob(file), onError: (e) => setStartError(e.message) },
    );
  };

  const resume = (id: string) => {
    const read = readCaps(caps);
    if (!read.ok) return setCapError(read.message);
    setCapError(null);
    actions.resume.mutate(
      { jobId: id, caps: read.caps },
      { onSuccess: (j) => setJobId(j.id), onError: (e) => setStartError(e.message) },
    );
  };

  return (
    <dialog ref={ref} className="export" aria-labelledby={titleId} onClose={onClose} data-testid="export-dialog">
      <h2 id={titleId}>
        {hydrating ? 'Hydrate' : 'Export'}{' '}
        {view.title ? `“${view.title}”` : OPERATIONS[view.operation].title.toLowerCase()}
      </h2>

      {job ? (
        <>
          <JobProgress job={job} />
          <KeepInProject job={job} />
          <ExportMedia job={job} onLeave={() => ref.current?.close()} />
          {job.resumable && !isActive(job) ? <CapsFields fields={caps} onChange={setCaps} error={capError} /> : null}
        </>
      ) : (
        <form
          className="export__form"
          onSubmit={(e) => {
            e.preventDefault();
            start();
          }}
        >
          {formats.error ? (
            <p className="export__error" role="alert">
              {formats.error.message}
            </p>
          ) : (
            <FormatFields
              itemKind={itemKind}
              offers={offers}
              choice={offer?.id}
              onChoice={setChoice}
              values={values}
              onValue={setValue}
            />
          )}
          <OrderFields order={order} onChange={setChosenOrder} />
          {paged ? (
            <fieldset>
              <legend>What to export</legend>
              <label className="export__choice">
                <input
                  type="radio"
                  name="scope"
                  value="loaded"
                  checked={scope === 'loaded'}
                  onChange={() => setScope('loaded')}
                  disabled={loadedRuledOut}
                />
                <span>
                  What is loaded now
                  {loadedRuledOut ? (
                    <span className="muted"> (loaded in {order.shown} order)</span>
                  ) : view.loadedItems !== undefined ? (
                    <span className="muted"> ({view.loadedItems.toLocaleString('en-US')} items)</span>
                  ) : null}
                </span>
              </label>
              <label className="export__choice">
                <input
                  type="radio"
                  name="scope"
                  value="all"
                  checked={scope === 'all'}
                  onChange={() => setScope('all')}
                  disabled={view.reachedEnd === true}
                />
                <span>
                  Fetch everything{view.reachedEnd ? <span className="muted"> (already all loaded)</span> : null}
                </span>
              </label>
            </fieldset>
          ) : null}
          {scope === 'all' ? <CapsFields fields={caps} onChange={setCaps} error={capError} /> : null}
          {offersKeepMedia(order.view) ? (
            <fieldset>
              <legend>Media</legend>
              <label className="export__choice">
                <input type="checkbox" checked={keepMedia} onChange={(e) => setKeepMedia(e.target.checked)} />
                <span>Also keep the media of these posts</span>
              </label>
              <p className="muted">
                Once the file is written, Skein keeps their photos at their original size and their videos and GIFs as
                their best MP4 (or the largest Settings allows) in the project, each file once; media cost no credits.
              </p>
              {keepMedia && jobId === null ? (
                mediaEstimate.data ? (
                  <p role="status">{viewMediaWords(mediaEstimate.data)}</p>
                ) : mediaEstimate.error ? (
                  <ErrorState compact error={mediaEstimate.error} what="the estimate of the media" />
                ) : (
                  <p role="status">Counting the photos and videos of these posts…</p>
                )
              ) : null}
            </fieldset>
          ) : null}
          <div className="export__estimate" aria-live="polite">
            {estimate.data ? (
              <>
                <p>{describeEstimate(estimate.data, prices)}</p>
                <p className="muted">{estimate.data.basis}</p>
              </>
            ) : estimate.error ? (
              <p className="export__error">{estimate.error.message}</p>
            ) : (
              <p className="muted">Estimating…</p>
            )}
          </div>
          {startError ? (
            <p className="export__error" role="alert">
              {startError}
            </p>
          ) : null}
          {savedJob ? (
            <p className="muted" role="status">
              Saved as a job: {savedJob}. Run it without a window with skein run (see the manual).
            </p>
          ) : null}
          <div className="export__buttons">
            <button type="button" className="btn" onClick={() => ref.current?.close()}>
              Close
            </button>
            <button
              type="button"
              className="btn"
              onClick={saveAsJob}
              disabled={actions.saveJob.isPending || !offer}
              title="Save what this dialog would start as a job file, to run with skein run on a machine with no display"
            >
              Save as job…
            </button>
            <button type="submit" className="btn btn--primary" disabled={actions.start.isPending || !offer}>
              {hydrating ? 'Choose file and hydrate' : 'Choose file and export'}
            </button>
          </div>
        </form>
      )}

      {job ? (
        <div className="export__buttons">
          {isActive(job) ? (
            <button type="button" className="btn" onClick={() => actions.cancel.mutate(job.id)}>
              Cancel export
            </button>
          ) : null}
          {job.resumable && !isActive(job) ? (
            <button type="button" className="btn btn--primary" onClick={() => resume(job.id)}>
              Resume
            </button>
          ) : null}
          <button type="button" className="btn" onClick={() => ref.current?.close()}>
            {isActive(job) ? 'Hide (keeps running)' : 'Close'}
          </button>
        </div>
      ) : null}

      <RunningExports jobs={running} onCancel={(id) => actions.cancel.mutate(id)} />

      {unfinished.length > 0 ? (
        <section className="export__unfinished" aria-label="Unfinished exports">
          <h3>Unfinished exports</h3>
          <ul>
            {unfinished.map((j) => (
              <li key={j.id}>
                <span>
                  <strong>{j.view.title ?? OPERATIONS[j.view.operation].title}</strong> → {fileName(j.files[0] ?? '')}
                  <br />
                  <span className="muted">{describeJob(j)}</span>
                  {j.unrecorded ? (
                    <>
                      <br />
                      <span className="muted">Not kept in the project yet: {j.unrecorded.error.message}</span>
                    </>
                  ) : null}
                </span>
                <span className="export__row-buttons">
                  {j.unrecorded ? (
                    <button type="button" className="btn btn--small" onClick={() => setJobId(j.id)}>
                      Keep in project…
                    </button>
                  ) : null}
                  {j.resumable ? (
                    <button type="button" className="btn btn--small" onClick={() => resume(j.id)}>
                      Resume
                    </button>
                  ) : null}
                  <button type="button" className="btn btn--small" onClick={() => actions.discard.mutate(j.id)}>
                    Discard
                  </button>
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <UnreadExports />
    </dialog>
  );
}
