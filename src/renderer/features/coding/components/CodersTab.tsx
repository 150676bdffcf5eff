/**
 * Coders: people and models. A person codes at a computer: Skein remembers who (main keeps it), coding as
 * someone else is a confirmed, recorded switch, and a colleague elsewhere codes in a team project or through a
 * .qdpx out and back. A model coder is a model
 * behind an OpenAI-compatible endpoint with a prompt per field; off until an endpoint is chosen (in demo mode,
 * the sandbox's deterministic stand-in). The endpoint's key is kept like the API key and never shown again.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { isCompared } from '../../../../shared/coding/codebook';
import type { Coder } from '../../../../shared/coding/records';
import type { ModelEndpoint } from '../../../../shared/ipc/coding';
import {
  codersQuery,
  modelEndpointQuery,
  useAddCoder,
  useClearModelKey,
  useCodebook,
  useSetModelEndpoint,
  useUpdateCoder,
} from '../queries';
import { useForm } from '../../../lib/use-form';
import { endpointFields, endpointRequest, modelCoderFields, modelSettings } from '../form';
import { useCodingSelection } from '../selection';
import { navigate } from '../../../lib/navigation';
import { routes } from '../../../lib/routes';
import { SwitchCoder, useCoderHere } from './CoderHere';
import { coderName, Problem } from './parts';

function Endpoint() {
  const endpoint = useQuery(modelEndpointQuery());
  // keyed by what main says: a change there starts the form afresh
  return <EndpointForm key={JSON.stringify(endpoint.data ?? null)} endpoint={endpoint.data} />;
}

function EndpointForm({ endpoint }: { endpoint: ModelEndpoint | undefined }) {
  const set = useSetModelEndpoint();
  const clear = useClearModelKey();
  const [form, change] = useForm(() => endpointFields(endpoint));
  return (
    <section className="coding-section" aria-labelledby="coding-endpoint">
      <h2 id="coding-endpoint">Model endpoint</h2>
      <p className="muted">
        Model coders send each item’s text and the field’s prompt to this endpoint, one call per item and field. Off
        unless chosen here.
      </p>
      <fieldset className="coding-radios">
        <legend className="visually-hidden">Where model calls go</legend>
        {(
          [
            ['none', 'Off'],
            ['demo', 'Demo stand-in (the sandbox’s deterministic model, offline, free)'],
            ['custom', 'An OpenAI-compatible endpoint (Ollama, llama.cpp, a hosted service)'],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="coding-radio">
            <input
              type="radio"
              name="model-endpoint"
              value={value}
              checked={form.kind === value}
              onChange={() => change({ kind: value })}
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      {form.kind === 'custom' ? (
        <div className="coding-row">
          <label className="field">
            <span>Base URL</span>
            <input
              className="input"
              value={form.baseUrl}
              onChange={(e) => change({ baseUrl: e.target.value })}
              spellCheck={false}
            />
          </label>
          <label className="field">
            <span>{endpoint?.key.configured ? 'Replace key (optional)' : 'Key (none for a local server)'}</span>
            <input
              className="input"
              type="password"
              autoComplete="off"
              value={form.key}
              onChange={(e) => change({ key: e.target.value })}
            />
          </label>
        </div>
      ) : null}
      <div className="coding-row">
        <button
          type="button"
          className="btn btn--primary"
          disabled={set.isPending}
          onClick={() => set.mutate(endpointRequest(form), { onSuccess: () => change({ key: '' }) })}
        >
          Use this endpoint
        </button>
        {endpoint?.key.configured ? (
          <button type="button" className="btn" onClick={() => clear.mutate()}>
            Remove the key
          </button>
        ) : null}
      </div>
      {endpoint ? (
        <p className="muted" data-testid="model-endpoint">
          Now: {endpoint.kind === 'none' ? 'off' : endpoint.kind === 'demo' ? 'the demo stand-in' : endpoint.baseUrl}.
          Key: {endpoint.key.configured ? `set. ${endpoint.key.reason}` : 'none.'}
        </p>
      ) : null}
      {endpoint?.unreadKind ? (
        <p className="note" role="note">
          {endpoint.unreadKind === 'custom'
            ? 'The endpoint set up before has an address this Skein cannot read (a newer Skein’s settings, or a damaged file).'
            : `A newer Skein set up a kind of endpoint this Skein cannot use (“${endpoint.unreadKind}”).`}{' '}
          It is off here and kept as it was; choosing an endpoint here replaces it.
        </p>
      ) : null}
      <Problem error={set.error ?? clear.error} />
    </section>
  );
}

function ModelForm({ coder, onDone }: { coder?: Coder; onDone: () => void }) {
  const { codebook } = useCodingSelection();
  const book = useCodebook(codebook);
  const fields = book.data?.versions.at(-1)?.definition.fields.filter((f) => isCompared(f) || f.type === 'text') ?? [];
  const add = useAddCoder();
  const update = useUpdateCoder();
  const [form, change] = useForm(() => modelCoderFields(coder));
  const { name } = form;
  const settings = modelSettings(form);
  return (
    <form
      className="coding-model-form"
      aria-label={coder ? `Settings of ${coder.name}` : 'New model coder'}
      onSubmit={(e) => {
        e.preventDefault();
        if (coder) update.mutate({ id: coder.id, name, model: settings }, { onSuccess: onDone });
        else add.mutate({ name, kind: 'model', model: settings }, { onSuccess: onDone });
      }}
    >
      <div className="coding-row">
        <label className="field">
          <span>Coder name</span>
          <input className="input" value={form.name} onChange={(e) => change({ name: e.target.value })} />
        </label>
        <label className="field">
          <span>Model</span>
          <input
            className="input"
            value={form.model}
            onChange={(e) => change({ model: e.target.value })}
            spellCheck={false}
          />
        </label>
        <label className="field">
          <span>Temperature</span>
          <input
            className="input coding-input--short"
            inputMode="decimal"
            value={form.temperature}
            onChange={(e) => change({ temperature: e.target.value })}
          />
        </label>
      </div>
      {fields.map((f) => (
        <label key={f.key} className="field">
          <span>Prompt for {f.label} (empty: the model leaves it)</span>
          <textarea
            className="textarea"
            rows={2}
            value={form.prompts[f.key] ?? ''}
            onChange={(e) => change({ prompts: { ...form.prompts, [f.key]: e.target.value } })}
          />
        </label>
      ))}
      {fields.length === 0 ? <p className="muted">Write a codebook first: prompts are per field.</p> : null}
      <button type="submit" className="btn btn--primary">
        {coder ? 'Save settings' : 'Add model coder'}
      </button>
      <Problem error={add.error ?? update.error} />
    </form>
  );
}

/** How a colleague on another computer codes: the two ways, each a link to where it is done. */
function Elsewhere() {
  return (
    <section className="coding-section" aria-labelledby="coding-elsewhere">
      <h2 id="coding-elsewhere">A colleague on another computer</h2>
      <p className="muted">
        Each person codes at their own computer, as themselves: Skein remembers who codes at this one. To code with a
        colleague elsewhere, either:
      </p>
      <ol className="coders__ways">
        <li>
          <strong>Share a team project.</strong> Keep the project on your team’s PostgreSQL server; each of you opens it
          in Skein, adds themselves here once and codes. Values, samples and agreement are shared as you go.{' '}
          <button type="button" className="btn btn--small" onClick={() => navigate(routes.archive())}>
            Open the project panel (Archive)
          </button>
        </li>
        <li>
          <strong>Send a .qdpx and take it back.</strong> Export the codebook and sample as a REFI-QDA project; your
          colleague imports it into their Skein (or QualCoder, MAXQDA, NVivo, ATLAS.ti), codes, and sends their .qdpx
          back; importing it here adds their values under their name.{' '}
          <button type="button" className="btn btn--small" onClick={() => navigate(routes.coding('files'))}>
            Export or import a .qdpx (Files)
          </button>
        </li>
      </ol>
    </section>
  );
}

