/**
 * An item as JSON and JSONL write it: the raw bytes as they are, or `{root_id, parent_id, depth, item}` in a
 * thread; with `provenance` (JSONL) always wrapped: `{"__skein": …, [position keys,] "item": raw}`.
 */
import type { Sink } from '../files/atomic-file';
import type { Provenance, StreamItem } from './format';

export const EMPTY = Buffer.alloc(0);

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
    const position = item.position === 'null' ? '' : `${item.position.slice(1, -1)},`;
    const extra = codes === undefined ? '' : `"codes":${codes ?? 'null'},`;
    await sink.write(`{"__skein":${JSON.stringify(provenance)},${extra}${position}"item":`);
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
