/**
 * One answer → canonical items (or the canonical `data` object), the raw
 * items they came from, the dropped items and the paging fields, whatever
 * live-service variant of the envelope arrived (api-field-notes.md):
 * `msg`/`message`, replies under `tweets`, the user timeline under
 * `data.tweets` with paging at the root, no `status` on user search, wrapped
 * trends. One bad item is dropped and reported; the rest of the page stays.
 */
import type { z } from 'zod';
import { ITEM_SCHEMAS, OPERATIONS, isListOperation, type ItemKind, type OperationId } from '../catalog';
import type { AnswerSnapshot, DroppedItem } from '../../ipc/api';
import { boundDepth } from './depth';
import type { SkeinError } from '../../errors';
import { makeError } from '../../errors';
import { communitySource, normalizeCommunity } from './community';
import { normalizePost } from './post';
import { normalizeSpace } from './space';
import { normalizeTrend, readTrendsSnapshot } from './trend';
import { normalizeUser } from './user';
import { isObject, type Obj } from './values';

export interface NormalizedPage {
  /** canonical items (list operations) */
  items: unknown[];
  /** raw items, aligned with `items` */
  rawItems: unknown[];
  /** items in the answer's collection before anything was dropped (what the service bills) */
  rawCount: number;
  dropped: DroppedItem[];
  /** parts of kept items cut for nesting too deep (see depth.ts), at most 20 listed */
  cut?: DroppedItem[];
  /** every item that was cut, by its index in the answer's list: its raw item is no longer its text as received */
  cutItems?: number[];
  /** canonical `data` (object operations) */
  data: unknown;
  rawData: unknown;
  /** null for operations that are not paged */
  paging: { hasNextPage: boolean; nextCursor: string } | null;
  /** the answer's own time and place, when it says them (trends' metadata) */
  snapshot?: AnswerSnapshot;
}

const READERS: Record<ItemKind, (v: unknown) => unknown> = {
  post: (v) => normalizePost(v),
  user: normalizeUser,
  trend: normalizeTrend,
  listFollower: readFollower,
  community: normalizeCommunity,
  space: normalizeSpace,
  article: (v) => v,
};

/** a list follower is a user when it has a user's id and handle (optional parts may be missing or empty) */
function readFollower(v: unknown): unknown {
  if (!isObject(v)) return v;
  const id = v.id ?? v.id_str ?? v.rest_id;
  const handle = v.userName ?? v.screen_name ?? v.username;
  const idOk =
    (typeof id === 'string' && /^\s*\d+\s*$/.test(id)) || (typeof id === 'number' && Number.isSafeInteger(id));
  return idOk && typeof handle === 'string' && handle !== '' ? normalizeUser(v) : v;
}

/** the object an object operation's answer is read from (what an export keeps as its raw item) */
function dataSource(kind: ItemKind, body: Obj): unknown {
  return kind === 'community' ? communitySource(body) : body.data;
}

const candidates = new Map<OperationId, string[][]>();

/** where each operation's list may be found, most canonical first (worked out once per operation) */
function collectionCandidates(id: OperationId): string[][] {
  const known = candidates.get(id);
  if (known) return known;
  const op = OPERATIONS[id];
  // community members / moderators are announced without a body (501); a live 200 carries users
  const keys =
    op.itemKind === 'post'
      ? [...new Set([op.collectionKey, 'tweets', 'replies'])]
      : op.itemKind === 'user' && op.collectionKey === 'data'
        ? ['data', 'users', 'members', 'moderators']
        : [op.collectionKey];
  const paths = [...keys.map((k) => [k]), ...keys.filter((k) => k !== 'data').map((k) => ['data', k])];
  candidates.set(id, paths);
  return paths;
}

/** the raw list in an answer, and where it was found; null when none is there */
export function locateItems(id: OperationId, body: unknown): { items: unknown[]; path: string } | null {
  if (!isObject(body)) return null;
  for (const path of collectionCandidates(id)) {
    let at: unknown = body;
    for (const k of path) at = isObject(at) ? at[k] : undefined;
    if (Array.isArray(at)) return { items: at, path: path.join('.') };
  }
  if (OPERATIONS[id].collectionKey === 'data' && Array.isArray(body.data)) return { items: body.data, path: 'data' };
  return null;
}

