/**
 * Model coders: a coder that is a model reached through an OpenAI-compatible chat endpoint
 * (Ollama, llama.cpp's server, a hosted one), or in demo mode the sandbox's deterministic stand-in. Off unless
 * configured. A run codes a model coder's queue in a sample, one call per item and field it has a prompt for,
 * one at a time, values it made already skipped; each value is stored like any coder's, with the model, the
 * prompt, the settings and the answer as received. An answer that names no category is counted, not stored.
 * The endpoint's key is kept like the API key and sent to the origin it was entered for, and nowhere else.
 */
import { randomBytes } from 'node:crypto';
import type { CodebookDefinition, CodedKind, CodeValue, FieldDef } from '../../shared/coding/codebook';
import { canonicalValue } from '../../shared/coding/codebook';
import type { Coder } from '../../shared/coding/records';
import { SkeinError } from '../../shared/errors';
import type { ModelRun } from '../../shared/ipc/coding';
import { baseUrlOrigin } from '../../shared/ipc/settings';
import { readAccount, readPost } from './files/items';
import { currentVersion, type CodingService } from './service';

/** Where calls go now, with the key for that origin (null: none needed, or none set). */
export interface ModelTarget {
  baseUrl: string;
  key: string | null;
}

export interface ModelRunDeps {
  service: CodingService;
  now: () => number;
  fetch: typeof fetch;
  /** the configured endpoint, or null (off) */
  target: () => Promise<ModelTarget | null>;
  onError?: (error: unknown) => void;
}

/** How long one answer may take (a local model on a laptop is slow). */
const CALL_TIMEOUT_MS = 120_000;
/** An answer read at most this long (a model that rambles is cut). */
const MAX_ANSWER = 4_000;
const QUEUE_PAGE = 200;
const MAX_BODY = 1_000_000;

/** The prompt a field is asked with: the coder's own, then the choices to answer with. */
export function systemPrompt(field: FieldDef, own: string): string {
  if (field.type === 'text' || field.type === 'note') return `${own.trim()}\nAnswer with a short text.`;
  const choices = field.categories
    .map((c) => `${c.value} (${c.label}${c.description ? `: ${c.description}` : ''})`)
    .join('; ');
  return field.multiple
    ? `${own.trim()}\nAnswer with one or more of these values, separated by |, and nothing else: ${choices}.`
    : `${own.trim()}\nAnswer with exactly one of these values and nothing else: ${choices}.`;
}

