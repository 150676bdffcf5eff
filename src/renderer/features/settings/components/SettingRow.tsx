import { useId, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';

/**
 * One setting typed into a field: its label, the field, Save, a hint under it and the error of the last try
 * (each said to a screen reader with the field). What the setting means and how it is checked stay with its
 * section; this is only how every such row looks.
 */
export function SettingRow(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onSubmit: (e: FormEvent) => void;
  /** nothing to save, or a save under way */
  unchanged: boolean;
  error: string | null;
  hint?: string;
  /** a number's narrower field */
  short?: boolean;
  input?: Pick<InputHTMLAttributes<HTMLInputElement>, 'type' | 'placeholder' | 'inputMode'>;
  /** said after the row's own error: a save that failed, where the person clicked */
  children?: ReactNode;
}) {
  const id = useId();
  const { error, hint } = props;
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <form className="settings__row" onSubmit={props.onSubmit} noValidate>
      <label htmlFor={id} className="settings__label">
        {props.label}
      </label>
      <input
        {...props.input}
        id={id}
        className={`input settings__input${props.short ? ' settings__input--short' : ''}`}
        value={props.value}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <button type="submit" className="btn" disabled={props.unchanged}>
        Save
      </button>
      {hint ? (
        <p id={`${id}-hint`} className="muted settings__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="settings__error" role="alert">
          {error}
        </p>
      ) : null}
      {props.children}
    </form>
  );
}
