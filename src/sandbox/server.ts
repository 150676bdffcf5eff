/**
 * The sandbox server: Fastify, with one route per catalog operation (looped,
 * never hand-written), the control plane, the media files and the small web the posts link to.
 */
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { DEFAULT_PRICES, OPERATION_IDS, OPERATIONS, PriceTable } from '../shared/api';
import type { DemoExamples } from '../shared/ipc/app';
import { SandboxClock } from './clock';
import { registerControl } from './control';
import { CursorCodec } from './cursor';
import { FaultRules } from './faults';
import { MediaLog, RequestLog, UsageLedger } from './ledger';
import {
  mediaEtag,
  mp4Bytes,
  parseMediaName,
  parseVideoName,
  pngImage,
  svgImage,
  imageSpec,
  videoDurationMs,
} from './media';
import { registerModelStandIn } from './model-standin';
import { registerSaveStandIn } from './save-standin';
import { registerTsaStandIn } from './tsa-standin';
import { handleSocial, type SandboxState } from './pipeline';
import { Answers } from './answers';
import { parseWebPath, webAnswer } from './web';
import { World } from './world';
import type { AnyIdsOptions } from './world/any-ids';
import { LRUCache } from 'lru-cache';
import { cached } from './world/lru';
import { resolveSize, type SizeOption, type WorldSize } from './world/size';

export type { WorldSize } from './world/size';

export interface SandboxOptions {
  /** 0 (default) = an ephemeral port */
  port?: number;
  /** default 127.0.0.1 */
  host?: string;
  /** world seed, default 1 */
  seed?: number;
  size?: SizeOption;
  /** undefined = demo: any key or none is accepted */
  requiredKey?: string;
  /** clock for spaces and relative times, default Date.now */
  now?: () => number;
  prices?: PriceTable;
  /** Fastify's request logging (default off) */
  logger?: boolean;
  /**
   * Answer batch lookups of any numeric id (hydrating a shared id file): a stable share not found, a post or
   * user drawn for each other id. Absent: ids the world never generated are left out.
   */
  anyIds?: AnyIdsOptions;
  /** how fast the world moves after its still first hour: new posts an hour relative to its own past (default 1) */
  activity?: number;
}

export interface Sandbox {
  /** e.g. http://127.0.0.1:PORT, no trailing slash */
  baseUrl: string;
  port: number;
  examples: DemoExamples;
  close: () => Promise<void>;
}

export const DEFAULT_SEED = 1;

export interface BuiltSandbox {
  app: FastifyInstance;
  state: SandboxState;
  size: WorldSize;
  /** stop timers and drop never-answered requests */
  shutdown: () => void;
}

