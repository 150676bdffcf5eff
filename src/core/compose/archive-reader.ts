/**
 * The archive's thread (or its view over a port, in a re-export's own worker) as the export's `ArchiveReader`
 * and `ArchiveSource`: what a re-export reads, wired here so neither area imports the other.
 */
import type { ArchiveThread } from '../archive';
import type { ArchiveReader, ArchiveSource } from '../export';

export function archiveReader(thread: Pick<ArchiveThread, 'call'>): ArchiveReader {
  return {
    readOpen: (handle, query) => thread.call('readOpen', handle, query),
    readNext: (reader, max) => thread.call('readNext', reader, max),
    readClose: (reader) => thread.call('readClose', reader),
    damagedItems: (handle, query, listed) => thread.call('damagedItems', handle, query, listed),
    requestsOpen: (handle, query) => thread.call('requestsOpen', handle, query),
    requestsNext: (reader, max) => thread.call('requestsNext', reader, max),
    heldPosts: (handle, ids) => thread.call('heldItems', handle, 'post', ids, true),
  };
}

export function archiveSource(thread: ArchiveThread): ArchiveSource {
  return thread.offMain ? { ...archiveReader(thread), offMain: thread.offMain } : archiveReader(thread);
}
