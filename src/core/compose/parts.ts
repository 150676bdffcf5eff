/**
 * The parts every project hosts: each area that keeps tables in the project registers them here, one line
 * each. The archive's worker (archive-worker.ts) and main's own thread, when no worker starts, open projects
 * with these.
 */
import type { AnyPart } from '../db';

export const PARTS: readonly AnyPart[] = [];
