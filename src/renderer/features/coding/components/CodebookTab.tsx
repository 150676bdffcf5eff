/**
 * The codebook editor: fields (category — single or multiple choice —, ordinal scale, text, note), each
 * category with its description, examples and key. Saving a change after values were made under the current
 * version makes a new version; the old values keep theirs. Import and export as REFI-QDA `.qdc` or CSV.
 */
import { useId, useState } from 'react';
import type { CodebookDefinition, CodebookDefinitionInput, FieldType } from '../../../../shared/coding/codebook';
import type { Codebook } from '../../../../shared/coding/records';
import { useCodebook, useExport, useImportFile, useSaveCodebook } from '../queries';
import { useCodingSelection } from '../selection';
import { Problem } from './parts';

type DraftCategory = { value: string; label: string; description: string; examples: string; key: string };
type DraftField = {
  key: string;
  label: string;
  description: string;
  type: FieldType;
  multiple: boolean;
  categories: DraftCategory[];
};

const STARTER: DraftField[] = [
  {
    key: 'stance',
    label: 'Stance',
    description: 'What the post says about the claim it answers.',
    type: 'category',
    multiple: false,
    categories: [
      { value: 'support', label: 'Supports', description: '', examples: '', key: '' },
      { value: 'oppose', label: 'Opposes', description: '', examples: '', key: '' },
      { value: 'neutral', label: 'Neither', description: '', examples: '', key: '' },
    ],
  },
];

function toDraft(def: CodebookDefinition): DraftField[] {
  return def.fields.map((f) => ({
    key: f.key,
    label: f.label,
    description: f.description,
    type: f.type,
    multiple: f.multiple,
    categories: f.categories.map((c) => ({
      value: c.value,
      label: c.label,
      description: c.description,
      examples: c.examples.join('\n'),
      key: c.key ?? '',
    })),
  }));
}

function fromDraft(fields: DraftField[]): CodebookDefinitionInput {
  return {
    fields: fields.map((f) => ({
      key: f.key.trim(),
      label: f.label.trim(),
      description: f.description,
      type: f.type,
      multiple: f.type === 'category' && f.multiple,
      categories:
        f.type === 'category' || f.type === 'ordinal'
          ? f.categories.map((c) => ({
              value: c.value.trim(),
              label: c.label.trim() || c.value.trim(),
              description: c.description,
              examples: c.examples
                .split('\n')
                .map((x) => x.trim())
                .filter(Boolean),
              ...(c.key.trim() ? { key: c.key.trim().toLowerCase() } : {}),
            }))
          : [],
    })),
  };
}

function CategoryRow({
  c,
  onChange,
  onRemove,
  index,
}: {
  c: DraftCategory;
  onChange: (c: DraftCategory) => void;
  onRemove: () => void;
  index: number;
}) {
  return (
    <li className="codebook-category">
      <input
        className="input codebook-category__value"
        aria-label={`Category ${index + 1} value`}
        value={c.value}
        onChange={(e) => onChange({ ...c, value: e.target.value })}
        placeholder="value"
      />
      <input
        className="input codebook-category__label"
        aria-label={`Category ${index + 1} label`}
        value={c.label}
        onChange={(e) => onChange({ ...c, label: e.target.value })}
        placeholder="label"
      />
      <input
        className="input codebook-category__key"
        aria-label={`Category ${index + 1} key`}
        value={c.key}
        maxLength={1}
        onChange={(e) => onChange({ ...c, key: e.target.value })}
        placeholder="key"
      />
      <input
        className="input codebook-category__description"
        aria-label={`Category ${index + 1} description`}
        value={c.description}
        onChange={(e) => onChange({ ...c, description: e.target.value })}
        placeholder="description"
      />
      <textarea
        className="textarea codebook-category__examples"
        rows={1}
        aria-label={`Category ${index + 1} examples, one per line`}
        value={c.examples}
        onChange={(e) => onChange({ ...c, examples: e.target.value })}
        placeholder="examples, one per line"
      />
      <button
        type="button"
        className="btn btn--small codebook-category__remove"
        aria-label={`Remove category ${index + 1}`}
        onClick={onRemove}
      >
        Remove
      </button>
    </li>
  );
}

