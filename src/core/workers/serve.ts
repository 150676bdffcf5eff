/**
 * The worker's end: `serveWorker` in a worker module runs its setup, answers main's calls with the api it
 * returns (typed by the same interface main calls), serves other connections main attaches (ports for
 * other threads), and closes when main stops it.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { answer, toWire, type Control, type Reply, type Request, type Status } from './protocol';

export interface WorkerSetup {
  /** the `workerData` main started it with */
  data: unknown;
  /** an error nobody waits for (a failed batch, a failed post): main's `onError` gets it */
  report: (error: unknown) => void;
}

export interface Served<Api, Ready = undefined> {
  /** what main's calls run */
  api: Api;
  /** sent to main with `ready` */
  ready?: Ready;
  /** a connection main attached for another thread: the api it is served (default `api`), and what its closing releases */
  attach?: () => { api: Api; closed?: () => void };
  /** main stops the worker: release what it holds */
  close?: () => void | Promise<void>;
}

/** Serves `api` on `port`: every request answered on the same port. */
function servePort(port: MessagePort, api: object, report: (error: unknown) => void): void {
  port.on('message', (request: Request) => answer(api, request, (reply: Reply) => port.postMessage(reply), report));
}

export function serveWorker<Api extends object, Ready = undefined>(
  setup: (context: WorkerSetup) => Served<Api, Ready> | Promise<Served<Api, Ready>>,
): void {
  if (!parentPort) throw new Error('serveWorker runs in a worker thread');
  const channel = parentPort;
  const status = (message: Status) => channel.postMessage(message);
  const report = (error: unknown) => status({ kind: 'report', error: toWire(error) });
  void (async () => {
    let served: Served<Api, Ready>;
    try {
      served = await setup({ data: workerData, report });
    } catch (error) {
      status({ kind: 'failed', error: toWire(error) });
      channel.close();
      return;
    }
    const close = async () => {
      try {
        await served.close?.();
      } catch (error) {
        report(error);
      }
      status({ kind: 'closed' });
      channel.close();
    };
    channel.on('message', (message: Request | Control) => {
      if (message.kind === 'close') void close();
      else if (message.kind === 'attach') {
        const connection = served.attach?.() ?? { api: served.api };
        servePort(message.port, connection.api, report);
        if (connection.closed) message.port.once('close', connection.closed);
      } else answer(served.api, message, (reply) => channel.postMessage(reply), report);
    });
    status({ kind: 'ready', ready: served.ready });
  })();
}