/** items the service counted in an answer (0 when it has no list) */
export function countRawItems(id: OperationId, body: unknown): number {
  if (!isListOperation(id)) return 0;
  return locateItems(id, body)?.items.length ?? 0;
}

function formatPath(path: ReadonlyArray<PropertyKey>, prefix = ''): string {
  let out = prefix;
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out === '' ? String(p) : `.${String(p)}`;
  return out || '(root)';
}

function firstIssue(error: z.ZodError, prefix: string): { path: string; message: string } {
  const issue = error.issues[0];
  if (!issue) return { path: prefix || '(root)', message: 'invalid' };
  return { path: formatPath(issue.path, prefix), message: issue.message };
}

function readPaging(body: Obj): { hasNextPage: boolean; nextCursor: string } {
  const scopes = [body, isObject(body.data) ? body.data : {}];
  const hasNext = scopes.map((s) => s.has_next_page).find((v) => v !== undefined);
  const cursor = scopes.map((s) => s.next_cursor).find((v) => typeof v === 'string' && v !== '');
  const nextCursor = typeof cursor === 'string' ? cursor : '';
  const hasNextPage = hasNext === true || hasNext === 'true' || (hasNext === undefined && nextCursor !== '');
  return { hasNextPage, nextCursor };
}

function malformed(path: string, message: string, httpStatus: number): SkeinError {
  return makeError('malformed', `The answer does not have the expected shape at ${path}: ${message}.`, {
    path,
    httpStatus,
  });
}

export function normalizePage(id: OperationId, body: unknown, httpStatus = 200): NormalizedPage {
  const op = OPERATIONS[id];
  if (!isObject(body)) throw malformed('(root)', 'not a JSON object', httpStatus);
  const paging = op.paged ? readPaging(body) : null;

  if (!isListOperation(id)) {
    const schema = ITEM_SCHEMAS[op.itemKind];
    const rawData = dataSource(op.itemKind, body);
    boundDepth(rawData, 'data');
    const parsed = schema.safeParse(READERS[op.itemKind](rawData));
    if (!parsed.success) {
      const { path, message } = firstIssue(parsed.error, 'data');
      throw malformed(path, message, httpStatus);
    }
    return { items: [], rawItems: [], rawCount: 0, dropped: [], data: parsed.data, rawData, paging };
  }

  const located = locateItems(id, body);
  if (!located) {
    // an empty page may come without its list at all
    if (paging && ('has_next_page' in body || 'next_cursor' in body))
      return { items: [], rawItems: [], rawCount: 0, dropped: [], data: null, rawData: undefined, paging };
    throw malformed(op.collectionKey, 'the list of items is missing', httpStatus);
  }
  const read = READERS[op.itemKind];
  const schema = ITEM_SCHEMAS[op.itemKind];
  const items: unknown[] = [];
  const rawItems: unknown[] = [];
  const dropped: DroppedItem[] = [];
  const cut: DroppedItem[] = [];
  const cutItems: number[] = [];
  located.items.forEach((raw, index) => {
    const cuts = boundDepth(raw, `${located.path}[${index}]`);
    if (cuts.length > 0) cutItems.push(index);
    for (const c of cuts) if (cut.length < 20) cut.push({ index, path: c.path, message: c.message });
    const item = read(raw);
    const parsed = schema.safeParse(item);
    if (parsed.success) {
      items.push(parsed.data);
      rawItems.push(raw);
      return;
    }
    const { path, message } = firstIssue(parsed.error, `${located.path}[${index}]`);
    const rawId = isObject(raw) ? (raw.id ?? raw.id_str) : undefined;
    dropped.push({
      index,
      ...(typeof rawId === 'string' || typeof rawId === 'number' ? { id: String(rawId) } : {}),
      path,
      message,
    });
  });
  const snapshot = op.itemKind === 'trend' ? readTrendsSnapshot(body) : null;
  return {
    items,
    rawItems,
    rawCount: located.items.length,
    dropped,
    ...(cut.length > 0 ? { cut, cutItems } : {}),
    data: null,
    rawData: undefined,
    paging,
    ...(snapshot ? { snapshot } : {}),
  };
}
