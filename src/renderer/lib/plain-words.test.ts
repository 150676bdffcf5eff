import { describe, expect, it } from 'vitest';
import { humanize, reasonSentence, roleLabel } from './plain-words';

describe('plain words', () => {
  it('explains the reasons and roles the API is known to send', () => {
    expect(reasonSentence('ViewerRequestRequired')).toBe('Joining needs a request that the moderators approve.');
    expect(reasonSentence('ViewerNotMember')).toBe('The account is not a member, so there is nothing to leave.');
    expect(roleLabel('NonMember')).toBe('Not a member');
  });
  it('still reads sensibly for values nobody has seen yet', () => {
    expect(reasonSentence('ViewerSuspendedForSpam')).toBe('Viewer suspended for spam.');
    expect(roleLabel('SuperModerator')).toBe('Super moderator');
    expect(humanize('NotStarted')).toBe('Not started');
    expect(humanize('HTTPError')).toBe('Http error');
    expect(humanize('snake_case-word')).toBe('Snake case word');
    expect(humanize('')).toBe('Unknown');
  });
});
