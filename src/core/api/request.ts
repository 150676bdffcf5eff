/**
 * Requests are built here and only here, from the operation catalog: the
 * renderer names an operation and its params, never a URL or a header.
 */
import { OPERATIONS, operation, type OperationId } from '../../shared/api/catalog';
import { paramsSchema, toQueryString } from '../../shared/api/params';
import { makeError } from '../../shared/errors';

export interface CanonicalParams {
  /** validated params with defaults applied, without cursor */
  params: Record<string, string | number | boolean>;
  cursor: string | null;
  /** stable text of `params` (sorted keys): the view and store key */
  paramsKey: string;
}

/**
 * Validate the bridge's params against the catalog and fill in every default,
 * so the request always says what it means (the live service's defaults
 * differ from the spec's for the user timeline: send both flags explicitly).
 */
export function canonicalParams(id: OperationId, input: unknown): CanonicalParams {
  const parsed = paramsSchema(id).safeParse(input);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => ({
      field: i.path.map(String).join('.') || 'params',
      message: i.message,
    }));
    throw makeError('validation', `Check the values: ${fields.map((f) => `${f.field}: ${f.message}`).join('; ')}.`, {
      fields,
    });
  }
  const given = parsed.data;
  const params: Record<string, string | number | boolean> = {};
  let cursor: string | null = null;
  for (const p of operation(id).params) {
    const v = given[p.name];
    if (p.name === 'cursor') {
      cursor = typeof v === 'string' && v !== '' ? v : null;
      continue;
    }
    if (v !== undefined) params[p.name] = v;
    else if (p.default !== undefined) params[p.name] = p.default;
    else if (p.type === 'boolean') params[p.name] = false;
  }
  const paramsKey = JSON.stringify(
    Object.keys(params)
      .sort()
      .map((k) => [k, params[k]]),
  );
  return { params, cursor, paramsKey };
}

/** The base URL as the user set it, checked: http(s), no credentials, query or fragment. */
export function checkedBaseUrl(baseUrl: string): string {
  if (!baseUrl.trim()) throw badBase('none is set', 'No API base URL is set for live mode, so nothing was sent.');
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    throw badBase(`“${baseUrl}” is not a URL`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw badBase('it must start with https:// or http://');
  if (u.username || u.password) throw badBase('it must not carry a user name or password');
  if (u.search || u.hash) throw badBase('it must not carry a query or fragment');
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

/** A setting is wrong (nothing was sent): the `baseUrl` field tells the renderer to point at Settings. */
function badBase(why: string, message = `The API base URL is not usable: ${why}; nothing was sent.`) {
  return makeError('validation', message, {
    fields: [{ field: 'baseUrl', message: why }],
    action: 'Set the API base URL in Settings (Connection), or switch to demo mode.',
  });
}

export function buildRequest(
  id: OperationId,
  canonical: CanonicalParams,
  target: { baseUrl: string; key: string | null },
): { url: string; headers: Record<string, string> } {
  const query = toQueryString(id, { ...canonical.params, cursor: canonical.cursor ?? undefined });
  const url = `${checkedBaseUrl(target.baseUrl)}${OPERATIONS[id].path}${query ? `?${query}` : ''}`;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (target.key) headers['x-api-key'] = target.key;
  return { url, headers };
}
