/**
 * A network as GraphML (graphml.graphdrawing.org), what igraph (Python and R), networkx and Cytoscape read:
 * directed edges, one per (source, target, interaction) with its weight and the first and last time it
 * happened (GraphML has no dynamic graphs); node keys label, handle, name, followers, first seen and node type.
 * The node's id is its user (space, list) id, so it needs no key of its own (igraph reads it as `id`). Keys
 * are typed (`long` followers, `double` weight), every text escaped for XML 1.0 (xml.ts), written in chunks.
 */
import type { GraphEdge, GraphNode, NetworkBuilder } from './graph';
import type { GexfMeta } from './gexf';
import { chunked } from '../../files/atomic-file';
import { xmlEscape } from './xml';

const NODE_KEYS = [
  ['label', 'string'],
  ['handle', 'string'],
  ['name', 'string'],
  ['followers', 'long'],
  ['first_seen', 'string'],
  ['node_type', 'string'],
] as const;

const EDGE_KEYS = [
  ['kind', 'string'],
  ['weight', 'double'],
  ['first', 'string'],
  ['last', 'string'],
] as const;

function data(prefix: string, values: Array<string | number | null>): string {
  return values.map((v, i) => (v === null ? '' : `<data key="${prefix}${i}">${xmlEscape(String(v))}</data>`)).join('');
}

function nodeXml(n: GraphNode): string {
  const label = n.handle ? `@${n.handle}` : (n.name ?? n.id);
  const followers = n.followers !== null && Number.isSafeInteger(n.followers) ? n.followers : null;
  return `    <node id="${xmlEscape(n.id)}">${data('n', [label, n.handle, n.name, followers, n.firstSeen, n.type])}</node>\n`;
}

function edgeXml(e: GraphEdge, index: number): string {
  const times = [...e.times].sort();
  return `    <edge id="e${index}" source="${xmlEscape(e.source)}" target="${xmlEscape(e.target)}">${data('e', [e.kind, e.weight, times[0] ?? null, times.at(-1) ?? null])}</edge>\n`;
}

function keys(prefix: string, target: 'node' | 'edge', list: ReadonlyArray<readonly [string, string]>): string {
  return list
    .map(([name, type], i) => `  <key id="${prefix}${i}" for="${target}" attr.name="${name}" attr.type="${type}"/>\n`)
    .join('');
}

/** The whole document, chunk by chunk. */
export function* graphmlChunks(graph: NetworkBuilder, meta: GexfMeta): Generator<string> {
  yield '<?xml version="1.0" encoding="UTF-8"?>\n';
  yield '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n';
  yield `  <desc>${xmlEscape(`${meta.creator}, ${meta.date}: ${meta.description}`)}</desc>\n`;
  yield keys('n', 'node', NODE_KEYS) + keys('e', 'edge', EDGE_KEYS);
  yield '  <graph id="G" edgedefault="directed">\n';
  yield* chunked(graph.nodes.values(), nodeXml);
  yield* chunked(graph.edges.values(), edgeXml);
  yield '  </graph>\n</graphml>\n';
}
