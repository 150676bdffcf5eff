/**
 * GEXF 1.3 (gexf.net/1.3) of a network, written in chunks: directed edges whose interaction is in the 1.3
 * `kind` attribute (for parallel edges) and in a declared edge attribute `kind` too (what Gephi's data
 * laboratory shows) — never in `type`, which means directedness; `weight` a double; node attributes id,
 * handle, name, followers, first seen and type (user, space, list); a dynamic graph
 * (`timerepresentation="timestamp"`, `timeformat="dateTime"`, `timezone="UTC"`) whose nodes and edges carry
 * a spell per time they appear. Every text is escaped for XML 1.0: markup characters as entities, characters
 * XML forbids (controls, lone surrogates, U+FFFE/FFFF) replaced by U+FFFD, and line breaks and tabs in
 * attributes as character references so parsers keep them.
 */
import type { GraphEdge, GraphNode, NetworkBuilder } from './graph';

const FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- the characters XML 1.0 forbids are what this removes
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const SPECIAL = /[&<>"'\t\n\r]/g;
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** A string as an XML 1.0 attribute value (or text): always well-formed, whatever it held. */
export function xmlEscape(value: string): string {
  return value.replace(FORBIDDEN, '\uFFFD').replace(SPECIAL, (c) => ENTITIES[c] ?? c);
}

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

function spells(times: ReadonlySet<string>): string {
  if (times.size === 0) return '';
  return `<spells>${[...times]
    .sort()
    .map((t) => `<spell timestamp="${xmlEscape(t)}"/>`)
    .join('')}</spells>`;
}

function nodeXml(n: GraphNode): string {
  const label = n.handle ? `@${n.handle}` : (n.name ?? n.id);
  return `      <node id="${xmlEscape(n.id)}" label="${xmlEscape(label)}">${attvalues(nodeValues(n))}${spells(n.times)}</node>\n`;
}

function edgeXml(e: GraphEdge, index: number): string {
  return `      <edge id="${index}" source="${xmlEscape(e.source)}" target="${xmlEscape(e.target)}" type="directed" kind="${e.kind}" weight="${e.weight}">${attvalues([e.kind])}${spells(e.times)}</edge>\n`;
}

export interface GexfMeta {
  creator: string;
  description: string;
  /** YYYY-MM-DD */
  date: string;
}

/** The whole document, chunk by chunk (each at most a few hundred nodes or edges). */
export function* gexfChunks(graph: NetworkBuilder, meta: GexfMeta): Generator<string> {
  yield '<?xml version="1.0" encoding="UTF-8"?>\n';
  yield '<gexf xmlns="http://gexf.net/1.3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://gexf.net/1.3 http://gexf.net/1.3/gexf.xsd" version="1.3">\n';
  yield `  <meta lastmodifieddate="${xmlEscape(meta.date)}"><creator>${xmlEscape(meta.creator)}</creator><description>${xmlEscape(meta.description)}</description></meta>\n`;
  yield '  <graph defaultedgetype="directed" mode="dynamic" timeformat="dateTime" timerepresentation="timestamp" timezone="UTC" idtype="string">\n';
  yield `    <attributes class="node" mode="static">\n${NODE_ATTRIBUTES.map(([t, type], i) => `      <attribute id="${i}" title="${t}" type="${type}"/>\n`).join('')}    </attributes>\n`;
  yield '    <attributes class="edge" mode="static">\n      <attribute id="0" title="kind" type="string"/>\n    </attributes>\n';
  yield `    <nodes count="${graph.nodes.size}">\n`;
  let chunk = '';
  for (const n of graph.nodes.values()) {
    chunk += nodeXml(n);
    if (chunk.length > 1 << 16) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk}    </nodes>\n    <edges count="${graph.edges.size}">\n`;
  chunk = '';
  let i = 0;
  for (const e of graph.edges.values()) {
    chunk += edgeXml(e, i++);
    if (chunk.length > 1 << 16) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk}    </edges>\n  </graph>\n</gexf>\n`;
}
