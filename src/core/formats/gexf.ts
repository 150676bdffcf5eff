/**
 * A network as GEXF 1.3 (`x.gexf`, for Gephi): who replies to, quotes, retweets and mentions whom, a list's
 * followers and members, a space's roles, over time. Built in network/, the manifest beside it.
 */
import { fileAndSidecar, withSidecar, type Format } from './format';
import { writeGexf } from './network/export-network';
import { NETWORK_KINDS, NETWORK_SECTION } from './network/section';

export const gexf: Format = {
  id: 'gexf',
  label: 'GEXF network',
  hint: 'Gephi: who replies to, quotes, retweets and mentions whom, over time',
  extension: 'gexf',
  // a network needs the posts' replies, quotes and mentions: in the archive, posts only (a view of users has its list or space)
  offers: [{ id: 'gexf', label: 'Network (GEXF)', kinds: NETWORK_KINDS, archive: { kinds: ['post'] } }],
  files: fileAndSidecar,
  rowProvenance: null,
  section: () => ({ network: NETWORK_SECTION }),
  write: (job) =>
    withSidecar(job, () => writeGexf(job.target, job.items, job.manifest, job.plan, job.signal, job.posts)),
};
