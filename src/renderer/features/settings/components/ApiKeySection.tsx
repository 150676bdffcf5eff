import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { CredentialsStatus } from '../../../../shared/ipc/settings';
import { ErrorState } from '../../../components/ErrorState';
import { credentialsQuery } from '../../../lib/settings';
import { useSetKey, useUpdateSettings } from '../use-settings';

const STORAGE_LABELS: Record<CredentialsStatus['storage'], string> = {
  keychain: 'in the system keychain (encrypted by the OS)',
  file: 'on disk, obfuscated only (no system keyring; you opted in)',
  session: 'for this session only (in memory until Skein quits)',
  none: 'nowhere',
};

/** The API key: masked entry, whether one is set and where it is kept. Never shows the key. */
export function ApiKeySection({
  persistWithoutKeyring,
  mode,
}: {
  persistWithoutKeyring: boolean;
  mode: 'demo' | 'live';
}) {
  const status = useQuery(credentialsQuery());
  const setKey = useSetKey();
  const update = useUpdateSettings();
  const [draft, setDraft] = useState('');
  const inputId = useId();
  const hintId = useId();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const key = draft.trim();
    if (!key) return;
    setKey.mutate({ key }, { onSuccess: () => setDraft('') });
  };

  return (
    <section className="settings__section" aria-labelledby="settings-key">
      <h2 id="settings-key">API key</h2>
      {status.data ? (
        <p className="settings__status" data-testid="key-status">
          {status.data.configured ? (
            <>
              <span className="chip chip--ok">Configured</span> Kept {STORAGE_LABELS[status.data.storage]}.
            </>
          ) : (
            <>
              <span className="chip">Not configured</span> Demo mode needs no key; Live mode sends it as{' '}
              <code>x-api-key</code>.
            </>
          )}
          {status.data.reason ? <span className="settings__reason"> {status.data.reason}</span> : null}
        </p>
      ) : status.isError ? (
        <ErrorState compact error={status.error} what="key status" onRetry={() => void status.refetch()} />
      ) : (
        <p className="muted">Checking…</p>
      )}
      <form className="settings__row" onSubmit={onSubmit}>
        <label htmlFor={inputId} className="settings__label">
          {status.data?.configured ? 'Replace key' : 'Key'}
        </label>
        <input
          id={inputId}
          className="input settings__input"
          type="password"
          autoComplete="off"
          spellCheck={false}
          aria-describedby={hintId}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
        <button type="submit" className="btn btn--primary" disabled={!draft.trim() || setKey.isPending}>
          Save key
        </button>
        {status.data?.configured ? (
          <button
            type="button"
            className="btn"
            disabled={setKey.isPending}
            onClick={() => setKey.mutate({ clear: true })}
          >
            Remove key
          </button>
        ) : null}
      </form>
      <p id={hintId} className="muted settings__hint">
        The key goes straight to Skein’s main process and is never shown again. Saving or removing it clears cached
        answers.
      </p>
      {status.data && !status.data.secureStorageAvailable ? (
        <label className="settings__check">
          <input
            type="checkbox"
            checked={persistWithoutKeyring}
            disabled={update.isPending}
            onChange={(e) => update.mutate({ persistKeyWithoutKeyring: e.target.checked })}
          />
          Keep the key on disk although this system has no keyring (it is then only obfuscated, not encrypted)
        </label>
      ) : null}
      {setKey.isSuccess && setKey.variables && 'key' in setKey.variables && mode === 'demo' ? (
        <p className="settings__saved" role="status">
          Key saved. Skein stays in Demo mode (free, no key used) until you choose Live under Mode.
        </p>
      ) : null}
      {setKey.isError ? <ErrorState compact error={setKey.error} what="the key" /> : null}
      {update.isError ? <ErrorState compact error={update.error} what="the setting" /> : null}
    </section>
  );
}
