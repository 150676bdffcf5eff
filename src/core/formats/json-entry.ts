/**
 * An item as JSON and JSONL write it: the raw bytes as they are, or `{root_id, parent_id, depth, item}` in a
 * thread; with `provenance` (JSONL) always wrapped: `{"__skein": …, [position keys,] "item": raw}`.
 */
import type { Sink } from '../files/atomic-file';
import type { Provenance, StreamItem } from './format';

export const EMPTY = Buffer.alloc(0);

/** A JSON Lines entry up to its item: `{"__skein": provenance, [codes,] [position keys,] "item":` */
export function wrappedHead(provenance: string, position: string, codes?: string | null): string {
  const placed = position === 'null' ? '' : `${position.slice(1, -1)},`;
  const extra = codes === undefined ? '' : `"codes":${codes ?? 'null'},`;
  return `{"__skein":${provenance},${extra}${placed}"item":`;
}

export async function writeEntry(
  sink: Sink,
  item: StreamItem,
  before: Buffer,
  after: Buffer,
  provenance?: Provenance,
  /** JSONL: the item's extra columns as a JSON object (`"codes"`: the project's codes) */
  codes?: string | null,
): Promise<void> {
  await sink.write(before);
  if (provenance) {
    await sink.write(wrappedHead(JSON.stringify(provenance), item.position, codes));
    await sink.write(item.raw);
    await sink.write('}');
  } else if (item.position === 'null') {
    await sink.write(item.raw);
  } else {
    await sink.write(`${item.position.slice(0, -1)},"item":`);
    await sink.write(item.raw);
    await sink.write('}');
  }
  await sink.write(after);
}
