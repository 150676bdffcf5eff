import { describe, expect, it } from 'vitest';
import { jobs, nextRun, type Standing } from './jobs';

const NOW = Date.UTC(2026, 10, 28, 12);
const blank: Standing = { collections: null, watches: null, idLists: null, coding: null, project: null };

describe('Home’s jobs', () => {
  it('offers the six research jobs, each opening its first screen with its steps', () => {
    const list = jobs(blank, NOW);
    expect(list.map((j) => j.title)).toEqual([
      'Collect a dataset from a view',
      'Watch accounts over time',
      'Hydrate a shared id list',
      'Code a sample with a colleague',
      'Share or cite a dataset',
      'Work as a team',
    ]);
    expect(list.map((j) => j.href)).toEqual([
      '#/search',
      '#/watches',
      '#/hydrate/posts',
      '#/coding/codebook',
      '#/coding/files',
      '#/archive',
    ]);
    // nothing is claimed while the project has not been read
    expect(list.every((j) => j.standing === null)).toBe(true);
  });

  it('says where the person stands in each, in words', () => {
    const s: Standing = {
      collections: 3,
      watches: { total: 2, active: 1, nextRunAt: NOW + 3 * 3_600_000 },
      idLists: { lists: 1, ids: 245 },
      coding: { codebooks: 1, coders: 2 },
      project: { name: 'Stance study', team: true, location: 'stance on db.lab.example', demo: false },
    };
    const byId = Object.fromEntries(jobs(s, NOW).map((j) => [j.id, j]));
    expect(byId.collect?.standing).toBe('3 collections in this project.');
    expect(byId.watch?.standing).toBe('2 watches, 1 active; next run in 3 h.');
    expect(byId.hydrate?.standing).toBe('1 id list with 245 ids opened.');
    expect(byId.code?.standing).toBe('1 codebook, 2 coders.');
    // with a codebook, the job opens where coding happens
    expect(byId.code?.href).toBe('#/coding/code');
    expect(byId.team?.standing).toBe('“Stance study” is a team project (stance on db.lab.example).');
  });

  it('starts a newcomer at the first step, and tells the demo project apart', () => {
    const s: Standing = {
      collections: 0,
      watches: { total: 0, active: 0, nextRunAt: null },
      idLists: { lists: 0, ids: 0 },
      coding: { codebooks: 0, coders: 0 },
      project: { name: 'Demo data', team: false, location: '/x/demo.skein', demo: true },
    };
    const byId = Object.fromEntries(jobs(s, NOW).map((j) => [j.id, j]));
    expect(byId.watch?.standing).toBe('No watch yet.');
    expect(byId.code?.standing).toBe('No codebook yet: start with one.');
    expect(byId.share?.standing).toMatch(/^Collect something first/);
    expect(byId.team?.standing).toMatch(/^Demo data stays on this computer/);
  });

  it('reads a next run as a person would', () => {
    expect(nextRun(null, NOW)).toBe('no run planned');
    expect(nextRun(NOW - 1, NOW)).toBe('next run due now');
    expect(nextRun(NOW + 25 * 60_000, NOW)).toBe('next run in 25 min');
    expect(nextRun(NOW + 3 * 86_400_000, NOW)).toBe('next run in 3 days');
  });
});
