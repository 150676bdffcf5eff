/**
 * A coding project for tests of what a newer Skein may write into one: a codebook of a stance and a memo, two
 * people and a model, a sample of six coded by both people (Ana "for", Ben "against"), two of its items decided;
 * and what a newer Skein (or damage) could leave in its file.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { Core } from '../..';
import { call as bridgeCall } from '../../testing/bridge-call';
import { STANCE } from './codebooks';

export interface CodedProject {
  codebook: number;
  sample: number;
  ana: number;
  ben: number;
  bot: number;
  /** the sample's posts, in Ana's queue order */
  ids: string[];
}

/** Made through the core's bridge, from the replies to `postId` (one page, read into the project). */
export async function codedProject(c: Core, postId: string): Promise<CodedProject> {
  const call = <T>(channel: string, input?: unknown) => bridgeCall<T>(c, `skein:${channel}`, input);
  await call('api.call', { operation: 'postRepliesV2', params: { tweetId: postId }, callId: 'p0' });
  const memo = { key: 'memo', label: 'Memo', type: 'note' };
  const cb = await call<{ id: number }>('coding.saveCodebook', {
    name: 'Stance',
    definition: { fields: [...STANCE.fields, memo] },
  });
  const coder = async (name: string, model?: unknown) =>
    (await call<{ id: number }>('coding.addCoder', { name, kind: model ? 'model' : 'person', model })).id;
  const ana = await coder('Ana');
  const ben = await coder('Ben');
  const bot = await coder('Bot', { model: 'llama3.1:8b', prompts: { stance: 'For or against?' } });
  const sample = await call<{ id: number }>('coding.drawSample', {
    codebook: cb.id,
    name: 'Pilot',
    source: { kind: 'post' },
    size: 6,
    seed: 's',
    method: 'random',
    coders: [ana, ben, bot],
    overlap: 1,
  });
  const queue = await call<{ entries: Array<{ id: string }> }>('coding.queue', { sample: sample.id, coder: ana });
  const ids = queue.entries.map((e) => e.id);
  for (const id of ids)
    for (const [who, value] of [
      [ana, 'for'],
      [ben, 'against'],
    ] as const) {
      await call('coding.code', { codebook: cb.id, coder: who, kind: 'post', id, field: 'stance', value });
      await call('coding.code', { codebook: cb.id, coder: who, kind: 'post', id, field: 'memo', value: 'seen' });
    }
  await call('coding.reveal', { coder: ana });
  for (const id of ids.slice(0, 2))
    await call('coding.adjudicate', {
      codebook: cb.id,
      kind: 'post',
      id,
      field: 'stance',
      value: 'for',
      decidedBy: 'me',
    });
  return { codebook: cb.id, sample: sample.id, ana, ben, bot, ids };
}

/**
 * Writes into the project's file what a newer Skein could: Ana's stance on the first post as an object, Ben's on
 * the second as a number, Ana's memo on the third damaged; the two decisions as an object and as text that is not
 * JSON; the model's settings of another shape; and the sample drawn by a method this Skein does not know.
 */
export function writeAsANewerSkein(db: DatabaseSync, p: CodedProject): void {
  const set = db.prepare(`UPDATE codings SET value = ? WHERE item_id = ? AND coder = ? AND field = ?`);
  set.run('{"stars":4}', p.ids[0]!, p.ana, 'stance');
  set.run('7', p.ids[1]!, p.ben, 'stance');
  set.run('{', p.ids[2]!, p.ana, 'memo');
  db.prepare(`UPDATE adjudications SET value = '{"x":1}' WHERE item_id = ?`).run(p.ids[0]!);
  db.prepare(`UPDATE adjudications SET value = 'nope' WHERE item_id = ?`).run(p.ids[1]!);
  db.prepare(`UPDATE coders SET model = '{"provider":"new","model":5}' WHERE id = ?`).run(p.bot);
  db.exec(`UPDATE samples SET definition = '{"source":{},"kind":"post","method":"cluster"}'`);
}
