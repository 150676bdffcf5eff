import { useEffect, useState } from 'react';
import { DEFAULT_ACTIONS, isSkeinError, type ErrorCode } from '../../shared/errors';
import { navigate } from '../lib/navigation';
import { skein } from '../lib/bridge';
import { clockTime } from '../lib/time';
import { routes } from '../lib/routes';

const TITLES = {
  validation: 'The API refused the request',
  'not-available': 'Not available yet from the API',
  unauthorized: 'An API key is needed',
  'payment-required': 'Out of API credits',
  'rate-limited': 'Rate limited',
  upstream: 'The service had a problem',
  timeout: 'No answer in time',
  offline: 'Cannot reach the service',
  malformed: 'The answer could not be read',
  'api-error': 'The service reported an error',
  'not-found': 'Not found',
  cancelled: 'Cancelled',
  'bad-input': 'Something went wrong in Skein',
  forbidden: 'Something went wrong in Skein',
  internal: 'Something went wrong in Skein',
  unreadable: 'This Skein cannot read it',
  'write-failed': 'Could not write the file',
} satisfies Record<ErrorCode, string>;

const NO_RETRY: ReadonlySet<string> = new Set([
  'not-available',
  'validation',
  'bad-input',
  'forbidden',
  'not-found',
  'unreadable',
]);
const NEEDS_KEY: ReadonlySet<string> = new Set(['unauthorized', 'payment-required']);
/** fields of Skein's own settings a `validation` error may name */
const SETTINGS_FIELDS: ReadonlySet<string> = new Set(['baseUrl']);

/**
 * A field an error names, in words rather than as a key: `caps.perRun` → "Caps, per run", `tweetId` → "Tweet
 * id", `targets[2]` → "Targets, item 3". Where a form knows its field's label, it says the error there itself.
 */
export function fieldWords(field: string): string {
  const parts = field
    .split(/\.|\[(\d+)\]/)
    .filter((p): p is string => p !== undefined && p !== '')
    .map((p) =>
      /^\d+$/.test(p)
        ? `item ${Number(p) + 1}`
        : p
            .replace(/_/g, ' ')
            .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
            .toLowerCase()
            .replace(/\burl\b/g, 'URL'),
    );
  const text = parts.join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

interface Props {
  error: unknown;
  onRetry?: () => void;
  /** what was being loaded, for the heading ("replies") */
  what?: string;
  compact?: boolean;
}

/** Wall-clock seconds ticking only while a rate limit is shown. */
function useSecondsUntil(at: number | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!at) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [at]);
  return at ? Math.max(0, Math.ceil((at - now) / 1000)) : 0;
}

/** An error of the one error model, with what the user can do about it. */
export function ErrorState({ error, onRetry, what, compact = false }: Props) {
  const code: ErrorCode = isSkeinError(error) ? error.code : 'internal';
  const message = error instanceof Error ? error.message : String(error);
  const details = isSkeinError(error) ? error.details : undefined;
  const retryAt = code === 'rate-limited' ? details?.retryAt : undefined;
  const waitSeconds = useSecondsUntil(retryAt);
  // a setting of Skein's is wrong (nothing was sent): the API refused nothing
  const setting = details?.fields?.find((f) => SETTINGS_FIELDS.has(f.field));
  // a 429 whose words name the free tier: the pace is in Settings
  const pace = code === 'rate-limited' && /\bfree[- ]?tier\b/i.test(details?.serviceMessage ?? '');
  // what a person typed that Skein refused (fields named): theirs to correct, not a bug of Skein's
  const entered = code === 'bad-input' && (details?.fields?.length ?? 0) > 0;
  const title: string = setting
    ? 'Skein is not set up for this yet'
    : code === 'unauthorized' && details?.keySent
      ? 'The service refused the API key'
      : entered
        ? 'Check what was entered'
        : TITLES[code];
  const action = details?.action ?? (entered ? 'Correct what is named above, then try again.' : DEFAULT_ACTIONS[code]);
  const canRetry = Boolean(onRetry) && !NO_RETRY.has(code);

  return (
    <div className={`state state--error${compact ? ' state--compact' : ''}`} role="alert" data-error-code={code}>
      <p className="state__title">
        {title}
        {what ? <span className="muted"> — {what}</span> : null}
      </p>
      <p className="state__message">{message}</p>
      {retryAt ? (
        <p className="state__wait">
          Wait until <strong>{clockTime(retryAt)}</strong>
          {waitSeconds > 0 ? ` (${waitSeconds} s)` : ' — you can retry now'}.
        </p>
      ) : null}
      {details?.fields?.length ? (
        <ul className="state__fields">
          {details.fields.map((f) => (
            <li key={f.field}>
              {fieldWords(f.field)}: {f.message}
            </li>
          ))}
        </ul>
      ) : null}
      <p className="state__action">{action}</p>
      <div className="state__buttons">
        {canRetry ? (
          <button type="button" className="btn btn--primary" onClick={onRetry} disabled={waitSeconds > 0}>
            Retry
          </button>
        ) : null}
        {canRetry && waitSeconds > 0 ? (
          // a command, not server state: main drops the pause of this service, then the view asks again
          <button
            type="button"
            className="btn"
            onClick={() =>
              void skein()
                .api.tryNow()
                .catch(() => undefined)
                .then(onRetry)
            }
          >
            Try now
          </button>
        ) : null}
        {NEEDS_KEY.has(code) || setting || pace ? (
          <button type="button" className="btn" onClick={() => navigate(routes.settings())}>
            Open Settings
          </button>
        ) : null}
      </div>
    </div>
  );
}
