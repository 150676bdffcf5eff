/**
 * Server state of id lists (TanStack Query): the lists main keeps, the hydrations of a list that have
 * stopped, the ids each did not get; and reading a file into a new list (its text sent to main in pieces).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MAX_APPEND_CHARS, type IdEntity, type IdImport, type IdSource } from '../../../shared/ipc/ids';
import { skein } from '../../lib/bridge';

export const idsKeys = {
  all: ['ids'] as const,
  lists: () => ['ids', 'lists'] as const,
  unread: () => ['ids', 'unread'] as const,
  hydrations: (importId: string) => ['ids', 'hydrations', importId] as const,
  missing: (jobId: string, limit: number) => ['ids', 'missing', jobId, limit] as const,
};

const idListsQuery = () =>
  queryOptions({ queryKey: idsKeys.lists(), queryFn: () => skein().ids.list(), staleTime: Number.POSITIVE_INFINITY });

export function useIdLists() {
  return useQuery(idListsQuery());
}

/** The kept lists this Skein cannot read (a newer Skein's, or damaged), as main found them. */
export function useUnreadIdLists() {
  return useQuery({
    queryKey: idsKeys.unread(),
    queryFn: () => skein().ids.unread(),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Stopped hydrations of a list; asked again whenever one of its export jobs changes (see HydrateView). */
export function useHydrations(importId: string) {
  return useQuery({
    queryKey: idsKeys.hydrations(importId),
    queryFn: () => skein().ids.hydrations({ importId }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useMissing(jobId: string, limit: number) {
  return useQuery({
    queryKey: idsKeys.missing(jobId, limit),
    queryFn: () => skein().ids.missing({ jobId, offset: 0, limit }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Pieces of at most `size` characters, never splitting a surrogate pair. */
function* textPieces(text: string, size: number = MAX_APPEND_CHARS): Generator<string> {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + size, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield text.slice(start, end);
    start = end;
  }
}

export interface ReadInput {
  entity: IdEntity;
  label: string;
  source: IdSource;
  /** the file, or the pasted text */
  content: Blob | string;
  onProgress?: (fraction: number) => void;
}

/** Sends an open list its text, piece by piece, and seals it; a list that fails half way is discarded. */
async function fill(importId: string, texts: AsyncIterable<string> | Iterable<string>): Promise<IdImport> {
  const api = skein().ids;
  try {
    for await (const text of texts) for (const piece of textPieces(text)) await api.append({ importId, text: piece });
    return await api.seal({ importId });
  } catch (error) {
    await api.discard({ importId }).catch(() => undefined);
    throw error;
  }
}

/** A file's text as it is decoded, reporting the share read. */
async function* fileText(file: Blob, onProgress?: (fraction: number) => void): AsyncGenerator<string> {
  const total = file.size || 1;
  let done = 0;
  const reader = file.stream().pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done: end, value } = await reader.read();
    if (end) return;
    yield value;
    done += new TextEncoder().encode(value).length;
    onProgress?.(Math.min(1, done / total));
  }
}

/** Reads a file (or pasted text) into a new list, piece by piece; the list comes back with its report. */
async function readIdList({ entity, label, source, content, onProgress }: ReadInput): Promise<IdImport> {
  const created = await skein().ids.create({ entity, label, source });
  return fill(created.importId, typeof content === 'string' ? [content] : fileText(content, onProgress));
}

/** A new list with a kept list's ids and `ids` (the ids its @handles resolved to). */
export async function extendWithIds(list: IdImport, label: string, ids: readonly string[]): Promise<IdImport> {
  const next = await skein().ids.extend({ importId: list.importId, label });
  return fill(next.importId, [`${ids.join('\n')}\n`]);
}

export function useReadIdList() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: readIdList,
    onSuccess: () => qc.invalidateQueries({ queryKey: idsKeys.lists() }),
  });
}

export function useRetryMissing() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (jobId: string) => skein().ids.retryMissing({ jobId }),
    onSuccess: () => qc.invalidateQueries({ queryKey: idsKeys.lists() }),
  });
}

export function useDiscardList() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (importId: string) => skein().ids.discard({ importId }),
    onSuccess: () => qc.invalidateQueries({ queryKey: idsKeys.lists() }),
  });
}