/** Build the app without listening (tests may `inject`). */
export function buildSandbox(opts: SandboxOptions = {}): BuiltSandbox {
  const seed = opts.seed ?? DEFAULT_SEED;
  const size = resolveSize(opts.size);
  const clock = new SandboxClock(opts.now ?? Date.now);
  const world = new World({ seed, size, now: clock.now(), anyIds: opts.anyIds, activity: opts.activity });
  const timers = new Set<NodeJS.Timeout>();
  const hanging = new Set<Socket>();
  const state: SandboxState = {
    world,
    byOperation: new Answers(world),
    clock,
    ledger: new UsageLedger(PriceTable.parse(opts.prices ?? DEFAULT_PRICES)),
    log: new RequestLog(),
    mediaLog: new MediaLog(),
    webLog: new MediaLog(),
    saveLog: new MediaLog(),
    rules: new FaultRules(),
    codec: new CursorCodec(seed),
    requiredKey: opts.requiredKey,
    hanging,
    answers: new LRUCache({ max: 128 }),
    sleep: (ms) =>
      new Promise((resolve) => {
        const t = setTimeout(() => {
          timers.delete(t);
          resolve();
        }, ms);
        timers.add(t);
      }),
  };

  const app = Fastify({ logger: opts.logger ?? false, forceCloseConnections: true });
  for (const id of OPERATION_IDS) {
    const op = OPERATIONS[id];
    app.get(op.path, (req, reply) => handleSocial(state, id, req, reply));
    app.route({
      method: ['POST', 'PUT', 'PATCH', 'DELETE'],
      url: op.path,
      handler: async (_req, reply) =>
        reply.code(405).header('allow', 'GET, HEAD').send({ detail: 'Method Not Allowed' }),
    });
  }

  registerControl(app, state, () => ({
    name: 'Skein API sandbox',
    seed,
    size,
    generationMs: Math.round(world.buildMs),
    requiresKey: opts.requiredKey !== undefined,
    operations: OPERATION_IDS.length,
    now: clock.now(),
  }));

  // the demo's model coder: an OpenAI-compatible stand-in, deterministic, offline
  registerModelStandIn(app, state);
  // the demo's timestamp authority (RFC 3161) for kept media, and one that is always down
  registerTsaStandIn(app, clock);
  // the demo's web archive save service (Save Page Now's answers), for the pages the posts link to
  registerSaveStandIn(app, seed, clock, state.saveLog);

  const images = new LRUCache<string, Buffer | string>({ max: 256 });
  app.addHook('onResponse', async (req, reply) => {
    // every media fetch, so a test can count them (the request log keeps /social/ only)
    if (req.url.startsWith('/media/'))
      state.mediaLog.add({
        at: clock.now(),
        url: req.url,
        status: reply.statusCode,
        agent: String(req.headers['user-agent'] ?? '').slice(0, 120),
      });
    // and every request for a page of the small web
    if (req.url.startsWith('/web/'))
      state.webLog.add({
        at: clock.now(),
        url: req.url,
        status: reply.statusCode,
        agent: String(req.headers['user-agent'] ?? '').slice(0, 120),
      });
  });
  // the small web the posts link to (web.ts): a page, or one of the ways the web goes wrong
  app.get('/web/*', async (req, reply) => {
    const at = parseWebPath(req.url);
    if (!at) return reply.code(404).type('text/plain').send('Not Found');
    const answer = webAnswer(seed, at.host, at.path);
    switch (answer.kind) {
      case 'gone':
        return reply.code(404).type('text/html; charset=utf-8').send('<!doctype html><title>Not found</title>\n');
      case 'moved':
      case 'inner':
        return reply.code(301).header('location', answer.location).send();
      case 'image':
        return reply
          .type('image/png')
          .send(cached(images, `img-${answer.id}.png`, () => pngImage(imageSpec(seed, 'img', answer.id))));
      case 'slow':
        await state.sleep(answer.delayMs);
        return reply.type('text/html; charset=utf-8').send(answer.html);
      default:
        return reply.type('text/html; charset=utf-8').send(answer.html);
    }
  });
  app.get<{ Params: { name: string } }>('/media/:name', async (req, reply) => {
    const video = parseVideoName(req.params.name);
    if (video) {
      const body = cached(images, req.params.name, () =>
        mp4Bytes(seed, req.params.name, video.bitrate, videoDurationMs(seed, video.id)),
      );
      return reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('etag', mediaEtag(seed, req.params.name))
        .type('video/mp4')
        .send(body);
    }
    const m = parseMediaName(req.params.name);
    if (!m) return reply.code(404).send({ detail: 'Not Found' });
    const body = cached(images, req.params.name, () => {
      const spec = imageSpec(seed, m.kind, m.id);
      if (m.ext === 'png') return pngImage(spec);
      const u = m.kind === 'avatar' ? world.userIndex(m.id) : -1;
      const label =
        u >= 0
          ? (world.users[u]?.name ?? '')
              .split(/\s+/)
              .map((w) => w.charAt(0))
              .join('')
              .slice(0, 2)
          : '';
      return svgImage(spec, label);
    });
    return reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('etag', mediaEtag(seed, req.params.name))
      .type(m.ext === 'png' ? 'image/png' : 'image/svg+xml')
      .send(body);
  });

  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/social/')) {
      state.log.add({
        at: clock.now(),
        method: req.method,
        url: req.url,
        operation: null,
        status: 404,
        ms: 0,
        key: req.headers['x-api-key'] === undefined ? 'none' : 'sent',
      });
    }
    return reply.code(404).send({ detail: 'Not Found' });
  });

  const shutdown = (): void => {
    for (const t of timers) clearTimeout(t);
    timers.clear();
    for (const socket of hanging) socket.destroy();
    hanging.clear();
  };
  app.addHook('preClose', async () => shutdown());
  return { app, state, size, shutdown };
}

/** Start a sandbox on loopback; resolves once it listens. */
export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const built = buildSandbox(opts);
  const host = opts.host ?? '127.0.0.1';
  try {
    await built.app.listen({ port: opts.port ?? 0, host });
  } catch (e) {
    // closed before the error leaves: a worker thread ended while Node still makes the stand-in authority's keys
    // aborts the whole process, and the sandbox's worker is ended as soon as its start fails
    await built.app.close().catch(() => {});
    throw e;
  }
  const address = built.app.server.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? 0);
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const baseUrl = `http://${shown}:${port}`;
  built.state.world.origin = baseUrl;
  return {
    baseUrl,
    port,
    examples: built.state.world.examples,
    close: () => built.app.close(),
  };
}
