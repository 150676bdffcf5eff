import { useState, type FormEvent } from 'react';
import type { Settings } from '../../../../shared/ipc/settings';
import { ErrorState } from '../../../components/ErrorState';
import { checkSavePace, checkSaveServiceUrl } from '../connection-form';
import { useUpdateSettings } from '../use-settings';
import { SettingRow } from './SettingRow';

/**
 * A web archive's save service: off by default (sending a page tells the archive what the project links to);
 * when on, keeping a collection's linked pages also asks the service to capture each of them, at its address
 * and pace. What is sent is said beside the setting.
 */
export function SaveServiceSection({ settings }: { settings: Settings }) {
  const update = useUpdateSettings();
  return (
    <section className="settings__section" aria-labelledby="settings-save-service">
      <h2 id="settings-save-service">Web archive save service</h2>
      <p className="muted settings__hint">
        When on, keeping a collection’s linked pages also sends each page’s address to a web archive’s save service (the
        Internet Archive’s Save Page Now unless you set another), which captures it publicly and answers with the
        capture’s address. Only the page’s address is sent, never a post or your key; the archive learns which pages
        your project links to.
      </p>
      <label className="settings__check">
        <input
          type="checkbox"
          checked={settings.saveService}
          disabled={update.isPending}
          onChange={(e) => update.mutate({ saveService: e.target.checked })}
        />
        <span>Send linked pages to a web archive’s save service</span>
      </label>
      {settings.saveService ? (
        <>
          {settings.mode === 'demo' ? (
            <p className="muted settings__hint">
              In demo mode the sandbox’s stand-in save service, on this computer, answers; the address below is for live
              mode.
            </p>
          ) : null}
          <SaveField
            label="Save service address"
            hint="the page’s address is added at the end"
            value={settings.saveServiceUrl}
            check={checkSaveServiceUrl}
            save={(v) => ({ saveServiceUrl: v })}
          />
          <SaveField
            label="Seconds between requests"
            hint="at most one request every this many seconds"
            value={String(settings.saveServicePaceSeconds)}
            check={checkSavePace}
            save={(v) => ({ saveServicePaceSeconds: v })}
          />
        </>
      ) : null}
      {update.isError ? <ErrorState compact error={update.error} what="the setting" /> : null}
    </section>
  );
}

function SaveField<T>(props: {
  label: string;
  hint: string;
  value: string;
  check: (text: string) => { ok: true; value: T } | { ok: false; message: string };
  save: (value: T) => Partial<Settings>;
}) {
  const update = useUpdateSettings();
  const [text, setText] = useState(props.value);
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const r = props.check(text);
    setError(r.ok ? null : r.message);
    if (r.ok) update.mutate(props.save(r.value));
  };
  return (
    <SettingRow
      label={props.label}
      value={text}
      onChange={setText}
      onSubmit={submit}
      unchanged={update.isPending || text.trim() === props.value}
      error={error}
      hint={props.hint}
    >
      {update.isError ? <ErrorState compact error={update.error} what="the setting" /> : null}
    </SettingRow>
  );
}
