/**
 * Workers, written once (ground floor: node:worker_threads and the shared error model only). Main starts
 * one with `startWorker<Api>`, the worker module serves `Api` with `serveWorker`, and both ends are typed by
 * that one interface; `connectPort` reaches it from another thread, `inProcess` serves it on this one.
 */
export { connectPort, inProcess, type Client } from './client';
export { outOfMemory, startWorker, type RunningWorker, type StartOptions } from './start';
export { serveWorker } from './serve';
export { holdYoungGeneration } from './young-generation';
