import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorState } from '../../../components/ErrorState';
import { skein } from '../../../lib/bridge';
import type { MediaCheck } from '../../../../shared/ipc/media';
import {
  checkSentence,
  mismatchSentence,
  pagesCheckSentence,
  pagesTokensSentence,
  tokenProblemSentence,
  tokensSentence,
  waczProblemSentence,
} from '../keep-media';
import { mediaCheckQuery } from '../queries';

const SHOWN = 100;

/**
 * "Check kept files": every file the project kept re-hashed from its media folder on this computer (nothing is
 * fetched), with how far it is, then the result in words, each file that changed or went missing named with
 * its posts; then the timestamp tokens checked, each one that no longer proves its files named; then the files of
 * captured pages, each one that changed or went missing named by the pages it holds.
 */
export function CheckKeptFiles() {
  const [id, setId] = useState<string | null>(null);
  const start = useMutation({ mutationFn: () => skein().media.verify(undefined), onSuccess: (j) => setId(j.id) });
  const job = useQuery({ ...mediaCheckQuery(id ?? ''), enabled: id !== null });
  const running = start.isPending || job.data?.state === 'running';
  const failed = start.error ?? job.error;
  return (
    <section className="keep-media__check" aria-label="Check kept files">
      <button
        type="button"
        className="btn"
        disabled={running}
        onClick={() => {
          setId(null);
          start.mutate();
        }}
      >
        {running ? 'Checking kept files…' : 'Check kept files'}
      </button>
      {running ? (
        <>
          <p role="status">
            {job.data && job.data.total > 0
              ? `Re-hashing the kept files of this project, from this computer: ${job.data.checked.toLocaleString('en')} of ${job.data.total.toLocaleString('en')}…`
              : 'Re-hashing the kept files of this project, from this computer…'}
          </p>
          <progress
            aria-label="Kept files checked"
            value={job.data?.checked ?? 0}
            max={Math.max(1, job.data?.total ?? 0)}
          />
        </>
      ) : failed ? (
        <ErrorState compact error={failed} what="the check of the kept files" />
      ) : job.data?.state === 'failed' ? (
        <p role="alert">The kept files could not be checked: {job.data.message ?? 'something went wrong'}.</p>
      ) : job.data?.result ? (
        <CheckResult check={job.data.result} />
      ) : null}
    </section>
  );
}

function CheckResult({ check }: { check: MediaCheck }) {
  const bad = check.checked - check.matched;
  const pagesTokens = pagesTokensSentence(check.pages);
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
      <p role="status" className={check.tokenProblems.length > 0 ? 'keep-media__alarm' : undefined}>
        {tokensSentence(check)}
      </p>
      {check.tokenProblems.length > 0 ? (
        <ul className="keep-media__mismatches" aria-label="Timestamp tokens that no longer prove their files">
          {check.tokenProblems.slice(0, SHOWN).map((p) => (
            <li key={p.manifest}>{tokenProblemSentence(p)}</li>
          ))}
        </ul>
      ) : null}
      <p role="status" className={check.pages.problems.length > 0 ? 'keep-media__alarm' : undefined}>
        {pagesCheckSentence(check.pages)}
      </p>
      {check.pages.problems.length > 0 ? (
        <ul className="keep-media__mismatches" aria-label="Captured pages that no longer match">
          {check.pages.problems.slice(0, SHOWN).map((p) => (
            <li key={p.name}>{waczProblemSentence(p)}</li>
          ))}
        </ul>
      ) : null}
      {pagesTokens ? (
        <p role="status" className={check.pages.tokenProblems.length > 0 ? 'keep-media__alarm' : undefined}>
          {pagesTokens}
        </p>
      ) : null}
      {check.pages.tokenProblems.length > 0 ? (
        <ul className="keep-media__mismatches" aria-label="Timestamp tokens of captured pages that no longer hold">
          {check.pages.tokenProblems.slice(0, SHOWN).map((p) => (
            <li key={p.manifest}>{tokenProblemSentence(p)}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
