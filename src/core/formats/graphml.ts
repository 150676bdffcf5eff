/**
 * A network as GraphML (`x.graphml`): the network GEXF draws, for igraph (Python and R), networkx and
 * Cytoscape, which read GraphML and not GEXF (igraph) or not GEXF 1.3 (networkx). Built in network/, the
 * manifest beside it.
 */
import { fileAndSidecar, withSidecar, type Format } from './format';
import { writeGraphml } from './network/export-network';
import { NETWORK_KINDS, networkSection } from './network/section';

export const graphml: Format = {
  id: 'graphml',
  label: 'GraphML network',
  hint: 'igraph, networkx, Cytoscape: who replies to, quotes, retweets and mentions whom, with weights',
  extension: 'graphml',
  offers: [{ id: 'graphml', label: 'Network (GraphML)', kinds: NETWORK_KINDS, archive: { kinds: ['post'] } }],
  files: fileAndSidecar,
  rowProvenance: null,
  section: () => ({ network: networkSection('graphml') }),
  write: (job) =>
    withSidecar(job, () => writeGraphml(job.target, job.items, job.manifest, job.plan, job.signal, job.posts)),
};
