import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { skein } from '../../../lib/bridge';
import {
  pagesEstimateSentence,
  pagesProgressSentence,
  pagesTimestampSentence,
  saveSentence,
  waczSentence,
} from '../keep-pages';
import { KeepJobPanel } from './KeepJobPanel';
import { LinkedPageList } from './LinkedPageList';
import { pagesEstimateQuery, pagesJobQuery, pagesKeys } from '../queries';

const WORDS = {
  action: 'Keep linked pages',
  estimate: pagesEstimateSentence,
  counting: 'Counting the pages this collection links to…',
  estimateWhat: 'the count of linked pages',
  progress: pagesProgressSentence,
  bar: 'Linked pages kept',
  startWhat: 'keeping the linked pages',
};

/**
 * "Keep linked pages…" on a collection: the count of pages its posts link to first, then the capture with its
 * progress and a cancel, then how it ended (kept, not kept and why; sent to a web archive's save service, when
 * that is on), where the web archive is and who timestamped it (or why nobody did), and each page's line. Nothing here costs credits.
 */
export function KeepPages({ collection }: { collection: number }) {
  const client = useQueryClient();
  const onEnded = useCallback(() => {
    void client.invalidateQueries({ queryKey: pagesKeys.estimate(collection) });
    void client.invalidateQueries({ queryKey: pagesKeys.list(collection) });
  }, [client, collection]);
  return (
    <KeepJobPanel
      words={WORDS}
      estimateQuery={pagesEstimateQuery(collection)}
      jobQuery={pagesJobQuery}
      start={() => skein().pages.capture({ collection })}
      cancel={(id) => skein().pages.cancel({ id })}
      onEnded={onEnded}
      details={(job, running) => {
        const saved = job ? saveSentence(job) : null;
        const where = job && !running ? waczSentence(job) : null;
        const stamp = job && !running && job.timestamp ? job.timestamp : null;
        return (
          <>
            {saved ? <p role="status">{saved}</p> : null}
            {where ? <p className="keep-media__hash">{where}</p> : null}
            {stamp ? (
              <p className={stamp.authority ? undefined : 'keep-media__alarm'}>{pagesTimestampSentence(stamp)}</p>
            ) : null}
            {!running ? <LinkedPageList collection={collection} /> : null}
          </>
        );
      }}
    />
  );
}
