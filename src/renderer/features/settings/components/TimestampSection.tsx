import { useState, type FormEvent } from 'react';
import type { Settings } from '../../../../shared/ipc/settings';
import { ErrorState } from '../../../components/ErrorState';
import { checkAuthorityUrl } from '../connection-form';
import { useUpdateSettings } from '../use-settings';
import { SettingRow } from './SettingRow';

/**
 * Trusted time for kept media and pages: the timestamp authority asked after each keeping, and the one asked when it
 * fails. What is sent is said beside the setting: the hash of a list of hashes, nothing else.
 */
export function TimestampSection({ settings }: { settings: Settings }) {
  const none = settings.timestampAuthority === null && settings.timestampFallback === null;
  return (
    <section className="settings__section" aria-labelledby="settings-timestamps">
      <h2 id="settings-timestamps">Trusted time for kept media and pages</h2>
      <p className="muted settings__hint">
        After each keeping of media, and each capture of linked pages, Skein asks a timestamp authority (RFC 3161) to
        sign the time over the list of the files it kept, so you can later prove when they were captured. Only hashes
        are sent: the hash of that list, never a file, a post or your key. If the first authority fails, the second is
        asked.
      </p>
      {settings.mode === 'demo' ? (
        <p className="muted settings__hint">
          In demo mode the sandbox’s stand-in authority, on this computer, signs them; the addresses below are for live
          mode.
        </p>
      ) : none ? (
        <p className="settings__hint" role="status">
          No authority is set: keeping media and pages says that no trusted time was asked for.
        </p>
      ) : null}
      <AuthoritySetting label="Timestamp authority" field="timestampAuthority" value={settings.timestampAuthority} />
      <AuthoritySetting label="Fallback authority" field="timestampFallback" value={settings.timestampFallback} />
    </section>
  );
}

function AuthoritySetting(props: {
  label: string;
  field: 'timestampAuthority' | 'timestampFallback';
  value: string | null;
}) {
  const update = useUpdateSettings();
  const [text, setText] = useState(props.value ?? '');
  const [error, setError] = useState<string | null>(null);
  const save = (e: FormEvent) => {
    e.preventDefault();
    const r = checkAuthorityUrl(text);
    setError(r.ok ? null : r.message);
    if (r.ok)
      update.mutate({ [props.field]: r.value }, { onSuccess: ({ after }) => setText(after[props.field] ?? '') });
  };
  return (
    <SettingRow
      label={props.label}
      value={text}
      onChange={setText}
      onSubmit={save}
      unchanged={update.isPending || text.trim() === (props.value ?? '')}
      error={error}
      input={{ type: 'url', placeholder: 'none' }}
    >
      {update.isError ? <ErrorState compact error={update.error} what="the setting" /> : null}
    </SettingRow>
  );
}
