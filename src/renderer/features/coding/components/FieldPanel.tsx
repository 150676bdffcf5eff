/**
 * The codebook's fields for one item: each category a button showing its key (pressed when chosen), a text or
 * note field a box saved when it loses focus. Only the current coder's values are shown (coding is blind).
 */
import { useState } from 'react';
import type { CodebookDefinition, CodeValue, FieldDef, KeptValue } from '../../../../shared/coding/codebook';
import { isUnread } from '../../../../shared/coding/codebook';
import { pressed, UNREAD_WORDS } from '../keys';

function TextField({
  field,
  value,
  onSet,
  disabled,
}: {
  field: FieldDef;
  value: string;
  onSet: (v: string | null) => void;
  disabled: boolean;
}) {
  // keyed by its value: a value saved elsewhere starts a fresh draft
  const [draft, setDraft] = useState(value);
  return (
    <label className="field coding-field__text">
      <span className="visually-hidden">{field.label}</span>
      <textarea
        className="textarea"
        rows={2}
        value={draft}
        disabled={disabled}
        maxLength={20_000}
        placeholder={field.type === 'note' ? 'A note for yourself (not compared)' : 'Text'}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => {
          if (draft !== value) onSet(draft.trim() === '' ? null : draft);
        }}
      />
    </label>
  );
}

export function FieldPanel({
  definition,
  values,
  onSet,
  disabled = false,
  label,
}: {
  definition: CodebookDefinition;
  values: ReadonlyMap<string, KeptValue>;
  onSet: (field: FieldDef, value: CodeValue | null) => void;
  disabled?: boolean;
  label: string;
}) {
  return (
    <div className="coding-fields" role="group" aria-label={label}>
      {definition.fields.map((f) => {
        const current = values.get(f.key);
        return (
          <fieldset key={f.key} className="coding-field" data-field={f.key}>
            <legend className="coding-field__label">
              {f.label}
              {f.multiple ? <span className="muted"> (any that apply)</span> : null}
              {f.type === 'ordinal' ? <span className="muted"> (scale)</span> : null}
            </legend>
            {f.description ? <p className="coding-field__description muted">{f.description}</p> : null}
            {current !== undefined && isUnread(current) ? (
              <p className="coding-field__unread" role="note">
                Kept: “{current.unread}” ({UNREAD_WORDS}). A value chosen here replaces it.
              </p>
            ) : null}
            {f.type === 'text' || f.type === 'note' ? (
              <TextField
                field={f}
                value={typeof current === 'string' ? current : ''}
                disabled={disabled}
                onSet={(v) => onSet(f, v)}
              />
            ) : (
              <div className="coding-field__choices">
                {f.categories.map((c) => {
                  const on = Array.isArray(current) ? current.includes(c.value) : current === c.value;
                  return (
                    <button
                      key={c.value}
                      type="button"
                      className={`coding-choice${on ? ' coding-choice--on' : ''}`}
                      aria-pressed={on}
                      disabled={disabled}
                      title={
                        [c.description, ...c.examples.map((e) => `Example: ${e}`)].filter(Boolean).join('\n') ||
                        undefined
                      }
                      onClick={() => onSet(f, pressed(f, current, c.value))}
                    >
                      {c.key ? (
                        <kbd className="coding-choice__key" aria-hidden="true">
                          {c.key}
                        </kbd>
                      ) : null}
                      {c.label}
                    </button>
                  );
                })}
              </div>
            )}
          </fieldset>
        );
      })}
    </div>
  );
}
