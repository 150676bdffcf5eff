/**
 * Canonical (spec-shaped) response bodies per operation, derived from the
 * catalog: the sandbox's answers validate against these, and the client's
 * tolerant readers normalize live-service variants into them.
 */
import { z } from 'zod';
import { ITEM_SCHEMAS, OPERATIONS, type OperationId } from './catalog';
import { PagingFields } from './schemas';

const cache = new Map<OperationId, z.ZodType>();

export function responseSchema(id: OperationId): z.ZodType {
  const hit = cache.get(id);
  if (hit) return hit;
  const op = OPERATIONS[id];
  const item = ITEM_SCHEMAS[op.itemKind];
  const shape: Record<string, z.ZodType> = {
    status: z.literal('success'),
    [op.messageKey]: z.string(),
    [op.collectionKey]: op.collectionKey === 'data' && !op.paged ? item : z.array(item),
  };
  let schema: z.ZodType = z.looseObject(shape);
  if (op.paged) schema = z.looseObject({ ...shape, ...PagingFields.shape });
  cache.set(id, schema);
  return schema;
}