const fold = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/^[\s"'`*.:(]+|[\s"'`*.:;,)!]+$/g, '')
    .trim();

/** The value an answer names, or null: a category's value or label (any case, quotes and full stops aside). */
export function valueFromAnswer(field: FieldDef, answer: string): CodeValue | null {
  const text = answer.slice(0, MAX_ANSWER).trim();
  if (field.type === 'text' || field.type === 'note') return text === '' ? null : text;
  const find = (part: string) => {
    const f = fold(part);
    return field.categories.find((c) => fold(c.value) === f || fold(c.label) === f)?.value ?? null;
  };
  if (field.multiple) {
    const found = text
      .split(/[|,\n;]/)
      .map(find)
      .filter((v): v is string => v !== null);
    return found.length ? canonicalValue(found) : null;
  }
  return find(text) ?? find(text.split(/\s/)[0] ?? '');
}

/** The text a model reads of an item. */
function itemText(kind: CodedKind, raw: unknown): string {
  if (kind === 'user') {
    const a = readAccount(raw);
    return [`@${a.handle ?? ''} — ${a.name ?? ''}`, a.bio ?? ''].join('\n');
  }
  return readPost(raw).text;
}

export function createModelRuns(deps: ModelRunDeps) {
  const runs = new Map<string, { run: ModelRun; cancel: AbortController }>();
  const { store } = deps.service;

  async function ask(
    target: ModelTarget,
    coder: Coder,
    system: string,
    user: string,
    signal: AbortSignal,
  ): Promise<string> {
    const settings = coder.model!;
    const url = `${target.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    const response = await deps.fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(target.key ? { authorization: `Bearer ${target.key}` } : {}),
      },
      body: JSON.stringify({
        model: settings.model,
        temperature: settings.temperature,
        max_tokens: settings.maxTokens,
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
      }),
      redirect: 'error',
      signal: AbortSignal.any([signal, AbortSignal.timeout(CALL_TIMEOUT_MS)]),
    });
    if (!response.ok) {
      const body = (await response.text().catch(() => '')).slice(0, 300);
      throw new SkeinError(
        response.status === 401 || response.status === 403 ? 'unauthorized' : 'upstream',
        `The model endpoint answered ${response.status}${body ? `: ${body}` : ''}.`,
        {
          httpStatus: response.status,
          action:
            response.status === 401 || response.status === 403
              ? 'Check the endpoint’s key in Settings → Model coders.'
              : 'Check the endpoint and the model name, then run again: values made so far are kept.',
        },
      );
    }
    // an answer is a few words: a body past 1 MB is not read (a hostile or broken endpoint)
    const text = await response.text();
    if (text.length > MAX_BODY)
      throw new SkeinError('malformed', `The model endpoint sent ${text.length} characters for one answer.`, {
        action: 'Check the endpoint: an answer is a few words.',
      });
    let json: { choices?: Array<{ message?: { content?: unknown } }> };
    try {
      json = JSON.parse(text) as typeof json;
    } catch {
      throw new SkeinError('malformed', 'The model endpoint did not answer JSON.', {
        action: 'Check that the base URL is an OpenAI-compatible …/v1.',
      });
    }
    const content = json.choices?.[0]?.message?.content;
    return typeof content === 'string' ? content : '';
  }

  async function execute(
    entry: { run: ModelRun; cancel: AbortController },
    codebookId: number,
    target: ModelTarget,
    coder: Coder,
  ): Promise<void> {
    const { run, cancel } = entry;
    const cb = await deps.service.codebook(codebookId);
    const { version, definition } = currentVersion(cb);
    const fields = promptedFields(definition, coder);
    const queue: Array<{ kind: CodedKind; id: string }> = [];
    for (let offset = 0; ; offset += QUEUE_PAGE) {
      const page = await (await store()).assignments(run.sample, coder.id, offset, QUEUE_PAGE);
      queue.push(...page.entries);
      if (offset + QUEUE_PAGE >= page.total) break;
    }
    for (const kind of ['post', 'user'] as const) {
      const ids = queue.filter((q) => q.kind === kind).map((q) => q.id);
      for (let i = 0; i < ids.length; i += 500) {
        const slice = ids.slice(i, i + 500);
        const made = await (await store()).valuesOf(cb.id, coder.id, kind, slice);
        const held = new Map((await (await store()).heldItems(kind, slice, true)).map((x) => [x.id, x.raw]));
        for (const id of slice) {
          for (const field of fields) {
            if (cancel.signal.aborted) return;
            if (made.some((m) => m.id === id && m.field === field.key)) {
              run.skipped++;
              continue;
            }
            const raw = held.get(id);
            let parsed: unknown;
            try {
              parsed = raw === undefined ? null : (JSON.parse(raw) as unknown);
            } catch {
              parsed = null;
            }
            if (parsed === null) {
              run.unusable++;
              run.done++;
              continue;
            }
            const system = systemPrompt(field, coder.model!.prompts[field.key] ?? '');
            const answer = await ask(target, coder, system, itemText(kind, parsed), cancel.signal);
            const value = valueFromAnswer(field, answer);
            run.done++;
            if (value === null) {
              run.unusable++;
              continue;
            }
            const input = {
              codebook: cb.id,
              kind,
              id,
              field: field.key,
              coder: coder.id,
              value,
              version,
              codedAt: deps.now(),
              detail: {
                model: coder.model!.model,
                endpoint: baseUrlOrigin(target.baseUrl),
                prompt: system,
                settings: { temperature: coder.model!.temperature, maxTokens: coder.model!.maxTokens },
                answer: answer.slice(0, MAX_ANSWER),
              },
            };
            await (await store()).setCoding(input);
          }
        }
      }
    }
  }

  return {
    async start(input: { codebook: number; sample: number; coder: number }): Promise<ModelRun> {
      const coder = await deps.service.coder(input.coder);
      if (coder.kind !== 'model')
        throw new SkeinError('bad-input', `${coder.name} is a person: only a model coder runs.`, {
          fields: [{ field: 'coder', message: 'not a model' }],
        });
      if (!coder.model)
        throw new SkeinError(
          'unreadable',
          `This Skein cannot read ${coder.name}’s model settings (a newer Skein may have set them), so it does not run them. Its values are kept; setting its model again under Coders replaces the settings.`,
        );
      const target = await deps.target();
      if (!target)
        throw new SkeinError('not-available', 'Model coders are off: no endpoint is configured.', {
          action: 'Choose an endpoint in Coding → Model coders (in demo mode, the sandbox’s stand-in).',
        });
      for (const r of runs.values())
        if (r.run.status === 'running' && r.run.coder === coder.id)
          throw new SkeinError('bad-input', `${coder.name} is already coding.`, {
            fields: [{ field: 'coder', message: 'running' }],
          });
      const cb = await deps.service.codebook(input.codebook);
      const fields = promptedFields(currentVersion(cb).definition, coder);
      if (fields.length === 0)
        throw new SkeinError('bad-input', `${coder.name} has no prompt for any field of this codebook.`, {
          fields: [{ field: 'coder', message: 'no prompts' }],
          action: 'Write a prompt for each field the model should code.',
        });
      const { total } = await (await store()).assignments(input.sample, coder.id, 0, 1);
      if (total === 0)
        throw new SkeinError('not-found', `${coder.name} has no items in this sample.`, {
          action: 'Assign the model to a sample when drawing it.',
        });
      const run: ModelRun = {
        id: `run-${randomBytes(6).toString('hex')}`,
        coder: coder.id,
        sample: input.sample,
        status: 'running',
        planned: total * fields.length,
        done: 0,
        unusable: 0,
        skipped: 0,
        error: null,
        startedAt: deps.now(),
      };
      const entry = { run, cancel: new AbortController() };
      runs.set(run.id, entry);
      void execute(entry, cb.id, target, coder).then(
        () => {
          run.status = entry.cancel.signal.aborted ? 'cancelled' : 'complete';
        },
        (error: unknown) => {
          if (entry.cancel.signal.aborted) run.status = 'cancelled';
          else {
            run.status = 'failed';
            run.error = error instanceof Error ? error.message : String(error);
            if (!(error instanceof SkeinError)) deps.onError?.(error);
          }
        },
      );
      return structuredClone(run);
    },

    list: (): ModelRun[] =>
      [...runs.values()].map((r) => structuredClone(r.run)).sort((a, b) => b.startedAt - a.startedAt),

    cancel(id: string): ModelRun {
      const entry = runs.get(id);
      if (!entry) throw new SkeinError('not-found', 'No such model run.');
      entry.cancel.abort();
      if (entry.run.status === 'running') entry.run.status = 'cancelled';
      return structuredClone(entry.run);
    },

    dispose(): void {
      for (const r of runs.values()) r.cancel.abort();
    },
  };
}

/** The fields a model coder has a prompt for, in the codebook's order. */
function promptedFields(definition: CodebookDefinition, coder: Coder): FieldDef[] {
  const prompts = coder.model?.prompts ?? {};
  return definition.fields.filter((f) => (prompts[f.key] ?? '').trim() !== '');
}

export type ModelRuns = ReturnType<typeof createModelRuns>;