function FieldEditor({
  f,
  index,
  onChange,
  onRemove,
}: {
  f: DraftField;
  index: number;
  onChange: (f: DraftField) => void;
  onRemove: () => void;
}) {
  const choosing = f.type === 'category' || f.type === 'ordinal';
  return (
    <fieldset className="codebook-field">
      <legend>Field {index + 1}</legend>
      <div className="codebook-field__head">
        <label className="field">
          <span>Label</span>
          <input className="input" value={f.label} onChange={(e) => onChange({ ...f, label: e.target.value })} />
        </label>
        <label className="field">
          <span>Column name</span>
          <input
            className="input"
            value={f.key}
            onChange={(e) => onChange({ ...f, key: e.target.value })}
            placeholder="stance"
          />
        </label>
        <label className="field">
          <span>Type</span>
          <select
            className="select"
            value={f.type}
            onChange={(e) => onChange({ ...f, type: e.target.value as FieldType })}
          >
            <option value="category">Category</option>
            <option value="ordinal">Ordinal scale</option>
            <option value="text">Free text</option>
            <option value="note">Note (not compared)</option>
          </select>
        </label>
        {f.type === 'category' ? (
          <label className="codebook-field__multiple">
            <input
              type="checkbox"
              checked={f.multiple}
              onChange={(e) => onChange({ ...f, multiple: e.target.checked })}
            />{' '}
            Several may apply
          </label>
        ) : null}
        <button type="button" className="btn btn--small" onClick={onRemove}>
          Remove field
        </button>
      </div>
      <label className="field">
        <span>Description (what coders read)</span>
        <textarea
          className="textarea"
          rows={2}
          value={f.description}
          onChange={(e) => onChange({ ...f, description: e.target.value })}
        />
      </label>
      {choosing ? (
        <>
          <p className="muted">{f.type === 'ordinal' ? 'Levels, lowest first:' : 'Categories:'}</p>
          {/* once filled, the inputs' placeholders are gone: the columns keep saying which is which */}
          {f.categories.length ? (
            <div className="codebook-category codebook-category--head" aria-hidden="true">
              <span className="codebook-category__value">Value in the data</span>
              <span className="codebook-category__label">Label coders see</span>
              <span className="codebook-category__key">Key</span>
            </div>
          ) : null}
          <ol className="codebook-categories">
            {f.categories.map((c, i) => (
              <CategoryRow
                key={i}
                index={i}
                c={c}
                onChange={(next) => onChange({ ...f, categories: f.categories.map((x, j) => (j === i ? next : x)) })}
                onRemove={() => onChange({ ...f, categories: f.categories.filter((_, j) => j !== i) })}
              />
            ))}
          </ol>
          <button
            type="button"
            className="btn btn--small"
            onClick={() =>
              onChange({
                ...f,
                categories: [...f.categories, { value: '', label: '', description: '', examples: '', key: '' }],
              })
            }
          >
            Add {f.type === 'ordinal' ? 'a level' : 'a category'}
          </button>
        </>
      ) : null}
    </fieldset>
  );
}

export function CodebookTab() {
  const { codebook } = useCodingSelection();
  const book = useCodebook(codebook);
  const save = useSaveCodebook();
  const [creating, setCreating] = useState(false);
  // one this Skein cannot open (a newer Skein's) says why, and a new codebook can still be made
  if (codebook !== null && !creating && book.isError)
    return (
      <>
        <Problem error={book.error} />
        <p>
          <button type="button" className="btn" onClick={() => setCreating(true)}>
            New codebook
          </button>
        </p>
      </>
    );
  if (codebook !== null && !creating && !book.data) return <p className="muted">Loading the codebook…</p>;
  const current = creating ? undefined : book.data?.versions.at(-1);
  return (
    <CodebookEditor
      key={creating || codebook === null ? 'new' : `${codebook}:${current?.version ?? 0}:${book.dataUpdatedAt}`}
      book={creating ? undefined : book.data}
      creating={creating || codebook === null}
      onCreating={setCreating}
      save={save}
    />
  );
}

