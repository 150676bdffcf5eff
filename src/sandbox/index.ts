/**
 * The embedded Social Data Read API sandbox: demo mode, the backend of tests,
 * and `npm run sandbox`. No electron import anywhere in here.
 */
export { startSandbox, buildSandbox, DEFAULT_SEED, type Sandbox, type SandboxOptions, type WorldSize } from './server';
export { WORLD_SIZES } from './world/size';
export { PAGE_SIZE } from './pipeline';
export { FAULT_NAMES, type FaultName } from './faults';
export type { LedgerEntry, RequestLogEntry } from './ledger';
export type { DemoExamples } from '../shared/ipc/app';
