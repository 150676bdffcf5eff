/**
 * The API's machine words (`ViewerRequestRequired`, `NonMember`) in plain
 * words. Known values get a sentence; unknown ones are split into words so
 * a new value still reads sensibly instead of disappearing.
 */
import { ownValue } from '../../shared/own';

/** `ViewerNotMember` → "Viewer not member". */
export function humanize(word: string): string {
  const spaced = word
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
  return spaced ? spaced[0]!.toUpperCase() + spaced.slice(1) : 'Unknown';
}

const ROLES: Record<string, string> = {
  NonMember: 'Not a member',
  Member: 'Member',
  Moderator: 'Moderator',
  Admin: 'Admin',
};

/** The viewer's role in a community. */
export function roleLabel(role: string): string {
  return ownValue(ROLES, role) ?? humanize(role);
}

const REASONS: Record<string, string> = {
  ViewerRequestRequired: 'Joining needs a request that the moderators approve.',
  ViewerNotMember: 'The account is not a member, so there is nothing to leave.',
  ViewerIsMember: 'The account is already a member.',
  ViewerIsCreator: 'The account created this community.',
  ViewerIsBanned: 'The account is banned from this community.',
  ViewerMaxCommunitiesReached: 'The account has joined the maximum number of communities.',
  ViewerNotAuthorized: 'The account is not allowed to do this.',
  PermissionDenied: 'The account is not allowed to do this.',
};

/** Why an action is unavailable, as a sentence. */
export function reasonSentence(reason: string): string {
  return ownValue(REASONS, reason) ?? `${humanize(reason)}.`;
}
