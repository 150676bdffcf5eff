import { useMutation } from '@tanstack/react-query';
import { ErrorState } from '../../../components/ErrorState';
import { skein } from '../../../lib/bridge';
import type { MediaCheck } from '../../../../shared/ipc/media';
import { checkSentence, mismatchSentence } from '../keep-media';

const SHOWN = 100;

/**
 * "Check kept files": every file the project kept re-hashed from its media folder on this computer (nothing is
 * fetched), then the result in words, each file that changed or went missing named with its posts.
 */
export function CheckKeptFiles() {
  const check = useMutation({ mutationFn: () => skein().media.verify(undefined) });
  return (
    <section className="keep-media__check" aria-label="Check kept files">
      <button type="button" className="btn" disabled={check.isPending} onClick={() => check.mutate()}>
        {check.isPending ? 'Checking kept files…' : 'Check kept files'}
      </button>
      {check.isPending ? (
        <p role="status">Re-hashing every kept file of this project, from this computer…</p>
      ) : check.isError ? (
        <ErrorState compact error={check.error} what="the check of the kept files" />
      ) : check.data ? (
        <CheckResult check={check.data} />
      ) : null}
    </section>
  );
}

function CheckResult({ check }: { check: MediaCheck }) {
  const bad = check.checked - check.matched;
  return (
    <>
      <p role="status" className={bad > 0 ? 'keep-media__alarm' : undefined}>
        {checkSentence(check)}
      </p>
      {check.mismatches.length > 0 ? (
        <ul className="keep-media__mismatches" aria-label="Kept files that no longer match">
          {check.mismatches.slice(0, SHOWN).map((m) => (
            <li key={m.name}>
              {mismatchSentence(m)}
              <span className="keep-media__detail">
                {m.uses[0] ? `Fetched from ${m.uses[0].url}. ` : ''}
                SHA-256 when kept <span className="keep-media__hash">{m.expected}</span>
                {m.found ? (
                  <>
                    , now <span className="keep-media__hash">{m.found}</span>
                  </>
                ) : null}
                .
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {bad > Math.min(SHOWN, check.mismatches.length) ? (
        <p>
          The first {Math.min(SHOWN, check.mismatches.length)} of {bad} are listed.
        </p>
      ) : null}
    </>
  );
}
