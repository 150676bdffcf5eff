/**
 * The parts every project hosts: each area that keeps tables in the project registers them here, one line
 * each. The archive's worker (archive-worker.ts) and main's own thread, when no worker starts, open projects
 * with these.
 */
import { CODING_PART } from '../coding';
import type { AnyPart } from '../db';
import { MEDIA_PART } from '../media';
import { PAGES_PART } from '../pages';
import { WATCH_PART } from '../watch';

export const PARTS: readonly AnyPart[] = [CODING_PART, WATCH_PART, MEDIA_PART, PAGES_PART];
