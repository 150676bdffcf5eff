import { useMutation } from '@tanstack/react-query';
import { ErrorState } from '../../../components/ErrorState';
import { skein } from '../../../lib/bridge';
import { evidenceSentence } from '../keep-media';

/**
 * "Make an evidence package…": the collection's posts as collected, the media kept for them, the tokens that date
 * those files and a manifest whose own hash is timestamped, in one zip saved where the person chooses. Nothing is
 * fetched and nothing costs credits; media not kept yet are in its manifest with the reason. What is left out (a
 * changed file, a post damaged in the project) or missing (trusted time) is said as an alarm.
 */
export function EvidencePackage({ collection }: { collection: number }) {
  const make = useMutation({ mutationFn: () => skein().media.evidence({ collection }) });
  return (
    <section className="keep-media__evidence" aria-label="Evidence package">
      <button type="button" className="btn" disabled={make.isPending} onClick={() => make.mutate()}>
        {make.isPending ? 'Making the evidence package…' : 'Make an evidence package…'}
      </button>
      {make.data ? (
        <p
          role="status"
          className={
            make.data.changed > 0 || make.data.damaged > 0 || !make.data.manifestToken ? 'keep-media__alarm' : undefined
          }
        >
          {evidenceSentence(make.data)}
        </p>
      ) : null}
      {make.isError ? <ErrorState compact error={make.error} what="the evidence package" /> : null}
    </section>
  );
}