function CodebookEditor({
  book,
  creating,
  onCreating,
  save,
}: {
  book: Codebook | undefined;
  creating: boolean;
  onCreating: (on: boolean) => void;
  /** kept by the tab: the editor starts afresh on the version it saved, the outcome stays said */
  save: ReturnType<typeof useSaveCodebook>;
}) {
  const { codebook, chooseCodebook } = useCodingSelection();
  const exporter = useExport();
  const importer = useImportFile();
  const current = book?.versions.at(-1);
  const [name, setName] = useState(book?.name ?? 'Codebook');
  const [note, setNote] = useState('');
  const [fields, setFields] = useState<DraftField[]>(current ? toDraft(current.definition) : STARTER);
  const fileId = useId();
  const editing = !creating && codebook !== null;
  const onSave = () =>
    save.mutate(
      { ...(editing ? { id: codebook } : {}), name, definition: fromDraft(fields), note },
      {
        onSuccess: (cb) => {
          onCreating(false);
          setNote('');
          chooseCodebook(cb.id);
        },
      },
    );

  return (
    <div className="codebook">
      <div className="codebook__bar">
        <label className="field">
          <span>Codebook name</span>
          <input className="input" value={name} maxLength={120} onChange={(e) => setName(e.target.value)} />
        </label>
        {editing ? (
          <button type="button" className="btn" onClick={() => onCreating(true)}>
            New codebook
          </button>
        ) : codebook !== null ? (
          <button type="button" className="btn" onClick={() => onCreating(false)}>
            Back to the codebook
          </button>
        ) : null}
      </div>
      {editing && book ? (
        <p className="muted" data-testid="codebook-version">
          Version {book.version}
          {book.codings > 0
            ? ` · ${book.codings} values coded. A change to a version values were made under is saved as the next version; every value keeps the version it was made under.`
            : ' · nothing coded yet: changes replace this version.'}
        </p>
      ) : null}
      {fields.map((f, i) => (
        <FieldEditor
          key={i}
          f={f}
          index={i}
          onChange={(next) => setFields(fields.map((x, j) => (j === i ? next : x)))}
          onRemove={() => setFields(fields.filter((_, j) => j !== i))}
        />
      ))}
      <div className="codebook__actions">
        <button
          type="button"
          className="btn"
          onClick={() =>
            setFields([
              ...fields,
              { key: '', label: '', description: '', type: 'category', multiple: false, categories: [] },
            ])
          }
        >
          Add a field
        </button>
        <label className="field codebook__note">
          <span>What changed (kept with the version)</span>
          <input className="input" value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
        </label>
        <button type="button" className="btn btn--primary" disabled={save.isPending} onClick={onSave}>
          {editing ? 'Save codebook' : 'Create codebook'}
        </button>
      </div>
      <Problem error={save.error} />
      {save.isSuccess ? <p role="status">Saved: version {save.data.version}.</p> : null}

      <section className="coding-section" aria-label="Codebook files">
        <h2>Import and export</h2>
        <div className="coding-row">
          <label className="btn" htmlFor={fileId}>
            Import .qdc or CSV…
          </label>
          <input
            id={fileId}
            className="visually-hidden"
            type="file"
            accept=".qdc,.csv,.xml"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file)
                importer.mutate(
                  { file, ...(editing ? { codebook: codebook } : {}) },
                  { onSuccess: (r) => chooseCodebook(r.codebook) },
                );
            }}
          />
          <button
            type="button"
            className="btn"
            disabled={!editing}
            onClick={() => exporter.mutate({ kind: 'codebook', codebook: codebook!, format: 'qdc' })}
          >
            Export .qdc (REFI-QDA)
          </button>
          <button
            type="button"
            className="btn"
            disabled={!editing}
            onClick={() => exporter.mutate({ kind: 'codebook', codebook: codebook!, format: 'csv' })}
          >
            Export CSV
          </button>
        </div>
        <p className="muted">
          {editing ? 'An import becomes the next version of this codebook.' : 'An import becomes a new codebook.'}
        </p>
        {importer.data ? (
          <p role="status">
            Imported “{importer.data.codebookName}”, version {importer.data.version}.
            {importer.data.warnings.length ? ` ${importer.data.warnings.join(' ')}` : ''}
          </p>
        ) : null}
        {exporter.data ? (
          <p role="status">
            Written to {exporter.data.file}. {exporter.data.note}
          </p>
        ) : null}
        <Problem error={importer.error ?? exporter.error} />
      </section>

      {editing && book && book.versions.length > 1 ? (
        <section className="coding-section" aria-label="Versions">
          <h2>Versions</h2>
          <ol className="codebook-versions">
            {book.versions.map((v) => (
              <li key={v.version}>
                Version {v.version} · {new Date(v.createdAt).toISOString().slice(0, 16).replace('T', ' ')} UTC ·{' '}
                {v.definition.fields.length} fields
                {v.note ? ` · ${v.note}` : ''}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </div>
  );
}
