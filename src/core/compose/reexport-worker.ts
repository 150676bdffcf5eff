/**
 * The re-export's worker thread (see export/reexport-thread.ts): reads the items from the archive's worker
 * over the port it was given and writes the export here, off main's event loop.
 */
import type { MessagePort } from 'node:worker_threads';
import { serveWorker } from '../workers';
import { writeReexport, type ReexportApi } from '../export';
import { threadOverPort } from '../archive/worker';
import { archiveReader } from './archive-reader';

serveWorker<ReexportApi>(({ data }) => {
  const archive = threadOverPort((data as { port: MessagePort }).port);
  const controller = new AbortController();
  return {
    api: {
      write: (job) => writeReexport(archiveReader(archive), { ...job, signal: controller.signal }),
      abort: () => controller.abort(),
    },
    close: () => archive.close(),
  };
});
