/**
 * The control plane, outside `/social/`: usage ledger, request log, faults,
 * clock and showcase ids. Never charged, never logged, and it ignores the
 * API key (the sandbox listens on loopback).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { OperationIdSchema } from '../shared/api';
import { FaultSyntaxError } from './faults';
import type { SandboxState } from './pipeline';

const FaultRuleBody = z.strictObject({
  fault: z.string().min(1),
  forMs: z.number().int().positive().optional(),
  count: z.number().int().positive().optional(),
  operations: z.array(OperationIdSchema).optional(),
});

const ClockBody = z.union([
  z.strictObject({ advanceMs: z.number().int() }),
  z.strictObject({ set: z.number().int().positive() }),
  z.strictObject({ reset: z.literal(true) }),
]);

export function registerControl(app: FastifyInstance, s: SandboxState, info: () => Record<string, unknown>): void {
  const bad = (error: z.ZodError | Error): { detail: string } => ({
    detail: error instanceof z.ZodError ? z.prettifyError(error) : error.message,
  });

  app.get('/__sandbox', async () => info());
  app.get('/__sandbox/examples', async () => s.world.examples);

  app.get('/__sandbox/usage', async () => s.ledger.snapshot());
  app.post('/__sandbox/usage/reset', async (_req, reply) => {
    s.ledger.reset();
    return reply.code(204).send();
  });

  app.get('/__sandbox/requests', async () => ({ requests: s.log.list() }));
  app.delete('/__sandbox/requests', async (_req, reply) => {
    s.log.clear();
    return reply.code(204).send();
  });

  app.get('/__sandbox/faults', async () => ({ faults: s.rules.list(s.clock.now()) }));
  app.post('/__sandbox/faults', async (req, reply) => {
    const body = FaultRuleBody.safeParse(req.body);
    if (!body.success) return reply.code(400).send(bad(body.error));
    try {
      return await reply.code(201).send(s.rules.add(body.data, s.clock.now()));
    } catch (e) {
      if (e instanceof FaultSyntaxError) return reply.code(400).send(bad(e));
      throw e;
    }
  });
  app.delete('/__sandbox/faults', async (_req, reply) => {
    s.rules.clear();
    return reply.code(204).send();
  });
  app.delete<{ Params: { id: string } }>('/__sandbox/faults/:id', async (req, reply) =>
    s.rules.remove(Number(req.params.id))
      ? reply.code(204).send()
      : reply.code(404).send({ detail: 'no such fault rule' }),
  );

  const clockState = (): { now: number; iso: string; offsetMs: number } => {
    const now = s.clock.now();
    return { now, iso: new Date(now).toISOString(), offsetMs: s.clock.offset };
  };
  app.get('/__sandbox/clock', async () => clockState());
  app.post('/__sandbox/clock', async (req, reply) => {
    const body = ClockBody.safeParse(req.body);
    if (!body.success) return reply.code(400).send(bad(body.error));
    const b = body.data;
    if ('advanceMs' in b) s.clock.advance(b.advanceMs);
    else if ('set' in b) s.clock.set(b.set);
    else s.clock.reset();
    return clockState();
  });
}
