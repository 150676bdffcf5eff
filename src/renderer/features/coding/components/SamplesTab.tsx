/**
 * Drawing a coding sample from what the project holds (an archive search: words, author, language, a
 * collection), at random with a seed or stratified by day, week, month, author, language or type; its size
 * with what it represents (the share of the source, the margin of error of a share); assigned to coders with
 * overlap. A model coder assigned to a sample codes its queue from here, after saying how many calls it makes.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { SampleMethod, SampleSummary, Stratum } from '../../../../shared/coding/records';
import { useForm } from '../../../lib/use-form';
import { collectionsQuery } from '../../archive';
import {
  drawnCount,
  drawRequest,
  newSample,
  representsWords,
  sampleProblem,
  sampleSource,
  stratumShare,
  withCoder,
} from '../form';
import {
  codersQuery,
  useCancelModelRun,
  useDrawSample,
  useModelRuns,
  usePopulation,
  useRunModel,
  useSamples,
} from '../queries';
import { useCodingSelection } from '../selection';
import { coderName, Problem } from './parts';

const STRATA: ReadonlyArray<[Stratum, string]> = [
  ['day', 'day (UTC)'],
  ['week', 'week'],
  ['month', 'month'],
  ['author', 'author'],
  ['lang', 'language'],
  ['type', 'type (original, reply, quote, repost)'],
];

function randomSeed(): string {
  const words = ['heron', 'river', 'maple', 'delta', 'ember', 'harbor', 'willow', 'quartz', 'meadow', 'comet'];
  const a = crypto.getRandomValues(new Uint32Array(2));
  return `${words[a[0]! % words.length]}-${a[1]! % 10000}`;
}

function ModelRuns({ sample }: { sample: number }) {
  const { codebook } = useCodingSelection();
  const coders = useQuery(codersQuery());
  const runs = useModelRuns();
  const run = useRunModel();
  const [asking, setAsking] = useState<number | null>(null);
  const cancel = useCancelModelRun();
  const samples = useSamples(codebook);
  const s = samples.data?.find((x) => x.id === sample);
  // the coders it was drawn for; of a drawing this Skein cannot read, those it assigned items to
  const drawnFor = s?.definition?.coders ?? s?.progress.map((p) => p.coder) ?? [];
  const models = (coders.data ?? []).filter((c) => c.kind === 'model' && drawnFor.includes(c.id));
  if (models.length === 0 || codebook === null) return null;
  return (
    <div className="coding-models">
      {models.map((m) => {
        const last = runs.data?.find((r) => r.coder === m.id && r.sample === sample);
        const assigned = s?.progress.find((p) => p.coder === m.id)?.assigned ?? 0;
        const fields = Object.values(m.model?.prompts ?? {}).filter((p) => p.trim() !== '').length;
        if (!m.model)
          return (
            <div key={m.id} className="coding-row">
              <span>
                {m.name}: this Skein cannot read its model settings (a newer Skein may have set them), so it does not
                run it here. Its values are kept; setting its model again under Coders replaces the settings.
              </span>
            </div>
          );
        return (
          <div key={m.id} className="coding-row">
            <span>
              {m.name} ({m.model?.model}): at most {assigned * fields} calls ({assigned} items × {fields} fields with a
              prompt); values it made already are not asked again.
            </span>
            {last?.status === 'running' ? (
              <>
                <span role="status">
                  Coding… {last.done} of {last.planned}
                </span>
                <button type="button" className="btn btn--small" onClick={() => cancel.mutate(last.id)}>
                  Stop
                </button>
              </>
            ) : asking === m.id ? (
              <>
                <span>Send up to {assigned * fields} items’ texts to the model endpoint?</span>
                <button
                  type="button"
                  className="btn btn--small btn--primary"
                  onClick={() => {
                    setAsking(null);
                    run.mutate({ codebook, sample, coder: m.id });
                  }}
                >
                  Yes, run {m.name}
                </button>
                <button type="button" className="btn btn--small" onClick={() => setAsking(null)}>
                  Cancel
                </button>
              </>
            ) : (
              <button type="button" className="btn btn--small" onClick={() => setAsking(m.id)}>
                Run {m.name}
              </button>
            )}
            {last && last.status !== 'running' ? (
              <span className="muted" role="status">
                Last run {last.status}: {last.done} asked, {last.skipped} already coded, {last.unusable} answers that
                named no category
                {last.error ? `. ${last.error}` : ''}.
              </span>
            ) : null}
          </div>
        );
      })}
      <Problem error={run.error} />
    </div>
  );
}

export function SamplesTab() {
  const { codebook, chooseSample } = useCodingSelection();
  const coders = useQuery(codersQuery());
  const collections = useQuery(collectionsQuery());
  const samples = useSamples(codebook);
  const draw = useDrawSample();
  const [form, change] = useForm(() => newSample(randomSeed()));
  // the population query is keyed by the source's value, so a new object each render asks nothing again
  const population = usePopulation(sampleSource(form), form.method === 'stratified' ? form.stratum : null);
  const total = population.data?.total ?? 0;
  const drawn = drawnCount(form, total);

  if (codebook === null) return <p className="coding__empty">Write a codebook first: a sample is coded with one.</p>;
  return (
    <div className="samples">
      <section className="coding-section" aria-labelledby="coding-draw">
        <h2 id="coding-draw">Draw a sample</h2>
        <form
          className="samples__form"
          aria-label="Draw a sample"
          onSubmit={(e) => {
            e.preventDefault();
            draw.mutate(drawRequest(form, codebook), { onSuccess: (s) => chooseSample(s.id) });
          }}
        >
          <div className="coding-row">
            <label className="field">
              <span>Name</span>
              <input
                className="input"
                value={form.name}
                maxLength={120}
                onChange={(e) => change({ name: e.target.value })}
              />
            </label>
            <label className="field">
              <span>Items</span>
              <select
                className="select"
                value={form.kind}
                onChange={(e) => change({ kind: e.target.value as 'post' | 'user' })}
              >
                <option value="post">Posts</option>
                <option value="user">Accounts</option>
              </select>
            </label>
            <label className="field">
              <span>Words (archive search)</span>
              <input
                className="input"
                value={form.text}
                maxLength={500}
                onChange={(e) => change({ text: e.target.value })}
                placeholder="any"
              />
            </label>
            <label className="field">
              <span>Author</span>
              <input
                className="input"
                value={form.author}
                maxLength={64}
                onChange={(e) => change({ author: e.target.value })}
                placeholder="@handle"
              />
            </label>
            <label className="field">
              <span>Collection</span>
              <select
                className="select"
                value={form.collection}
                onChange={(e) => change({ collection: e.target.value })}
              >
                <option value="">the whole project</option>
                {collections.data?.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name} ({c.items})
                  </option>
                ))}
              </select>
            </label>
          </div>
          <div className="coding-row">
            <label className="field">
              <span>Drawn</span>
              <select
                className="select"
                value={form.method}
                onChange={(e) => change({ method: e.target.value as SampleMethod })}
              >
                <option value="random">at random</option>
                <option value="stratified">stratified</option>
              </select>
            </label>
            {form.method === 'stratified' ? (
              <label className="field">
                <span>Stratified by</span>
                <select
                  className="select"
                  value={form.stratum}
                  onChange={(e) => change({ stratum: e.target.value as Stratum })}
                >
                  {STRATA.map(([v, label]) => (
                    <option key={v} value={v}>
                      {label}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            <label className="field">
              <span>Size</span>
              <input
                className="input coding-input--short"
                inputMode="numeric"
                value={form.size}
                onChange={(e) => change({ size: e.target.value })}
              />
            </label>
            <label className="field">
              <span>Seed</span>
              <input
                className="input"
                value={form.seed}
                maxLength={100}
                onChange={(e) => change({ seed: e.target.value })}
              />
            </label>
            <label className="field">
              <span>Double-coded (%)</span>
              <input
                className="input coding-input--short"
                inputMode="numeric"
                value={form.overlap}
                onChange={(e) => change({ overlap: e.target.value })}
              />
            </label>
          </div>
          <fieldset className="samples__coders">
            <legend>Assigned to</legend>
            {coders.data?.map((c) => (
              <label key={c.id} className="coding-radio">
                <input
                  type="checkbox"
                  checked={form.coders.includes(c.id)}
                  onChange={(e) => change({ coders: withCoder(form.coders, c.id, e.target.checked) })}
                />{' '}
                {c.name}
                {c.kind === 'model' ? ' (model)' : ''}
              </label>
            ))}
            {coders.data?.length ? null : <p className="muted">Add coders first (Coders tab).</p>}
          </fieldset>
          <p role="status" className="samples__represents" data-testid="sample-represents">
            {representsWords(form, population.data)}
          </p>
          {form.method === 'stratified' && population.data?.strata.length ? (
            <details className="samples__strata">
              <summary>
                {population.data.strataCount} strata (proportional allocation: each as large a share of the sample as of
                the source)
              </summary>
              <ul>
                {population.data.strata.slice(0, 30).map((s) => (
                  <li key={s.value}>
                    {s.value}: {s.count.toLocaleString()} → about {stratumShare(s.count, drawn, total)}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
          <button
            type="submit"
            className="btn btn--primary"
            disabled={draw.isPending || sampleProblem(form, total) !== null}
          >
            Draw and assign
          </button>
          <Problem error={draw.error} />
        </form>
      </section>

      <section className="coding-section" aria-labelledby="coding-samples">
        <h2 id="coding-samples">Samples of this codebook</h2>
        {samples.data?.length === 0 ? <p className="muted">None yet.</p> : null}
        <ul className="samples__list">
          {samples.data?.map((s) => (
            <li key={s.id} className="samples__item" aria-label={`Sample ${s.name}`}>
              <strong>{s.name}</strong> · <SampleLine sample={s} />
              <ul>
                {s.progress.map((p) => (
                  <li key={p.coder}>
                    {coderName(coders.data, p.coder)}: {p.done} of {p.assigned} done
                  </li>
                ))}
              </ul>
              <ModelRuns sample={s.id} />
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

/** how a sample was drawn, in one line; one this Skein cannot read said so */
function SampleLine({ sample: s }: { sample: SampleSummary }) {
  const d = s.definition;
  if (!d)
    return (
      <>
        {s.items} items · drawn in a way this Skein cannot read (a newer Skein may have drawn it); its items code as
        usual
      </>
    );
  return (
    <>
      {s.items} {d.kind === 'user' ? 'accounts' : 'posts'} of {d.population.toLocaleString()} ·{' '}
      {d.method === 'stratified' ? `stratified by ${d.stratum}` : 'random'} · seed “{d.seed}” ·{' '}
      {Math.round(d.overlap * 100)} % double-coded
    </>
  );
}
