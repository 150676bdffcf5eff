/**
 * A network as GEXF, written in chunks, in one of two versions:
 *
 * - **1.2draft** (the default; `www.gexf.net/1.2draft`): what networkx (`read_gexf`, which knows only 1.1draft
 *   and 1.2draft) and Gephi both read. A dynamic graph whose spells are instants (`start` = `end`, ISO 8601 in
 *   UTC) with `timeformat="date"`, the one format networkx reads that Gephi reads as dates (its parser takes the
 *   time of day too; networkx keeps the values as text); the interaction is a declared edge attribute `kind`.
 * - **1.3** (`gexf.net/1.3`), for Gephi's own features: the interaction in the 1.3 `kind` attribute as well
 *   (parallel edges), `timezone="UTC"`, `timerepresentation="timestamp"` with a timestamp per spell.
 *
 * Both: directed edges (`type` says directedness, never the interaction: Gephi warns otherwise); `weight` a
 * double; node attributes id, handle, name, followers, first seen and type (user, space, list); every text
 * escaped for XML 1.0 (xml.ts).
 */
import type { GexfVersion } from '../../../shared/ipc/export';
import type { GraphEdge, GraphNode, NetworkBuilder } from './graph';
import { chunked } from '../../files/atomic-file';
import { xmlEscape } from './xml';

const NODE_ATTRIBUTES = [
  ['id', 'string'],
  ['handle', 'string'],
  ['name', 'string'],
  ['followers', 'long'],
  ['first_seen', 'string'],
  ['type', 'string'],
] as const;

function nodeValues(n: GraphNode): Array<string | null> {
  return [
    n.id,
    n.handle,
    n.name,
    n.followers !== null && Number.isSafeInteger(n.followers) ? String(n.followers) : null,
    n.firstSeen,
    n.type,
  ];
}

function attvalues(values: Array<string | null>): string {
  const parts = values.map((v, i) => (v === null ? '' : `<attvalue for="${i}" value="${xmlEscape(v)}"/>`)).join('');
  return parts ? `<attvalues>${parts}</attvalues>` : '';
}

/** An instant: a 1.3 timestamp, or a 1.2draft spell that starts and ends at it. */
const SPELL: Record<GexfVersion, (t: string) => string> = {
  '1.3': (t) => `<spell timestamp="${t}"/>`,
  '1.2draft': (t) => `<spell start="${t}" end="${t}"/>`,
};

function spells(times: ReadonlySet<string>, version: GexfVersion): string {
  if (times.size === 0) return '';
  return `<spells>${[...times]
    .sort()
    .map((t) => SPELL[version](xmlEscape(t)))
    .join('')}</spells>`;
}

function nodeXml(n: GraphNode, version: GexfVersion): string {
  const label = n.handle ? `@${n.handle}` : (n.name ?? n.id);
  return `      <node id="${xmlEscape(n.id)}" label="${xmlEscape(label)}">${attvalues(nodeValues(n))}${spells(n.times, version)}</node>\n`;
}

function edgeXml(e: GraphEdge, index: number, version: GexfVersion): string {
  const kind = version === '1.3' ? ` kind="${e.kind}"` : '';
  return `      <edge id="${index}" source="${xmlEscape(e.source)}" target="${xmlEscape(e.target)}" type="directed"${kind} weight="${e.weight}">${attvalues([e.kind])}${spells(e.times, version)}</edge>\n`;
}

export interface GexfMeta {
  creator: string;
  description: string;
  /** YYYY-MM-DD */
  date: string;
}

const ROOT: Record<GexfVersion, string> = {
  '1.2draft':
    '<gexf xmlns="http://www.gexf.net/1.2draft" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.gexf.net/1.2draft http://www.gexf.net/1.2draft/gexf.xsd" version="1.2">\n',
  '1.3':
    '<gexf xmlns="http://gexf.net/1.3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://gexf.net/1.3 http://gexf.net/1.3/gexf.xsd" version="1.3">\n',
};

const GRAPH: Record<GexfVersion, string> = {
  '1.2draft': '  <graph defaultedgetype="directed" mode="dynamic" timeformat="date" idtype="string">\n',
  '1.3':
    '  <graph defaultedgetype="directed" mode="dynamic" timeformat="dateTime" timerepresentation="timestamp" timezone="UTC" idtype="string">\n',
};

/** The whole document, chunk by chunk (each at most a few hundred nodes or edges). */
export function* gexfChunks(
  graph: NetworkBuilder,
  meta: GexfMeta,
  version: GexfVersion = '1.2draft',
): Generator<string> {
  yield '<?xml version="1.0" encoding="UTF-8"?>\n';
  yield ROOT[version];
  yield `  <meta lastmodifieddate="${xmlEscape(meta.date)}"><creator>${xmlEscape(meta.creator)}</creator><description>${xmlEscape(meta.description)}</description></meta>\n`;
  yield GRAPH[version];
  yield `    <attributes class="node" mode="static">\n${NODE_ATTRIBUTES.map(([t, type], i) => `      <attribute id="${i}" title="${t}" type="${type}"/>\n`).join('')}    </attributes>\n`;
  yield '    <attributes class="edge" mode="static">\n      <attribute id="0" title="kind" type="string"/>\n    </attributes>\n';
  yield `    <nodes count="${graph.nodes.size}">\n`;
  yield* chunked(graph.nodes.values(), (n) => nodeXml(n, version));
  yield `    </nodes>\n    <edges count="${graph.edges.size}">\n`;
  yield* chunked(graph.edges.values(), (e, i) => edgeXml(e, i, version));
  yield '    </edges>\n  </graph>\n</gexf>\n';
}
