/**
 * Making a share package is synchronous work: every text pseudonymised against every account's names, then zipped
 * (a collection's 10,000 posts with texts: ~0.5 s; a million ids: ~1 s). When the shell gives the files worker's
 * entry it is made in a short-lived worker thread of its own, so main's event loop (every window's IPC, the
 * collections under way) goes on meanwhile; the package is the same bytes either way.
 */
import { outOfMemory, startWorker, type Client } from '../../workers';
import { SkeinError } from '../../../shared/errors';
import {
  writeCollectionReviewPackage,
  writeRehydrationPackage,
  writeReviewPackage,
  type CollectionReviewInput,
  type RehydrationInput,
  type ShareInput,
  type SharePackage,
} from './share';

/** What the files worker serves for the share packages (compose/files-worker.ts), and this thread too. */
export interface SharePackager {
  review: (input: ShareInput) => Promise<SharePackage>;
  collectionReview: (input: CollectionReviewInput) => Promise<SharePackage>;
  rehydration: (input: RehydrationInput) => Promise<SharePackage>;
}

/** on this thread: where no worker can start (tests, a shell that gives no entry) */
export const packOnThisThread: SharePackager = {
  review: async (input) => writeReviewPackage(input),
  collectionReview: async (input) => writeCollectionReviewPackage(input),
  rehydration: async (input) => writeRehydrationPackage(input),
};

/** a package's making gets this much heap: 100,000 posts pseudonymised with their texts fit in it (measured: 6.6 s) */
const HEAP = { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 32 };

export function packInWorker(entry: URL, execArgv?: string[], heap = HEAP): SharePackager {
  async function inWorker(call: (worker: Client<SharePackager>) => Promise<SharePackage>): Promise<SharePackage> {
    let worker: Awaited<ReturnType<typeof startWorker<SharePackager>>> | null = null;
    try {
      worker = await startWorker<SharePackager>({ entry, execArgv, resourceLimits: heap, name: 'the package maker' });
      return await call(worker);
    } catch (e) {
      if (outOfMemory(e))
        throw new SkeinError('bad-input', 'Making this package took more memory than Skein gives one package.', {
          action: 'Share a sample of the collection (Coding, Samples), or only the package for re-hydration.',
        });
      throw e;
    } finally {
      void worker?.stop();
    }
  }
  return {
    review: (input) => inWorker((w) => w.call('review', input)),
    collectionReview: (input) => inWorker((w) => w.call('collectionReview', input)),
    rehydration: (input) => inWorker((w) => w.call('rehydration', input)),
  };
}
