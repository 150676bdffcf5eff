/**
 * The parts every project hosts: each area that keeps tables in the project registers them here, one line
 * each. The archive's worker (archive-worker.ts) and main's own thread, when no worker starts, open projects
 * with these. Each comes from its area's tables face (`tables/part.ts`), not the area's index: the worker then
 * loads the tables alone, not what the area does with them (direction.config.js).
 */
import { CODING_PART } from '../coding/tables/part';
import type { AnyPart } from '../db';
import { MEDIA_PART } from '../media/tables/part';
import { PAGES_PART } from '../pages/tables/part';
import { WATCH_PART } from '../watch/tables/part';

export const PARTS: readonly AnyPart[] = [CODING_PART, WATCH_PART, MEDIA_PART, PAGES_PART];
