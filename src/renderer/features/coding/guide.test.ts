import { describe, expect, it } from 'vitest';
import { guideSteps, type ProjectStand } from './guide';

const empty: ProjectStand = {
  codebooks: 0,
  coders: 0,
  progress: null,
  revealed: false,
  undecided: null,
  shared: false,
};
const states = (p: ProjectStand) => guideSteps(p).map((s) => `${s.id}:${s.state}`);

describe('where a coding project stands', () => {
  it('a new project starts at the codebook, everything after it to do', () => {
    expect(states(empty)).toEqual([
      'codebook:current',
      'coders:todo',
      'sample:todo',
      'code:todo',
      'agreement:todo',
      'reconcile:todo',
      'share:todo',
    ]);
  });

  it('mid-coding: the code step is current until every assigned coder is done', () => {
    const mid = {
      ...empty,
      codebooks: 1,
      coders: 2,
      progress: [
        { assigned: 60, done: 60 },
        { assigned: 60, done: 12 },
      ],
    };
    expect(states(mid).slice(0, 5)).toEqual([
      'codebook:done',
      'coders:done',
      'sample:done',
      'code:current',
      'agreement:todo',
    ]);
    // one coder is not enough for agreement
    expect(states({ ...mid, coders: 1 })[1]).toBe('coders:current');
  });

  it('reconciled once nothing is undecided; each step links to its tab', () => {
    const coded = {
      ...empty,
      codebooks: 1,
      coders: 2,
      progress: [{ assigned: 10, done: 10 }],
      revealed: true,
      undecided: 3,
    };
    expect(states(coded).slice(4)).toEqual(['agreement:done', 'reconcile:current', 'share:todo']);
    expect(states({ ...coded, undecided: 0 }).slice(5)).toEqual(['reconcile:done', 'share:current']);
    expect(guideSteps(coded).map((s) => s.tab)).toEqual([
      'codebook',
      'coders',
      'samples',
      'code',
      'agreement',
      'reconcile',
      'files',
    ]);
  });
});
