/**
 * The files worker, one job per worker under the heap limit its starter sets: reading a file another person made
 * (a .qdpx, a .qdc: coding/files/reader.ts), where a file that defeats the bounds ends this thread, not main; and
 * making a share package (coding/files/packager.ts), whose pseudonymising and zipping would otherwise hold main's
 * event loop.
 */
import { makeSharePackages, readRefiFiles, type RefiReader, type SharePackager } from '../coding/worker';
import { serveWorker } from '../workers';

serveWorker<RefiReader & SharePackager>(() => ({ api: { ...readRefiFiles, ...makeSharePackages } }));
