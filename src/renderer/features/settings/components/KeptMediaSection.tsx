import { useId } from 'react';
import type { Settings } from '../../../../shared/ipc/settings';
import { ErrorState } from '../../../components/ErrorState';
import { useUpdateSettings } from '../use-settings';
import { videoLimitChoices } from '../video-limit';

/**
 * How large a kept video may be: the estimate and every keeping (the Archive's, an export's, a watch's) take
 * the highest variant under the chosen maximum. Photos are always kept at their original size.
 */
export function KeptMediaSection({ settings }: { settings: Settings }) {
  const update = useUpdateSettings();
  const id = useId();
  const choices = videoLimitChoices(settings.maxVideoBitrate);
  return (
    <section className="settings__section" aria-labelledby="settings-kept-media">
      <h2 id="settings-kept-media">Kept media</h2>
      <p className="muted settings__hint">
        Photos are kept at their original size. Videos and GIFs are kept as one MP4: the best there is, or the best at
        or under the size you choose here (the smallest when every one is larger).
      </p>
      <div className="settings__row">
        <label htmlFor={id} className="settings__label">
          Largest video to keep
        </label>
        <select
          id={id}
          className="select"
          value={String(choices.findIndex((c) => c.value === settings.maxVideoBitrate))}
          disabled={update.isPending}
          onChange={(e) => update.mutate({ maxVideoBitrate: choices[Number(e.target.value)]?.value ?? null })}
        >
          {choices.map((c, i) => (
            <option key={c.label} value={String(i)}>
              {c.label}
            </option>
          ))}
        </select>
      </div>
      {update.isError ? <ErrorState compact error={update.error} what="the setting" /> : null}
    </section>
  );
}
