/**
 * Attack: a hostile server puts `__proto__`, `constructor`,
 * `toString` and friends into every enum-like field. Every label stays a
 * string (a plain-object lookup answered Object.prototype's members, which
 * crashed the community view when rendered).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { communityFixture, spaceFixture } from '../../../shared/api/fixtures';
import type { Community, CommunityData } from '../../../shared/api/schemas';
import { summarizeSpace } from '../space/space-summary';
import { summarizeCommunity } from './community-summary';
import { reasonSentence, roleLabel } from '../../lib/plain-words';

const PROTO = [
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  '__defineGetter__',
  'prototype',
];
const word = fc.oneof(fc.constantFrom(...PROTO), fc.string({ maxLength: 12 }));
const base = communityFixture.data.community_results_by_rest_id.result;
const community = (extra: Partial<Community>): CommunityData => ({
  data: { community_results_by_rest_id: { rest_id: base.rest_id, result: { ...base, ...extra } } },
});

describe('prototype keys in enum-like fields', () => {
  it('property: role and reason words always read as text', () => {
    fc.assert(
      fc.property(word, (w) => {
        expect(typeof roleLabel(w)).toBe('string');
        expect(typeof reasonSentence(w)).toBe('string');
      }),
    );
  });

  it('property: the community summary of a hostile role and action reasons is text', () => {
    fc.assert(
      fc.property(word, word, (role, reason) => {
        const s = summarizeCommunity(
          community({
            role,
            actions: {
              ...base.actions,
              join_action_result: { __typename: 'CommunityJoinActionUnavailable', reason, message: reason },
            },
          }),
        );
        expect(typeof s.role).toBe('string');
        expect(typeof s.join.text).toBe('string');
        expect(JSON.stringify(s)).not.toContain('function');
      }),
      { numRuns: 200 },
    );
  });

  it('property: a space state from data is text', () => {
    const space = spaceFixture.data.audio_space_by_rest_id;
    fc.assert(
      fc.property(word, (w) => {
        const s = summarizeSpace({ ...space, metadata: { ...space.metadata, state: w } }, space.metadata.start);
        expect(typeof s.stateLabel).toBe('string');
      }),
    );
  });
});
