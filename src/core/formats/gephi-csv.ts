/**
 * A network as Gephi's two spreadsheet tables: the file chosen, `x.csv`, becomes `x.nodes.csv` (`Id,Label,…`)
 * and `x.edges.csv` (`Source,Target,Type,Kind,Weight,First,Last`) that join on plain ids; the manifest follows
 * the nodes file. Built in network/.
 */
import { sidecarPath, type Format } from './format';
import { edgesPathOf, gephiPaths, writeNetwork } from './network/export-network';
import { gephiEdgeChunks, gephiNodeChunks } from './network/gephi-csv';
import { NETWORK_KINDS, networkSection } from './network/section';

export const gephiCsv: Format = {
  id: 'gephi-csv',
  label: 'Gephi node and edge tables (CSV)',
  hint: 'a node table and an edge table (Source, Target, Type, Kind, Weight) that join on plain ids',
  extension: 'csv',
  offers: [{ id: 'gephi-csv', label: 'Network (Gephi CSV)', kinds: NETWORK_KINDS, archive: { kinds: ['post'] } }],
  files: (chosen) => {
    const { nodes, edges } = gephiPaths(chosen);
    return [nodes, edges, sidecarPath(nodes)];
  },
  rowProvenance: null,
  holds: 'graph',
  section: () => ({ network: networkSection('gephi-csv') }),
  // `target` is the nodes file (the first file); the edges go beside it
  write: (job) =>
    writeNetwork(job, (graph) => [
      [job.target, gephiNodeChunks(graph)],
      [edgesPathOf(job.target), gephiEdgeChunks(graph)],
    ]),
};