export function CodersTab() {
  const coders = useQuery(codersQuery());
  const add = useAddCoder();
  const { coder: me } = useCodingSelection();
  const here = useCoderHere();
  const [name, setName] = useState('');
  const [modelOpen, setModelOpen] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  return (
    <div className="coders">
      <section className="coding-section" aria-labelledby="coding-people">
        <h2 id="coding-people">Coders</h2>
        <ul className="coders__list">
          {coders.data?.map((c) => (
            <li key={c.id} className="coders__item">
              <strong>{c.name}</strong>{' '}
              <span className="chip">
                {c.kind === 'model' ? `model · ${c.model?.model ?? 'settings this Skein cannot read'}` : 'person'}
              </span>{' '}
              <span className="muted">
                {c.revealedAt === null
                  ? 'blind'
                  : `saw agreement ${new Date(c.revealedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`}
              </span>
              {c.kind === 'person' ? (
                me === c.id ? (
                  <span className="chip">coding at this computer</span>
                ) : me !== null ? (
                  <SwitchCoder label={`Switch to ${c.name}…`} to={c.id} />
                ) : null
              ) : (
                <button
                  type="button"
                  className="btn btn--small"
                  onClick={() => setEditing(editing === c.id ? null : c.id)}
                >
                  Prompts and settings
                </button>
              )}
              {editing === c.id ? <ModelForm coder={c} onDone={() => setEditing(null)} /> : null}
            </li>
          ))}
        </ul>
        <form
          className="coding-row"
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim())
              add.mutate(
                { name: name.trim(), kind: 'person' },
                {
                  onSuccess: () => setName(''),
                },
              );
          }}
        >
          <label className="field">
            <span>New coder’s name</span>
            <input className="input" value={name} maxLength={80} onChange={(e) => setName(e.target.value)} />
          </label>
          <button type="submit" className="btn btn--primary" disabled={!name.trim()}>
            Add coder
          </button>
          <button type="button" className="btn" onClick={() => setModelOpen(!modelOpen)}>
            {modelOpen ? 'Close' : 'Add a model coder…'}
          </button>
        </form>
        <Problem error={add.error} />
        {modelOpen ? <ModelForm onDone={() => setModelOpen(false)} /> : null}
        {here.data?.switches.length ? (
          <details className="coders__switches">
            <summary>Switches recorded in this project ({here.data.switches.length})</summary>
            <ul>
              {here.data.switches.map((s) => (
                <li key={`${s.at}:${s.to}`}>
                  {new Date(s.at).toISOString().slice(0, 16).replace('T', ' ')} UTC:{' '}
                  {s.from === null
                    ? `${coderName(coders.data, s.to)} began coding`
                    : `${coderName(coders.data, s.from)} → ${coderName(coders.data, s.to)}`}
                  {s.researcher ? ` (at ${s.researcher}’s Skein)` : ''}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </section>
      <Elsewhere />
      <Endpoint />
    </div>
  );
}
