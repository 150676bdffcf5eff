/**
 * From a view descriptor to the calls an export makes: which operation,
 * which params (checked against the catalog), how batch id lists are split
 * into calls, and how items are identified for de-duplication.
 */
import { MAX_IDS_PER_CALL, OPERATIONS, type ItemKind, type OperationId } from '../../../shared/api/catalog';
import { paramsSchema } from '../../../shared/api/params';
import { DEFAULT_ACTIONS, SkeinError } from '../../../shared/errors';
import type { ExportFormat, ViewDescriptor, ViewKind } from '../../../shared/ipc/export';

export type Params = Record<string, string | number | boolean>;

export interface PlannedRequest {
  params: Params;
  /** ids asked for (batch views), to report the ones not found */
  idsAsked: string[] | null;
}

export interface ViewPlan {
  kind: ViewKind;
  operation: OperationId;
  paged: boolean;
  itemKind: ItemKind;
  /** one per call sequence: batch views split their ids, every other view has one */
  requests: PlannedRequest[];
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

/**
 * The calls a view makes. A batch view that names an id import (`idsFrom`) takes its ids from `imported`
 * (the import's ids, which main read from the user data folder), not from its params.
 */
export function planView(view: ViewDescriptor, imported?: readonly string[]): ViewPlan {
  const operation = view.operation;
  const spec = OPERATIONS[operation];
  const params: Params = { ...view.params };
  delete params.cursor;
  const idParam = spec.params.find((p) => p.type === 'idList');
  let requests: PlannedRequest[];
  if (view.idsFrom !== undefined && (!idParam || !imported)) {
    throw badInput('This view cannot take its ids from an id list.', 'view.idsFrom');
  }
  if (idParam) {
    const raw = params[idParam.name];
    // an id list is distinct already (ImportStore keeps each id once): no second set of a million ids
    const ids: readonly string[] = imported ?? [
      ...new Set(
        String(raw ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ];
    if (ids.length === 0) throw badInput(`${idParam.name} needs at least one id`, `view.params.${idParam.name}`);
    requests = [];
    for (let i = 0; i < ids.length; i += MAX_IDS_PER_CALL) {
      const chunk = ids.slice(i, i + MAX_IDS_PER_CALL);
      requests.push({ params: checked(operation, { ...params, [idParam.name]: chunk.join(',') }), idsAsked: chunk });
    }
  } else {
    requests = [{ params: checked(operation, params), idsAsked: null }];
  }
  const rootId = POSITIONED.has(view.kind) ? String(params.tweetId) : null;
  return { kind: view.kind, operation, paged: spec.paged, itemKind: spec.itemKind, requests, rootId };
}

/** The id that identifies an item for de-duplication, or null (trends, objects). */
export function itemIdOf(raw: unknown): string | null {
  if (raw === null || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  for (const key of ['id', 'rest_id', 'id_str']) {
    const v = r[key];
    if (typeof v === 'string' && v !== '') return v;
    if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  }
  return null;
}

const EXTENSIONS: Record<ExportFormat, string> = {
  json: 'json',
  jsonl: 'jsonl',
  csv: 'csv',
  parquet: 'parquet',
  gexf: 'gexf',
  'gephi-csv': 'csv',
  ids: 'txt',
};

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
export function suggestedFileName(view: ViewDescriptor, format: ExportFormat, now: number): string {
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
  return `skein-${view.kind}${clean ? `-${clean}` : ''}-${fileStamp(now)}.${EXTENSIONS[format]}`;
}
