/**
 * From a view descriptor to the calls an export makes: which operation,
 * which params (checked against the catalog), how batch id lists are split
 * into calls, and the file name an export suggests.
 */
import { MAX_IDS_PER_CALL, OPERATIONS, type ItemKind, type OperationId } from '../../shared/api/catalog';
import { paramsSchema } from '../../shared/api/params';
import { DEFAULT_ACTIONS, SkeinError } from '../../shared/errors';
import type { ViewDescriptor, ViewKind } from '../../shared/ipc/export';
import type { IdList } from '../ids';

export type Params = Record<string, string | number | boolean>;

export interface PlannedRequest {
  params: Params;
  /** ids asked for (batch views), to report the ones not found */
  idsAsked: string[] | null;
  /** a hydration's batch of ids the project already holds: read from it, at no cost */
  fromProject?: true;
}

export interface ViewPlan {
  kind: ViewKind;
  operation: OperationId;
  paged: boolean;
  itemKind: ItemKind;
  /** call sequences: batch views split their ids into calls of up to 100, every other view makes one */
  requestCount: number;
  /** request `i`'s params and ids (a hydration reads its batch of ids from the list on disk) */
  request: (i: number) => Promise<PlannedRequest>;
  /** ids request `i` asks for, without reading them; null for views that take none */
  askedCount: (i: number) => number | null;
  /** the params every request shares (a batch view's without its ids): what the files and manifest read */
  params: Params;
  /** the requests, when the plan holds them (every view but a hydration, whose ids stay on disk) */
  listed: readonly PlannedRequest[] | null;
  /** a hydration (`idsFrom`): its ids come from a list on disk, a batch at a time; its answers are not kept in memory */
  fromList: {
    ids: number;
    /** ids the project already held at the start: its first `heldRequests` requests read them from it */
    held: number;
    heldRequests: number;
  } | null;
  /** thread views carry each item's place in the tree */
  rootId: string | null;
}

/** Views whose items get `root_id`, `parent_id`, `depth` alongside them. */
const POSITIONED: ReadonlySet<ViewKind> = new Set(['thread', 'directReplies']);

function badInput(message: string, field: string): SkeinError {
  return new SkeinError('bad-input', message, { fields: [{ field, message }], action: DEFAULT_ACTIONS['bad-input'] });
}

function checked(operation: OperationId, params: Params): Params {
  const parsed = paramsSchema(operation).safeParse(params);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = ['view', 'params', ...(issue?.path ?? [])].map(String).join('.');
    throw badInput(`Invalid view params (${field}: ${issue?.message ?? 'invalid'})`, field);
  }
  return parsed.data;
}

type Requests = Pick<ViewPlan, 'requestCount' | 'request' | 'askedCount' | 'fromList' | 'listed'>;

/** The requests of a view held in memory: one, or a batch view's few ids from its params. */
function inMemory(requests: readonly PlannedRequest[]): Requests {
  return {
    requestCount: requests.length,
    request: async (i) => {
      const r = requests[i];
      if (!r) throw new RangeError(`no request ${i}`);
      return r;
    },
    askedCount: (i) => requests[i]?.idsAsked?.length ?? null,
    listed: requests,
    fromList: null,
  };
}

/**
 * The calls a view makes. A batch view that names an id import (`idsFrom`) takes its ids from `imported`
 * (the import's list on disk, read a batch at a time), not from its params.
 */
export function planView(view: ViewDescriptor, imported?: IdList, held?: IdList): ViewPlan {
  const operation = view.operation;
  const spec = OPERATIONS[operation];
  const params: Params = { ...view.params };
  delete params.cursor;
  const idParam = spec.params.find((p) => p.type === 'idList');
  let requests: Requests;
  let shared: Params;
  if (view.idsFrom !== undefined && (!idParam || !imported)) {
    throw badInput('This view cannot take its ids from an id list.', 'view.idsFrom');
  }
  if (idParam && imported) {
    // an id list is distinct already (ImportStore keeps each id once): no set of a million ids, no copy of them
    const h = held?.count ? held : null;
    if (imported.count === 0 && !h)
      throw badInput(`${idParam.name} needs at least one id`, `view.params.${idParam.name}`);
    if (imported.batchSize !== MAX_IDS_PER_CALL || (h && h.batchSize !== MAX_IDS_PER_CALL))
      throw new RangeError('an id list is read in batches of one call');
    const { [idParam.name]: _ids, ...rest } = params;
    shared = rest;
    const heldRequests = h?.batches ?? 0;
    const sizeOf = (list: IdList, i: number) =>
      i >= 0 && i < list.batches ? Math.min(MAX_IDS_PER_CALL, list.count - i * MAX_IDS_PER_CALL) : null;
    requests = {
      requestCount: heldRequests + imported.batches,
      request: async (i) => {
        if (h && i < heldRequests) return { params: rest, idsAsked: await h.batch(i), fromProject: true };
        const chunk = await imported.batch(i - heldRequests);
        return { params: checked(operation, { ...rest, [idParam.name]: chunk.join(',') }), idsAsked: chunk };
      },
      askedCount: (i) => (h && i < heldRequests ? sizeOf(h, i) : sizeOf(imported, i - heldRequests)),
      listed: null,
      fromList: { ids: imported.count + (h?.count ?? 0), held: h?.count ?? 0, heldRequests },
    };
  } else if (idParam) {
    const ids = [
      ...new Set(
        String(params[idParam.name] ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ];
    if (ids.length === 0) throw badInput(`${idParam.name} needs at least one id`, `view.params.${idParam.name}`);
    const list: PlannedRequest[] = [];
    for (let i = 0; i < ids.length; i += MAX_IDS_PER_CALL) {
      const chunk = ids.slice(i, i + MAX_IDS_PER_CALL);
      list.push({ params: checked(operation, { ...params, [idParam.name]: chunk.join(',') }), idsAsked: chunk });
    }
    shared = list[0]?.params ?? params;
    requests = inMemory(list);
  } else {
    shared = checked(operation, params);
    requests = inMemory([{ params: shared, idsAsked: null }]);
  }
  const rootId = POSITIONED.has(view.kind) ? String(params.tweetId) : null;
  return {
    kind: view.kind,
    operation,
    paged: spec.paged,
    itemKind: spec.itemKind,
    params: shared,
    ...requests,
    rootId,
  };
}

/** `20261123T195400Z`: the collection time in UTC, in a file name. */
export function fileStamp(now: number): string {
  return new Date(now)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/**
 * `skein-thread-1234567890123456789-20261123T195400Z.json`: safe on every file
 * system, and unique per export (the UTC time), so two exports of one view never
 * overwrite each other; every file of the export shares this stem.
 */
export function suggestedFileName(view: ViewDescriptor, extension: string, now: number): string {
  const spec = OPERATIONS[view.operation];
  const key = spec.params.find((p) => p.required)?.name;
  let subject = key ? String(view.params[key] ?? '') : '';
  if (spec.params.some((p) => p.type === 'idList')) subject = `${subject.split(',').length}-ids`;
  if (view.idsFrom !== undefined) subject = 'id-list';
  if (view.kind === 'trends') subject = `woeid-${String(view.params.woeid ?? 1)}`;
  const clean = subject
    .replace(/[^\p{L}\p{N}_-]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `skein-${view.kind}${clean ? `-${clean}` : ''}-${fileStamp(now)}.${extension}`;
}
