/**
 * A network as GraphML (`x.graphml`): the network GEXF draws, for igraph (Python and R), networkx and
 * Cytoscape, which read GraphML and not GEXF (igraph) or not GEXF 1.3 (networkx). Built in network/, the
 * manifest beside it.
 */
import { fileAndSidecar, type Format } from './format';
import { writeNetwork } from './network/export-network';
import { graphmlChunks } from './network/graphml';
import { NETWORK_KINDS, networkSection } from './network/section';

export const graphml: Format = {
  id: 'graphml',
  label: 'GraphML network',
  hint: 'igraph, networkx, Cytoscape: who replies to, quotes, retweets and mentions whom, with weights',
  extension: 'graphml',
  offers: [{ id: 'graphml', label: 'Network (GraphML)', kinds: NETWORK_KINDS, archive: { kinds: ['post'] } }],
  files: fileAndSidecar,
  rowProvenance: null,
  holds: 'graph',
  section: () => ({ network: networkSection('graphml') }),
  write: (job) => writeNetwork(job, (graph, meta) => [[job.target, graphmlChunks(graph, meta)]]),
};
