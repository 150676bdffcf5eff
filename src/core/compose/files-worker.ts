/**
 * The worker that reads files another person made (a .qdpx, a .qdc), one file per worker, under the heap limit
 * its starter sets (coding/files/reader.ts): a file that defeats the bounds ends this thread, not main.
 */
import { readRefiFiles, type RefiReader } from '../coding';
import { serveWorker } from '../workers';

serveWorker<RefiReader>(() => ({ api: readRefiFiles }));
