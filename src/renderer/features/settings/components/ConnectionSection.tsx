import { useState, type FormEvent } from 'react';
import type { Settings } from '../../../../shared/ipc/settings';
import { ErrorState } from '../../../components/ErrorState';
import { checkBaseUrl, checkRequestsPerSecond } from '../connection-form';
import { useUpdateSettings } from '../use-settings';
import { SettingRow } from './SettingRow';

const MODES: ReadonlyArray<{ id: Settings['mode']; label: string; hint: string }> = [
  { id: 'demo', label: 'Demo', hint: 'the embedded sandbox: made-up data, no key, nothing charged' },
  { id: 'live', label: 'Live', hint: 'the real API at the base URL below, with your key; calls are charged' },
];

/** Mode, base URL and pace. */
export function ConnectionSection({ settings }: { settings: Settings }) {
  const update = useUpdateSettings();
  // the choice shows at once; main confirms it (or the error says why not)
  const [choosing, setChoosing] = useState<Settings['mode'] | null>(null);
  const mode = choosing ?? settings.mode;
  const [baseUrl, setBaseUrl] = useState(settings.baseUrl);
  const [rps, setRps] = useState(String(settings.requestsPerSecond));
  const [budget, setBudget] = useState(String(settings.creditsPerHour));
  const [budgetError, setBudgetError] = useState<string | null>(null);
  const [urlError, setUrlError] = useState<string | null>(null);
  const [rpsError, setRpsError] = useState<string | null>(null);

  const saveUrl = (e: FormEvent) => {
    e.preventDefault();
    const r = checkBaseUrl(baseUrl);
    setUrlError(r.ok ? null : r.message);
    if (r.ok) update.mutate({ baseUrl: r.value }, { onSuccess: ({ after }) => setBaseUrl(after.baseUrl) });
  };
  const saveRps = (e: FormEvent) => {
    e.preventDefault();
    const r = checkRequestsPerSecond(rps);
    setRpsError(r.ok ? null : r.message);
    if (r.ok) update.mutate({ requestsPerSecond: r.value });
  };

  const saveBudget = (e: FormEvent) => {
    e.preventDefault();
    const n = /^\d+(?:\.\d+)?$/.test(budget.trim()) ? Number(budget.trim()) : Number.NaN;
    const ok = n > 0 && n <= 1e12;
    setBudgetError(ok ? null : 'The budget is a number of credits above 0.');
    if (ok) update.mutate({ creditsPerHour: n }, { onError: () => setBudget(String(settings.creditsPerHour)) });
  };

  return (
    <section className="settings__section" aria-labelledby="settings-connection">
      <h2 id="settings-connection">Connection</h2>
      <fieldset className="settings__modes">
        <legend>Mode</legend>
        {MODES.map((m) => (
          <label key={m.id} className="settings__mode">
            <input
              type="radio"
              name="skein-mode"
              value={m.id}
              checked={mode === m.id}
              disabled={choosing !== null}
              onChange={() => {
                setChoosing(m.id);
                update.mutate({ mode: m.id }, { onSettled: () => setChoosing(null) });
              }}
            />
            <span>
              <strong>{m.label}</strong> <span className="muted">— {m.hint}</span>
            </span>
          </label>
        ))}
        <p className="muted settings__hint">
          Switching mode clears cached answers, so nothing from one mode shows up in the other.
        </p>
      </fieldset>

      <SettingRow
        label="Base URL"
        value={baseUrl}
        onChange={setBaseUrl}
        onSubmit={saveUrl}
        unchanged={update.isPending || baseUrl.trim() === settings.baseUrl}
        error={urlError}
        input={{ type: 'url' }}
      />

      <SettingRow
        short
        input={{ inputMode: 'decimal' }}
        label="Requests per second"
        value={rps}
        onChange={setRps}
        onSubmit={saveRps}
        unchanged={update.isPending || rps.trim() === String(settings.requestsPerSecond)}
        error={rpsError}
        hint="Skein paces its calls to stay under the API’s rate limit, which follows your balance (about 1 every 5 s on a free balance)."
      />
      <SettingRow
        short
        input={{ inputMode: 'decimal' }}
        label="Credits per hour"
        value={budget}
        onChange={setBudget}
        onSubmit={saveBudget}
        unchanged={update.isPending || budget.trim() === String(settings.creditsPerHour)}
        error={budgetError}
        hint="Live calls stop once this many credits were spent in the last 60 minutes. Raising it, or the pace above what you allowed before, asks you to confirm in a dialog of Skein's own."
      />

      <label className="settings__check">
        <input
          type="checkbox"
          checked={settings.loadRemoteMedia}
          disabled={update.isPending}
          // the page's content policy is set when it loads: reload so the choice holds for every image
          onChange={(e) =>
            update.mutate({ loadRemoteMedia: e.target.checked }, { onSuccess: () => window.location.reload() })
          }
        />
        <span>
          Load images and video from their hosts{' '}
          <span className="muted">— each image load tells its host your address; off shows none</span>
        </span>
      </label>
      {update.isError ? <ErrorState compact error={update.error} what="the setting" /> : null}
    </section>
  );
}
