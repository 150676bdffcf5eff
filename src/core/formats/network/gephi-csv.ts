/**
 * Gephi's spreadsheet import (research-conventions.md): a node table `Id,Label,…` and an edge table
 * `Source,Target,Type,Kind,Weight`, ids as plain text in both (so they join), one row per (source, target,
 * kind) with its count as the weight. Written by Skein's CSV serializer: text cells that a spreadsheet would
 * run as formulas are neutralised (ids are digits and never touched).
 */
import { csvLine } from '../csv/line';
import { chunked } from '../../files/atomic-file';
import type { NetworkBuilder } from './graph';

const GEPHI_NODE_COLUMNS = ['Id', 'Label', 'Handle', 'Name', 'Followers', 'First seen', 'Node type'] as const;
const GEPHI_EDGE_COLUMNS = ['Source', 'Target', 'Type', 'Kind', 'Weight', 'First', 'Last'] as const;

export function gephiNodeChunks(graph: NetworkBuilder): Generator<string> {
  return chunked(
    graph.nodes.values(),
    (n) => {
      // the handle without its @ (a cell starting with @ is a formula to a spreadsheet)
      const label = n.handle ?? n.name ?? n.id;
      return csvLine([n.id, label, n.handle, n.name, n.followers, n.firstSeen, n.type], true);
    },
    csvLine(GEPHI_NODE_COLUMNS, true),
  );
}

export function gephiEdgeChunks(graph: NetworkBuilder): Generator<string> {
  return chunked(
    graph.edges.values(),
    (e) => {
      const times = [...e.times].sort();
      return csvLine([e.source, e.target, 'Directed', e.kind, e.weight, times[0] ?? null, times.at(-1) ?? null], true);
    },
    csvLine(GEPHI_EDGE_COLUMNS, true),
  );
}
