/**
 * Drawing a coding sample from what the project holds (an archive search: words, author, language, a
 * collection), at random with a seed or stratified by day, week, month, author, language or type; its size
 * with what it represents (the share of the source, the margin of error of a share); assigned to coders with
 * overlap. A model coder assigned to a sample codes its queue from here, after saying how many calls it makes.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { marginOfError } from '../../../../shared/coding/margin';
import type { SampleMethod, Stratum } from '../../../../shared/coding/records';
import { collectionsQuery } from '../../archive';
import {
  codersQuery,
  useCancelModelRun,
  useDrawSample,
  useModelRuns,
  usePopulation,
  useRunModel,
  useSamples,
  type SampleSource,
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
  const models = (coders.data ?? []).filter((c) => c.kind === 'model' && s?.definition.coders.includes(c.id));
  if (models.length === 0 || codebook === null) return null;
  return (
    <div className="coding-models">
      {models.map((m) => {
        const last = runs.data?.find((r) => r.coder === m.id && r.sample === sample);
        const assigned = s?.progress.find((p) => p.coder === m.id)?.assigned ?? 0;
        const fields = Object.values(m.model?.prompts ?? {}).filter((p) => p.trim() !== '').length;
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
  const [name, setName] = useState('Sample 1');
  const [text, setText] = useState('');
  const [author, setAuthor] = useState('');
  const [collection, setCollection] = useState('');
  const [kind, setKind] = useState<'post' | 'user'>('post');
  const [method, setMethod] = useState<SampleMethod>('stratified');
  const [stratum, setStratum] = useState<Stratum>('day');
  const [size, setSize] = useState('100');
  const [seed, setSeed] = useState(randomSeed);
  const [overlap, setOverlap] = useState('20');
  const [chosen, setChosen] = useState<number[]>([]);
  const source: SampleSource = useMemo(
    () => ({
      kind,
      text: text.trim(),
      ...(author.trim() ? { author: author.trim().replace(/^@/, '') } : {}),
      ...(collection ? { collection: Number(collection) } : {}),
    }),
    [kind, text, author, collection],
  );
  const population = usePopulation(source, method === 'stratified' ? stratum : null);
  const n = Math.max(0, Math.floor(Number(size) || 0));
  const total = population.data?.total ?? 0;
  const drawn = Math.min(n, total);
  const moe = marginOfError(drawn, total);
  const noun = kind === 'user' ? 'accounts' : 'posts';
  const shared = chosen.length > 1 ? Math.round((drawn * (Number(overlap) || 0)) / 100) : 0;

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
            draw.mutate(
              {
                codebook,
                name: name.trim() || 'Sample',
                source,
                size: n,
                seed,
                method,
                ...(method === 'stratified' ? { stratum } : {}),
                coders: chosen,
                overlap: (Number(overlap) || 0) / 100,
              },
              { onSuccess: (s) => chooseSample(s.id) },
            );
          }}
        >
          <div className="coding-row">
            <label className="field">
              <span>Name</span>
              <input className="input" value={name} maxLength={120} onChange={(e) => setName(e.target.value)} />
            </label>
            <label className="field">
              <span>Items</span>
              <select className="select" value={kind} onChange={(e) => setKind(e.target.value as 'post' | 'user')}>
                <option value="post">Posts</option>
                <option value="user">Accounts</option>
              </select>
            </label>
            <label className="field">
              <span>Words (archive search)</span>
              <input
                className="input"
                value={text}
                maxLength={500}
                onChange={(e) => setText(e.target.value)}
                placeholder="any"
              />
            </label>
            <label className="field">
              <span>Author</span>
              <input
                className="input"
                value={author}
                maxLength={64}
                onChange={(e) => setAuthor(e.target.value)}
                placeholder="@handle"
              />
            </label>
            <label className="field">
              <span>Collection</span>
              <select className="select" value={collection} onChange={(e) => setCollection(e.target.value)}>
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
              <select className="select" value={method} onChange={(e) => setMethod(e.target.value as SampleMethod)}>
                <option value="random">at random</option>
                <option value="stratified">stratified</option>
              </select>
            </label>
            {method === 'stratified' ? (
              <label className="field">
                <span>Stratified by</span>
                <select className="select" value={stratum} onChange={(e) => setStratum(e.target.value as Stratum)}>
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
                value={size}
                onChange={(e) => setSize(e.target.value)}
              />
            </label>
            <label className="field">
              <span>Seed</span>
              <input className="input" value={seed} maxLength={100} onChange={(e) => setSeed(e.target.value)} />
            </label>
            <label className="field">
              <span>Double-coded (%)</span>
              <input
                className="input coding-input--short"
                inputMode="numeric"
                value={overlap}
                onChange={(e) => setOverlap(e.target.value)}
              />
            </label>
          </div>
          <fieldset className="samples__coders">
            <legend>Assigned to</legend>
            {coders.data?.map((c) => (
              <label key={c.id} className="coding-radio">
                <input
                  type="checkbox"
                  checked={chosen.includes(c.id)}
                  onChange={(e) => setChosen(e.target.checked ? [...chosen, c.id] : chosen.filter((x) => x !== c.id))}
                />{' '}
                {c.name}
                {c.kind === 'model' ? ' (model)' : ''}
              </label>
            ))}
            {coders.data?.length ? null : <p className="muted">Add coders first (Coders tab).</p>}
          </fieldset>
          <p role="status" className="samples__represents" data-testid="sample-represents">
            {population.data
              ? `The source, ${population.data.label}, holds ${total.toLocaleString()} ${noun}. ${drawn.toLocaleString()} of them is ${total ? ((drawn / total) * 100).toFixed(1) : '0'} %${moe !== null && drawn > 0 ? `; a share measured on it is within ±${(moe * 100).toFixed(1)} points (95 %)` : ''}.${chosen.length > 1 ? ` ${shared} double-coded by all ${chosen.length} coders, the rest dealt out: about ${Math.ceil((drawn - shared) / chosen.length) + shared} each.` : ''}`
              : 'Counting…'}
          </p>
          {method === 'stratified' && population.data?.strata.length ? (
            <details className="samples__strata">
              <summary>
                {population.data.strataCount} strata (proportional allocation: each as large a share of the sample as of
                the source)
              </summary>
              <ul>
                {population.data.strata.slice(0, 30).map((s) => (
                  <li key={s.value}>
                    {s.value}: {s.count.toLocaleString()} → about {total ? Math.round((s.count * drawn) / total) : 0}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
          <button
            type="submit"
            className="btn btn--primary"
            disabled={draw.isPending || chosen.length === 0 || drawn === 0}
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
              <strong>{s.name}</strong> · {s.items} {s.definition.kind === 'user' ? 'accounts' : 'posts'} of{' '}
              {s.definition.population.toLocaleString()} ·{' '}
              {s.definition.method === 'stratified' ? `stratified by ${s.definition.stratum}` : 'random'} · seed “
              {s.definition.seed}” · {Math.round(s.definition.overlap * 100)} % double-coded
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
