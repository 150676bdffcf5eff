import { useEffect, useState } from 'react';
import { useDismissable } from '../lib/layers';
import { copyText } from '../lib/clipboard';
import './copy-id.css';

type Outcome = 'idle' | 'copied' | 'failed';

/**
 * The whole id, one click away, where the words shown are a name or a shortened id. Says what happened
 * in a status line; when copying is refused, shows the id to select by hand (until Esc or the next copy).
 */
export function CopyIdButton({ id, what }: { id: string; what: string }) {
  const [outcome, setOutcome] = useState<Outcome>('idle');
  // the notice with the id stays until dismissed: Esc closes it before Esc means Back
  useDismissable(outcome === 'failed', () => setOutcome('idle'));
  useEffect(() => {
    if (outcome !== 'copied') return;
    const t = setTimeout(() => setOutcome('idle'), 2500);
    return () => clearTimeout(t);
  }, [outcome]);
  return (
    <span className="copy-id">
      <button
        type="button"
        className="btn btn--small"
        aria-label={`Copy ${what} id`}
        title={id}
        onClick={() => void copyText(id).then((ok) => setOutcome(ok ? 'copied' : 'failed'))}
      >
        Copy id
      </button>
      <span role="status" className="copy-id__status muted">
        {outcome === 'copied' ? (
          'Copied'
        ) : outcome === 'failed' ? (
          <>
            Could not copy; the id is <span className="copy-id__value">{id}</span>
          </>
        ) : null}
      </span>
    </span>
  );
}
