/**
 * A network as GEXF (`x.gexf`): who replies to, quotes, retweets and mentions whom, a list's followers and
 * members, a space's roles, over time. Two offers: GEXF 1.2draft, the default, which networkx and Gephi both
 * open, and GEXF 1.3 for Gephi's own features. Built in network/, the manifest beside it.
 */
import { fileAndSidecar, writeOptions, type Format } from './format';
import { writeNetwork } from './network/export-network';
import { gexfChunks } from './network/gexf';
import { NETWORK_KINDS, networkSection } from './network/section';

export const gexf: Format = {
  id: 'gexf',
  label: 'GEXF network',
  hint: 'Gephi and networkx: who replies to, quotes, retweets and mentions whom, over time',
  extension: 'gexf',
  // a network needs the posts' replies, quotes and mentions: in the archive, posts only (a view of users has its list or space)
  offers: [
    {
      id: 'gexf',
      label: 'Network (GEXF)',
      hint: 'Gephi and networkx (GEXF 1.2): who replies to, quotes, retweets and mentions whom, over time',
      kinds: NETWORK_KINDS,
      archive: { kinds: ['post'] },
    },
    {
      id: 'gexf-1.3',
      label: 'Network (GEXF 1.3, Gephi only)',
      hint: 'GEXF 1.3 for Gephi: the edge kind attribute, timestamps in UTC; networkx cannot open it',
      options: { gexfVersion: '1.3' },
      kinds: NETWORK_KINDS,
      archive: { kinds: ['post'] },
    },
  ],
  files: fileAndSidecar,
  rowProvenance: null,
  holds: 'graph',
  section: ({ options }) => ({ network: networkSection(`gexf-${writeOptions(options).gexfVersion}`) }),
  write: (job) =>
    writeNetwork(job, (graph, meta) => [[job.target, gexfChunks(graph, meta, writeOptions(job.options).gexfVersion)]]),
};
