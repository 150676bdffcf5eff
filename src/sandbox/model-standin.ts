/**
 * The demo's model coder: an OpenAI-compatible `POST /v1/chat/completions` that answers without a
 * model, deterministically, so model coders work offline and in every test. It reads the choices from the
 * system prompt Skein sends ("Answer with exactly one of these values and nothing else: a (…); b (…).") and
 * picks one from the post's words — a few cue words first (agreement, doubt), else a hash of the text and the
 * model's name — so the same post, prompt and model always get the same answer, and the stand-in agrees with
 * people on some posts and not on others, as a real model would. `GET /v1/models` lists its two models.
 * Counted in the request log like any call; never charged (it is not the Social Data API).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SandboxState } from './pipeline';

const ChatBody = z.object({
  model: z.string().min(1).max(200),
  messages: z
    .array(z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string().max(100_000) }))
    .min(1)
    .max(50),
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.number().int().positive().optional(),
});

const STANDIN_MODELS = ['skein-standin-1', 'skein-standin-careful'] as const;

const AGREE = /\b(agree|exactly|this is the way|love|great|ten out of ten|yes)\b/i;
const DOUBT = /\b(disagree|source\?|really\?|hmph|no way|can't|wrong)\b/i;

/** The values a system prompt offers, in order (empty: a text answer is asked for). */
export function offeredValues(system: string): { values: string[]; multiple: boolean } {
  const m = /(exactly one of|one or more of) these values[^:]*:\s*(.+?)\.?\s*$/ms.exec(system);
  if (!m) return { values: [], multiple: false };
  const values = m[2]!
    .split(/;\s*/)
    .map((part) => part.replace(/\s*\(.*$/s, '').trim())
    .filter((v) => v !== '');
  return { values, multiple: m[1] === 'one or more of' };
}

/** The stand-in's answer to a system prompt and a post's text, for a model name. */
export function standInAnswer(system: string, text: string, model: string): string {
  const { values, multiple } = offeredValues(system);
  const h = createHash('sha256').update(`${model}\u0000${text}`).digest();
  if (values.length === 0) return `stand-in note: ${text.split(/\s+/).slice(0, 6).join(' ')}`.trim();
  let pick = h[0]! % values.length;
  if (AGREE.test(text)) pick = 0;
  else if (DOUBT.test(text) && values.length > 1) pick = 1;
  if (!multiple) return values[pick]!;
  const second = h[1]! % values.length;
  return [...new Set([values[pick]!, ...(h[2]! % 2 === 0 ? [values[second]!] : [])])].join('|');
}

export function registerModelStandIn(app: FastifyInstance, s: SandboxState): void {
  app.get('/v1/models', async () => ({
    object: 'list',
    data: STANDIN_MODELS.map((id) => ({ id, object: 'model', owned_by: 'skein-sandbox' })),
  }));
  app.post('/v1/chat/completions', async (req, reply) => {
    const parsed = ChatBody.safeParse(req.body);
    s.log.add({
      at: s.clock.now(),
      method: 'POST',
      url: '/v1/chat/completions',
      operation: null,
      status: parsed.success ? 200 : 400,
      ms: 0,
      key: req.headers.authorization === undefined ? 'none' : 'sent',
    });
    if (!parsed.success)
      return reply.code(400).send({ error: { message: z.prettifyError(parsed.error), type: 'invalid_request_error' } });
    const { model, messages } = parsed.data;
    const system = messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n');
    const user = messages
      .filter((m) => m.role === 'user')
      .map((m) => m.content)
      .join('\n');
    const content = standInAnswer(system, user, model);
    const words = (t: string) => t.split(/\s+/).filter(Boolean).length;
    return {
      id: `chatcmpl-${createHash('sha256').update(`${model}${system}${user}`).digest('hex').slice(0, 24)}`,
      object: 'chat.completion',
      created: Math.floor(s.clock.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: words(system) + words(user),
        completion_tokens: words(content),
        total_tokens: words(system) + words(user) + words(content),
      },
    };
  });
}
