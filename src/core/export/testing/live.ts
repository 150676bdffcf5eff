/**
 * The live file as tests open it: in this thread, or in a worker of its own started from source (as the app
 * starts its built one), and what became of each: whether its `finish` put it in place (true) or left the export
 * to the journal's path (false).
 */
import type { ViewDescriptor } from '../../../shared/ipc/export';
import { liveInProcess, liveInWorker, type OpenLive } from '../live-thread';

export type LiveWhere = 'in this thread' | 'in a worker';

const FROM_SOURCE = ['--import', 'tsx'];

export function openLiveFor(
  where: LiveWhere,
  entry = new URL('../../compose/live-worker.ts', import.meta.url),
): OpenLive {
  return where === 'in a worker' ? liveInWorker({ entry, execArgv: FROM_SOURCE }) : liveInProcess;
}

/** `open`, with each live file's `finish` answer recorded in `used` */
export function recorded(open: OpenLive): { open: OpenLive; used: boolean[] } {
  const used: boolean[] = [];
  return {
    used,
    open: async (format, input) => {
      const live = await open(format, input);
      if (!live) return null;
      return {
        ...live,
        finish: async (manifest, items, signal) => {
          const put = await live.finish(manifest, items, signal);
          used.push(put);
          return put;
        },
      };
    },
  };
}

/** The views the live files' tests export: a thread under `root` (its items placed in it), and a people search. */
export function liveViews(root: string): { thread: ViewDescriptor; people: ViewDescriptor } {
  return {
    thread: {
      kind: 'thread',
      operation: 'postRepliesV2',
      params: { tweetId: root, queryType: 'Latest' },
      title: 'A thread',
    },
    people: { kind: 'peopleSearch', operation: 'userSearch', params: { query: 'x' } },
  };
}
