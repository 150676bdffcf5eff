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
import type { World } from './world';

/** The world's own changes in (from, to], with ids and handles (not charged: the control plane). */
function worldChanges(world: World, from: number, to: number) {
  const c = world.live.changes(from, to);
  const user = (u: number) => ({ userId: world.users[u]?.id ?? '', userName: world.users[u]?.userName ?? '' });
  return {
    bornAt: world.bornAt,
    from,
    to,
    posts: c.posts.map((p) => ({
      id: p.id,
      ...user(p.author),
      createdAt: p.at,
      kind: p.kind,
      inReplyToId: p.parent >= 0 ? world.idOf(p.parent) : null,
      quotedId: p.quoted >= 0 ? world.idOf(p.quoted) : null,
      deletedAt: p.deleteAt,
    })),
    deletions: c.deletions.map((d) => ({
      id: world.idOf(d.index),
      ...user(world.authorOf(d.index)),
      at: d.at,
      live: world.live.at(d.index) !== undefined,
    })),
    suspensions: c.suspensions.map((x) => ({ ...user(x.user), at: x.at, liftedAt: x.liftedAt })),
  };
}

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

  // what the world did on its own clock (what watches find): new posts, deletions, suspensions in (from, to]
  app.get<{ Querystring: { from?: string; to?: string } }>('/__sandbox/changes', async (req, reply) => {
    const now = s.clock.now();
    const from = req.query.from === undefined ? s.world.bornAt : Number(req.query.from);
    const to = req.query.to === undefined ? now : Math.min(Number(req.query.to), now);
    if (!Number.isFinite(from) || !Number.isFinite(to))
      return reply.code(400).send({ detail: 'from and to are epoch milliseconds' });
    return worldChanges(s.world, from, to);
  });
  // a list's members: the API names no operation for them (its followers are its subscribers)
  app.get<{ Params: { id: string } }>('/__sandbox/lists/:id', async (req, reply) => {
    const list = s.world.list(req.params.id);
    if (!list) return reply.code(404).send({ detail: 'no such list' });
    return {
      id: list.id,
      name: list.name,
      members: list.members.map((u) => ({ id: s.world.users[u]?.id, userName: s.world.users[u]?.userName })),
    };
  });

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

  // the media files fetched (the app's media keeper, the viewer): each fetch, to count them
  app.get('/__sandbox/media-requests', async () => ({ requests: s.mediaLog.list() }));
  app.delete('/__sandbox/media-requests', async (_req, reply) => {
    s.mediaLog.clear();
    return reply.code(204).send();
  });

  // the pages of the small web fetched (the app's page keeper): each fetch, to count them
  app.get('/__sandbox/web-requests', async () => ({ requests: s.webLog.list() }));
  app.delete('/__sandbox/web-requests', async (_req, reply) => {
    s.webLog.clear();
    return reply.code(204).send();
  });

  // the URLs sent to the save service stand-in, with the time each arrived (to see the pace)
  app.get('/__sandbox/save-requests', async () => ({ requests: s.saveLog.list() }));
  app.delete('/__sandbox/save-requests', async (_req, reply) => {
    s.saveLog.clear();
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
