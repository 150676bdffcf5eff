/**
 * The archive's worker thread: the archive's host, serving every project with the parts the composition
 * registers (parts.ts). Built as out/main/archive-worker.js; tests run it from source with tsx.
 */
import { serveArchive } from '../archive';
import { PARTS } from './parts';

serveArchive(PARTS);
