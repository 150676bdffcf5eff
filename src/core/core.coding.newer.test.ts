/**
 * Codebooks in a project a newer Skein wrote into (a team's shared project, a file passed along): one with a field
 * of a kind this Skein has no form for, or a damaged one, is refused in words when opened, never read wrongly or
 * reported as a bug, and the project's other codebooks open as usual.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '.';
import { createDispatcher } from './bridge/dispatch';
import { unreadableVersion } from './coding/service';
import { STANCE } from './coding/testing/codebooks';
import { startSandbox, type Sandbox } from '../sandbox';
import { demoCores } from './testing/demo-cores';

const cores = demoCores('skein-coding-newer');
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, size: 'small' });
  cores.sandboxes.push(sandbox);
});

const core = (dir: string) =>
  cores.core(dir, {
    apiBaseUrl: sandbox.baseUrl,
    apiKey: 'k',
    workers: undefined,
    confirm: async () => true,
  }).core;
async function answer(c: Core, channel: string, input?: unknown) {
  return createDispatcher(c.handlers).dispatch(`skein:${channel}`, input, { senderId: 1 });
}

describe('codebooks a newer Skein wrote into', () => {
  it('refuses in words to open one with a field of an unknown kind or a damaged version; opens the others', async () => {
    const dir = cores.folder();
    let c = core(dir);
    for (const name of ['Stance', 'Newer', 'Damaged']) {
      const made = await answer(c, 'coding.saveCodebook', { name, definition: STANCE });
      expect(made.ok).toBe(true);
    }
    await c.dispose();
    const db = new DatabaseSync(join(dir, 'projects', 'Default.skein'));
    const newer = { fields: [...STANCE.fields, { key: 'rating', label: 'Rating', type: 'stars', max: 5 }] };
    db.prepare(
      `INSERT INTO codebook_versions (codebook, version, definition, note, created_at) VALUES (2, 2, ?, 'stars', 5)`,
    ).run(JSON.stringify(newer));
    db.exec(`UPDATE codebook_versions SET definition = '{"fields": [' WHERE codebook = 3`);
    db.close();

    c = core(dir);
    try {
      const list = await answer(c, 'coding.codebooks');
      expect(list.ok && (list.data as Array<{ name: string }>).map((b) => b.name)).toEqual([
        'Stance',
        'Newer',
        'Damaged',
      ]);
      const opened = await answer(c, 'coding.codebook', { id: 1 });
      expect(opened.ok).toBe(true);
      const refused = await answer(c, 'coding.codebook', { id: 2 });
      expect(refused.ok ? null : refused.error).toMatchObject({
        code: 'unreadable',
        message:
          'This Skein cannot open the codebook “Newer”: its version 2 has a field (“rating”) of a kind this Skein does not know (“stars”). A newer Skein may have made it; the project’s other codebooks open as usual.',
      });
      const damaged = await answer(c, 'coding.codebook', { id: 3 });
      expect(damaged.ok ? null : damaged.error).toMatchObject({ code: 'unreadable' });
      expect(damaged.ok ? '' : damaged.error.message).toContain('its version 1 is damaged in this project');
      // nothing is written under a version this Skein would misread
      const saved = await answer(c, 'coding.saveCodebook', { id: 2, name: 'Newer', definition: STANCE });
      expect(saved.ok ? null : saved.error.code).toBe('unreadable');
    } finally {
      await c.dispose();
    }
  }, 60_000);

  it('says what it cannot read in a version', () => {
    expect(unreadableVersion(STANCE)).toBeNull();
    expect(unreadableVersion({ fields: [{ key: 'x', type: 'stars' }] })).toBe(
      'has a field (“x”) of a kind this Skein does not know (“stars”)',
    );
    for (const damaged of [
      null,
      {},
      { fields: [] },
      { fields: 'x' },
      { fields: [null] },
      { fields: [{ type: 'text' }] },
    ])
      expect(unreadableVersion(damaged)).toBe('is damaged in this project');
    // an own key of every object is not a kind either
    expect(unreadableVersion({ fields: [{ key: 'x', type: 'constructor' }] })).toContain('“constructor”');
  });
});
