/**
 * The toy api in a worker (workers.test.ts). `workerData`: `{ greeting }` comes back with `ready`;
 * `{ refuse: true }` fails the setup with a SkeinError. A port attached for another thread adds 1000 to
 * `add`, and notes "port closed" once it closes.
 */
import { SkeinError } from '../../../shared/errors';
import { serveWorker } from '../serve';
import { toyApi, type ToyApi } from './toy';

type Data = { greeting?: string; refuse?: boolean } | undefined;

serveWorker<ToyApi, { greeting: string }>(({ data }) => {
  const options = data as Data;
  if (options?.refuse) throw new SkeinError('not-available', 'the toy will not start', { action: 'Nothing to do.' });
  const api = toyApi();
  return {
    api,
    ready: { greeting: options?.greeting ?? 'hello' },
    attach: () => ({ api: { ...api, add: (a, b) => 1000 + a + b }, closed: () => api.note('port closed') }),
  };
});
