/**
 * What a network's manifest says (GEXF and Gephi's tables alike): directed edges of which kinds, what a node
 * is, what weight and time mean, and that ids are plain text in both tables.
 */
import type { ItemKind } from '../../../shared/api/catalog';
import type { ExportManifest } from '../manifest';

/** The views a network can be drawn from: posts, users, a list's followers, a space. */
export const NETWORK_KINDS: ItemKind[] = ['post', 'user', 'listFollower', 'space'];

export const NETWORK_SECTION: NonNullable<ExportManifest['network']> = {
  directed: true,
  nodes: 'users (id, handle, name, followers, first seen), and the space or list the view is about',
  edge_kinds: {
    reply:
      "the author answered the target user (the parent post's author: from the export, or from the project when the parent is outside it)",
    quote: "the author quoted the target's post",
    retweet: "the author retweeted the target's post",
    mention: 'the author mentioned the target in their post',
    'mention-in-retweet': 'the target is mentioned in the post the author retweeted',
    'mention-in-quote': 'the target is mentioned in the post the author quoted',
    'admin/speaker/listener': "the user's role in the space",
    'list-follower': 'the user follows the list',
    'list-member': "the user is a member of the list (an author of the list's timeline)",
  },
  weight: 'how many times the interaction happened in the export (one edge per source, target and kind)',
  time: "GEXF: a dynamic graph (timerepresentation timestamp, UTC): a spell per post creation time (or, without one, per page fetch time); Gephi CSV: the edge's first and last time",
  ids: 'plain text ids in both Gephi tables, so they join',
};
