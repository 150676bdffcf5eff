/**
 * One answer made ready for a store, whichever it is (SQLite's ingest.ts, PostgreSQL's postgres/ingest.ts): the
 * body parsed once, each item's raw JSON exactly as received and what the Archive view filters on, and the
 * answer's envelope with each item replaced by a marker, so the answer can be rebuilt (served again without a
 * call) from one copy of every item. Pure: no database here.
 */
import { OPERATIONS, isListOperation, type OperationId } from '../../shared/api/catalog';
import { locateItems, normalizePage } from '../../shared/api/normalize/page';
import { isObject } from '../../shared/api/normalize/values';
import { derive, deriveListItem, type Derived } from './derive';
import { itemSpans } from '../../shared/api/spans';

/** One answer as the client received it (the body as text: the worker parses it, not main). */
export interface IngestRecord {
  operation: OperationId;
  /** canonical params without the cursor (the response store's key) */
  params: string;
  cursor: string | null;
  at: number;
  baseUrl: string;
  httpStatus: number;
  text: string;
}

/** An answer ready to be written: the request's columns, and its items in the order the answer listed them. */
export interface PreparedAnswer {
  record: IngestRecord;
  nextCursor: string | null;
  envelope: string;
  /** items taken out of the answer's list (an object answer's one item is not counted: it stays in its envelope) */
  listed: number;
  /** item n is the answer's marker n (position n of the request's items) */
  items: Array<{ derived: Derived; raw: string }>;
}

/** The marker an item leaves in its answer's envelope; an answer already holding the word is kept whole. */
const ITEM_MARKER = '$skein:item';
const MARKER_RE = /\{"\$skein:item":(\d+)\}/g;

/** the next page's cursor, at the root or under `data` (api-field-notes.md) */
function nextCursorOf(body: unknown): string | null {
  for (const scope of isObject(body) ? [body, body.data] : []) {
    const c = isObject(scope) ? scope.next_cursor : undefined;
    if (typeof c === 'string' && c !== '') return c;
  }
  return null;
}

/**
 * Each item's raw JSON and the answer's envelope (the items replaced by their markers). From the
 * text itself when the items can be found in it: each item exactly as received, the envelope
 * the text between them. Otherwise (or for an item written over several lines, which a JSONL
 * re-export could not hold on one) from the parsed body written out again.
 */
function takeOut(
  text: string,
  body: unknown,
  list: unknown[] | null,
  listPath: string,
  extracted: ReadonlyArray<{ item: unknown; index: number }>,
): { envelope: string; raws: string[] } {
  if (extracted.length === 0 || !list) return { envelope: text, raws: [] };
  const spans = itemSpans(text, listPath.split('.'), list.length);
  if (!spans) {
    const raws = extracted.map((e) => JSON.stringify(e.item));
    extracted.forEach((e, i) => (list[e.index] = { [ITEM_MARKER]: i }));
    return { envelope: JSON.stringify(body), raws };
  }
  const raws: string[] = [];
  let envelope = '';
  let at = 0;
  extracted.forEach((e, i) => {
    const [start, end] = spans[e.index] ?? [0, 0];
    const raw = text.slice(start, end);
    raws.push(raw.includes('\n') || raw.includes('\r') ? JSON.stringify(e.item) : raw);
    envelope += `${text.slice(at, start)}{"${ITEM_MARKER}":${i}}`;
    at = end;
  });
  return { envelope: envelope + text.slice(at), raws };
}

/** Parses an answer and takes its items out; a malformed answer is kept whole, with no items. */
export function prepareAnswer(r: IngestRecord): PreparedAnswer {
  let body: unknown;
  try {
    body = JSON.parse(r.text);
  } catch {
    body = undefined;
  }
  const kind = OPERATIONS[r.operation].itemKind;
  /** items taken out: where the item sat in its list, the item, and what the view filters on */
  let extracted: Array<{ item: unknown; index: number; derived: Derived }> = [];
  let list: unknown[] | null = null;
  let listPath = '';
  let nextCursor: string | null = null;
  let objectItem: { raw: unknown; derived: Derived } | null = null;
  if (body !== undefined && r.httpStatus >= 200 && r.httpStatus < 300) {
    try {
      if (isListOperation(r.operation)) {
        // the list as the client's readers find it, each item read without the schema check (the
        // client already checked what it showed; the archive keeps every item that has an id)
        nextCursor = nextCursorOf(body);
        const located = locateItems(r.operation, body);
        list = located?.items ?? null;
        listPath = located?.path ?? '';
        list?.forEach((item, index) => {
          const d = deriveListItem(kind, item);
          if (d) extracted.push({ item, index, derived: d });
        });
      } else {
        const page = normalizePage(r.operation, body, r.httpStatus);
        const d = derive(kind, page.data);
        if (d) objectItem = { raw: page.rawData, derived: d };
      }
    } catch {
      // a malformed answer is kept whole in its request, with no items taken out
      extracted = [];
    }
  }
  // a body that already holds the marker word is kept whole: the marker must only ever mean an item
  if (r.text.includes(ITEM_MARKER)) extracted = [];
  const { envelope, raws } = takeOut(r.text, body, list, listPath, extracted);
  const items = extracted.map((e, i) => ({ derived: e.derived, raw: raws[i] ?? '' }));
  // an object answer (a profile, a space, a community) stays whole as a timed snapshot, and its item is kept too
  const single = objectItem;
  if (single) items.push({ derived: single.derived, raw: JSON.stringify(single.raw) });
  return { record: r, nextCursor, envelope, listed: extracted.length, items };
}

/** The answer's body text again: the envelope with each marker replaced by its item's raw JSON. */
export function rebuildBody(envelope: string, items: readonly string[]): string | null {
  let missing = false;
  const text = envelope.replace(MARKER_RE, (_m, n: string) => {
    const raw = items[Number(n)];
    if (raw === undefined) missing = true;
    return raw ?? 'null';
  });
  return missing ? null : text;
}
