import { fullCount } from '../../../lib/format';
import { ErrorState } from '../../../components/ErrorState';
import { useClearCache } from '../use-settings';

/** Forget every cached answer, so the next view asks the API again. */
export function CacheSection() {
  const clear = useClearCache();
  return (
    <section className="settings__section" aria-labelledby="settings-cache">
      <h2 id="settings-cache">Cache</h2>
      <p className="muted settings__hint">
        Skein keeps answers for a while (profiles and communities for minutes, timelines shorter, live spaces not at
        all) so going back and forth costs nothing. Clearing makes the next view ask the API again, and pay again.
      </p>
      <div className="settings__buttons">
        <button type="button" className="btn" disabled={clear.isPending} onClick={() => clear.mutate()}>
          Clear cache
        </button>
        <span role="status" className="settings__saved">
          {clear.isSuccess
            ? `Cache cleared (${fullCount(clear.data.cleared)} ${clear.data.cleared === 1 ? 'answer' : 'answers'}).`
            : null}
        </span>
      </div>
      {clear.isError ? <ErrorState compact error={clear.error} what="the cache" /> : null}
    </section>
  );
}
