/**
 * Network exports, opened by the readers researchers use: the default GEXF (1.2draft) validates against the
 * vendored GEXF 1.2draft schema and networkx reads it (which it cannot do with 1.3); GEXF 1.3 validates against
 * its schema and keeps interaction kinds out of `type`; GraphML opens in networkx, igraph and R's igraph; hostile
 * text is escaped; Gephi's two tables join on plain ids (DuckDB). The schemas are checked by xmllint compiled to
 * WebAssembly (an npm package): nothing to install.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { duckdb } from '../../testing/duckdb';
import { describe, expect, it } from 'vitest';
import type { ExportFormat, ExportOptions, GexfVersion, ViewDescriptor } from '../../../shared/ipc/export';
import { FakeClock } from '../../testing/fake-clock';
import { pythonWith, readerIt, rscriptWith, runJson } from '../../testing/readers';
import { schemaErrors } from '../../testing/xml-schema';
import { ExportService } from '../../export/export-service';
import type { ExportManifest } from '../manifest';
import { memorySource, post } from '../../export/testing/memory-source';
import { sidecarPath } from '../format';
import { gephiPaths } from './export-network';
import { gexfChunks } from './gexf';
import { xmlEscape } from './xml';
import { NetworkBuilder } from './graph';
import { recordedMentionNotReply } from '../../../shared/api/fixtures/recorded-round2';
import { graphmlChunks } from './graphml';

const SCHEMAS: Record<GexfVersion, string> = {
  '1.2draft': fileURLToPath(new URL('./fixtures/gexf-1.2draft', import.meta.url)),
  '1.3': fileURLToPath(new URL('./fixtures/gexf-1.3', import.meta.url)),
};
const NAMESPACE: Record<GexfVersion, string> = {
  '1.2draft': 'http://www.gexf.net/1.2draft',
  '1.3': 'http://gexf.net/1.3',
};
const context = () => ({ appName: 'Skein', appVersion: '0.1.0', mode: 'demo' as const, baseUrl: 'http://127.0.0.1:1' });
const HOSTILE_NAME = 'Eve <b>&amp;</b> "q" \'a\'\u0000\u0007\u000B\udfff\ud800 end\ud83d\ude00\ttab\nline\u202E';
const SANITISED = 'Eve <b>&amp;</b> "q" \'a\'\ufffd\ufffd\ufffd\ufffd\ufffd end\ud83d\ude00\ttab\nline\u202E';

const A = { id: '1000000000000000001', userName: 'ann', name: 'Ann', followers: 10 };
const B = { id: '1000000000000000002', userName: 'bob', name: HOSTILE_NAME, followers: 20 };
const C = { id: '1000000000000000003', userName: 'cy', name: 'Cy' };

const posts = [
  post('2000000000000000001', null, { author: A, createdAt: 'Sun Nov 22 02:13:21 +0000 2026' }),
  post('2000000000000000002', '2000000000000000001', {
    author: B,
    inReplyToUserId: A.id,
    inReplyToUsername: 'ann',
    entities: {
      user_mentions: [
        { id_str: A.id, screen_name: 'ann' },
        { id_str: C.id, screen_name: 'cy' },
      ],
    },
    createdAt: 'Sun Nov 22 03:00:00 +0000 2026',
  }),
  post('2000000000000000003', '2000000000000000001', {
    author: B,
    inReplyToUserId: A.id,
    createdAt: 'Mon Nov 23 03:00:00 +0000 2026',
  }),
  post('2000000000000000004', null, {
    author: C,
    quoted_tweet: post('2000000000000000001', null, { author: A }),
    retweeted_tweet: null,
    createdAt: 'Mon Nov 23 04:00:00 +0000 2026',
  }),
  post('2000000000000000005', null, {
    author: A,
    retweeted_tweet: post('2000000000000000009', null, {
      author: C,
      entities: { user_mentions: [{ id_str: B.id, screen_name: 'bob' }] },
    }),
    createdAt: 'Mon Nov 23 05:00:00 +0000 2026',
  }),
];

/** Every edge the posts above draw: source, target, kind, weight. */
const EDGES = [
  [B.id, A.id, 'reply', 2],
  [B.id, A.id, 'mention', 1],
  [B.id, C.id, 'mention', 1],
  [C.id, A.id, 'quote', 1],
  [A.id, C.id, 'retweet', 1],
  [A.id, B.id, 'mention-in-retweet', 1],
];
const sorted = <T>(rows: T[]): T[] =>
  rows
    .map((r) => JSON.stringify(r))
    .sort()
    .map((r) => JSON.parse(r) as T);

const THREAD: ViewDescriptor = {
  kind: 'thread',
  operation: 'postRepliesV2',
  params: { tweetId: '2000000000000000001' },
};

const FILE: Record<string, string> = { gexf: 'n.gexf', graphml: 'n.graphml' };

async function exportAs(format: ExportFormat, view = THREAD, options?: ExportOptions) {
  const dir = await mkdtemp(join(tmpdir(), 'skein-network-'));
  const service = new ExportService({
    source: memorySource([{ items: posts }]),
    stateDir: join(dir, 'state'),
    clock: new FakeClock(),
    context,
  });
  const target = join(dir, FILE[format] ?? 'n.csv');
  const job = await service.start({ view, format, scope: 'all', targetPath: target, options });
  const done = await service.settled(job.id);
  expect(done.status).toBe('complete');
  const manifest = JSON.parse(await readFile(done.files.at(-1) as string, 'utf8')) as ExportManifest;
  return { target, done, manifest };
}

async function expectValid(path: string, version: GexfVersion): Promise<void> {
  expect(await schemaErrors(await readFile(path, 'utf8'), SCHEMAS[version])).toEqual([]);
}

/** The GEXF read back by Python's own XML parser: nodes with their attribute values, edges with their attributes. */
function readGexf(path: string, version: GexfVersion) {
  const script = `
import json, sys, xml.etree.ElementTree as ET
NS = sys.argv[2]
ns = {'g': NS}
root = ET.parse(sys.argv[1]).getroot()
def spell(s): return s.get('timestamp') or s.get('start')
nodes = [{'id': n.get('id'), 'label': n.get('label'), 'values': {a.get('for'): a.get('value') for a in n.findall('g:attvalues/g:attvalue', ns)}, 'times': [spell(s) for s in n.findall('g:spells/g:spell', ns)]} for n in root.iter('{%s}node' % NS)]
edges = [dict(e.attrib, attkind=e.find('g:attvalues/g:attvalue', ns).get('value'), times=[spell(s) for s in e.findall('g:spells/g:spell', ns)], spells=[dict(s.attrib) for s in e.findall('g:spells/g:spell', ns)]) for e in root.iter('{%s}edge' % NS)]
graph = root.find('g:graph', ns).attrib
print(json.dumps({'nodes': nodes, 'edges': edges, 'graph': graph, 'version': root.get('version')}))`;
  return JSON.parse(execFileSync('python3', ['-c', script, path, NAMESPACE[version]], { encoding: 'utf8' })) as {
    nodes: Array<{ id: string; label: string; values: Record<string, string>; times: string[] }>;
    edges: Array<Record<string, string> & { times: string[]; spells: Array<Record<string, string>> }>;
    graph: Record<string, string>;
    version: string;
  };
}

const NETWORKX_GEXF = `
import json, sys, networkx as nx
G = nx.read_gexf(sys.argv[1])
print(json.dumps({
  'directed': G.is_directed(),
  'nodes': {n: d for n, d in G.nodes(data=True)},
  'edges': [[u, v, d.get('kind'), d.get('weight'), d.get('spells')] for u, v, d in G.edges(data=True)],
}, default=list))`;

const networkx = readerIt(pythonWith('networkx'), 'Python with networkx (python3-networkx)');
const igraph = readerIt(pythonWith('igraph'), 'Python with igraph (python3-igraph)');
const rIgraph = readerIt(rscriptWith('igraph'), "R's igraph (r-cran-igraph)");

describe('GEXF', () => {
  it('by default: GEXF 1.2draft, valid against its schema, kinds in a declared attribute, instants as spells', async () => {
    const { target, manifest } = await exportAs('gexf');
    await expectValid(target, '1.2draft');
    expect(manifest.network).toMatchObject({ directed: true, file: expect.stringContaining('GEXF 1.2draft') });
    expect(manifest.network?.how_to_read.networkx).toMatch(/read_gexf/);
    const g = readGexf(target, '1.2draft');
    expect(g.version).toBe('1.2');
    expect(g.graph).toEqual({ defaultedgetype: 'directed', mode: 'dynamic', timeformat: 'date', idtype: 'string' });
    expect(g.edges.map((e) => [e.source, e.target, e.attkind, Number(e.weight), e.type, e.kind])).toEqual(
      EDGES.map((e) => [...e, 'directed', undefined]),
    );
    expect(g.edges[0]?.spells).toEqual([
      { start: '2026-11-22T03:00:00.000Z', end: '2026-11-22T03:00:00.000Z' },
      { start: '2026-11-23T03:00:00.000Z', end: '2026-11-23T03:00:00.000Z' },
    ]);
    expect(g.nodes.find((n) => n.id === B.id)?.values['2']).toBe(SANITISED);
  });

  networkx(
    'opens in networkx: every node with its attributes, every edge with its kind, weight and times',
    async (py) => {
      const { target } = await exportAs('gexf');
      const G = runJson<{
        directed: boolean;
        nodes: Record<string, Record<string, unknown>>;
        edges: Array<[string, string, string, number, Array<[string, string]>]>;
      }>(py, NETWORKX_GEXF, [target]);
      expect(G.directed).toBe(true);
      expect(sorted(G.edges.map(([u, v, kind, weight]) => [u, v, kind, weight]))).toEqual(sorted(EDGES));
      const reply = G.edges.find((e) => e[2] === 'reply');
      expect(reply?.[4]).toEqual([
        ['2026-11-22T03:00:00.000Z', '2026-11-22T03:00:00.000Z'],
        ['2026-11-23T03:00:00.000Z', '2026-11-23T03:00:00.000Z'],
      ]);
      expect(G.nodes[B.id]).toMatchObject({
        label: '@bob',
        id: B.id,
        handle: 'bob',
        name: SANITISED,
        followers: 20,
        first_seen: '2026-11-22T03:00:00.000Z',
        type: 'user',
      });
      expect(Object.keys(G.nodes).sort()).toEqual([A.id, B.id, C.id]);
    },
  );

  networkx('GEXF 1.3 is what networkx cannot open (so it is not the default)', async (py) => {
    const { target } = await exportAs('gexf', THREAD, { gexfVersion: '1.3' });
    let stderr = '';
    try {
      runJson(py, NETWORKX_GEXF, [target]);
    } catch (e) {
      stderr = String((e as { stderr?: unknown }).stderr);
    }
    // networkx 2.x knows no 1.3 namespace; 3.x knows it but not timeformat="dateTime"
    expect(stderr).toMatch(/No <graph> element in GEXF file|KeyError: 'dateTime'/);
  });

  it('GEXF 1.3 on request: valid against its schema, with kinds in `kind` and a declared attribute, never in `type`', async () => {
    const { target, manifest } = await exportAs('gexf', THREAD, { gexfVersion: '1.3' });
    await expectValid(target, '1.3');
    expect(manifest.network?.file).toMatch(/GEXF 1.3/);
    const g = readGexf(target, '1.3');
    expect(g.graph).toMatchObject({ mode: 'dynamic', timerepresentation: 'timestamp', timezone: 'UTC' });
    expect(g.edges.map((e) => [e.source, e.target, e.kind, Number(e.weight), e.type, e.attkind])).toEqual(
      EDGES.map(([s, t, k, w]) => [s, t, k, w, 'directed', k]),
    );
    expect(g.edges[0]?.times).toEqual(['2026-11-22T03:00:00.000Z', '2026-11-23T03:00:00.000Z']);
    const bob = g.nodes.find((n) => n.id === B.id);
    // markup, quotes, controls and lone surrogates: parsed back as text, the forbidden ones as U+FFFD
    expect(bob?.values).toEqual({
      '0': B.id,
      '1': 'bob',
      '2': SANITISED,
      '3': '20',
      '4': '2026-11-22T03:00:00.000Z',
      '5': 'user',
    });
    expect(bob?.label).toBe('@bob');
    expect(g.nodes.find((n) => n.id === A.id)?.values['4']).toBe('2026-11-22T02:13:21.000Z');
  });

  it('escapes anything into well-formed XML, valid in both versions', async () => {
    const graph = new NetworkBuilder();
    const nasty = ['<', '>', '&', '"', "'", ']]>', '\u0000', '\ufffe', '\uffff', '\udc00', '\ud800x', '&#0;', '\r\n'];
    graph.addPost({
      id: '1',
      createdAt: 'not a date',
      author: { id: '42', userName: nasty.join(''), name: nasty.join(' ') },
      entities: {
        user_mentions: [{ id_str: '43', screen_name: '</gexf>', name: '<!-- x -->' }, { id_str: '<bad id>' }],
      },
    });
    const dir = await mkdtemp(join(tmpdir(), 'skein-gexf-'));
    for (const version of ['1.2draft', '1.3'] as const) {
      const path = join(dir, `x-${version}.gexf`);
      await writeFile(
        path,
        [...gexfChunks(graph, { creator: '<Skein>', description: '&', date: '2026-11-23' }, version)].join(''),
      );
      await expectValid(path, version);
      expect(readGexf(path, version).nodes.map((n) => n.id)).toEqual(['42', '43']);
    }
    expect(xmlEscape('a\u0000<\ud800')).toBe('a\ufffd&lt;\ufffd');
  });

  it('the schema check fails a file that breaks the schema (so a pass means something)', async () => {
    const { target } = await exportAs('gexf');
    const text = await readFile(target, 'utf8');
    expect(await schemaErrors(text.replace('<graph ', '<graph timezone="UTC" '), SCHEMAS['1.2draft'])).toEqual([
      expect.stringContaining("attribute 'timezone': The attribute 'timezone' is not allowed"),
    ]);
  });

  it("a reply that names only the post it answers points at that post's author, found before or after it", () => {
    const graph = new NetworkBuilder();
    graph.addPost(post('3', '2', { author: { id: '30' } }));
    graph.addPost(post('2', '1', { author: { id: '20' } }));
    graph.addPost(post('1', null, { author: { id: '10' } }));
    graph.addPost(post('4', '999', { author: { id: '40' } }));
    graph.finish();
    expect([...graph.edges.values()].map((e) => [e.source, e.target, e.kind])).toEqual([
      ['30', '20', 'reply'],
      ['20', '10', 'reply'],
    ]);
  });

  it('a post that merely starts with @mentions is no reply: mention edges, never a reply edge', () => {
    const graph = new NetworkBuilder();
    graph.addPost(recordedMentionNotReply);
    graph.finish();
    expect([...graph.edges.values()].map((e) => [e.source, e.target, e.kind])).toEqual([
      ['1111111111111111111', '9999999999999999999', 'mention'],
      ['1111111111111111111', '8888888888888888888', 'mention'],
    ]);
  });

  it('replies to posts outside the collection: their authors come from posts known elsewhere (the project)', () => {
    const graph = new NetworkBuilder();
    graph.addPost({ id: '201', inReplyToId: '100', author: { id: '2', userName: 'b' } });
    graph.addPost({ id: '202', inReplyToId: '101', author: { id: '3', userName: 'c' } });
    expect(graph.unknownParents()).toEqual(['100', '101']);
    graph.knowPost({ id: '100', author: { id: '1', userName: 'root' } });
    // hostile kept items: no author, a bad id, not an object — no edge, no throw
    graph.knowPost({ id: '101', author: { id: '<script>' } });
    graph.knowPost('not a post');
    graph.finish();
    expect([...graph.edges.values()].map((e) => [e.source, e.target, e.kind])).toEqual([['2', '1', 'reply']]);
    expect(graph.nodes.get('1')?.handle).toBe('root');
  });

  it("space roles, list followers and list members (a list timeline's authors) become edges to the space and the list", () => {
    const graph = new NetworkBuilder();
    graph.addSpaceParticipants(
      '1YqKDgkXoNEGV',
      'A space',
      [
        { id: '7', role: 'admin', handle: 'host', name: 'Host', followers: 5 },
        { id: '8', role: 'listener', handle: null, name: null, followers: null },
      ],
      '2026-11-23T00:00:00.000Z',
    );
    graph.addUser({ id: '9', userName: 'f' }, null, '55');
    // a list's timeline: its authors are the list's members (two posts by one member: one edge, weight 2)
    const member = { ...A, id: '10' };
    graph.addPost({ id: '100', createdAt: 'Mon Jan 05 10:00:00 +0000 2026', author: member }, null, '55');
    graph.addPost({ id: '101', createdAt: 'Mon Jan 05 11:00:00 +0000 2026', author: member }, null, '55');
    graph.addPost({ id: '102', author: { id: '11' } }, null, '<b>');
    expect([...graph.edges.values()].map((e) => [e.source, e.target, e.kind, e.weight])).toEqual([
      ['7', '1YqKDgkXoNEGV', 'admin', 1],
      ['8', '1YqKDgkXoNEGV', 'listener', 1],
      ['9', '55', 'list-follower', 1],
      ['10', '55', 'list-member', 2],
    ]);
    expect(graph.nodes.get('55')?.type).toBe('list');
    expect(graph.nodes.has('<b>')).toBe(false);
    expect(graph.nodes.get('1YqKDgkXoNEGV')?.type).toBe('space');
  });
});

describe('GraphML', () => {
  networkx(
    'opens in networkx: ids, attributes, one edge per kind with its weight and first and last time',
    async (py) => {
      const { target, manifest, done } = await exportAs('graphml');
      expect(done.files).toEqual([target, sidecarPath(target)]);
      expect(manifest.network?.file).toMatch(/GraphML/);
      const G = runJson<{
        directed: boolean;
        nodes: Record<string, Record<string, unknown>>;
        edges: Array<[string, string, Record<string, unknown>]>;
      }>(
        py,
        `
import json, sys, networkx as nx
G = nx.read_graphml(sys.argv[1])
print(json.dumps({'directed': G.is_directed(), 'nodes': dict(G.nodes(data=True)), 'edges': [[u, v, d] for u, v, d in G.edges(data=True)]}))`,
        [target],
      );
      expect(G.directed).toBe(true);
      expect(sorted(G.edges.map(([u, v, d]) => [u, v, d.kind, d.weight]))).toEqual(sorted(EDGES));
      expect(G.edges.find((e) => e[2].kind === 'reply')?.[2]).toMatchObject({
        first: '2026-11-22T03:00:00.000Z',
        last: '2026-11-23T03:00:00.000Z',
      });
      expect(G.nodes[B.id]).toEqual({
        label: '@bob',
        handle: 'bob',
        name: SANITISED,
        followers: 20,
        first_seen: '2026-11-22T03:00:00.000Z',
        node_type: 'user',
      });
    },
  );

  igraph('opens in igraph (Python): the ids join the edges, kinds and weights intact', async (py) => {
    const { target } = await exportAs('graphml');
    const g = runJson<{ ids: string[]; edges: Array<[string, string, string, number]>; names: string[] }>(
      py,
      `
import json, sys, igraph
g = igraph.Graph.Read_GraphML(sys.argv[1])
print(json.dumps({'directed': g.is_directed(), 'ids': g.vs['id'], 'names': g.vs['name'],
  'edges': [[g.vs[e.source]['id'], g.vs[e.target]['id'], e['kind'], e['weight']] for e in g.es]}))`,
      [target],
    );
    expect(g.ids.sort()).toEqual([A.id, B.id, C.id]);
    expect(sorted(g.edges)).toEqual(sorted(EDGES));
    expect(g.names).toContain(SANITISED);
  });

  rIgraph("opens in R's igraph", async (r) => {
    const { target } = await exportAs('graphml');
    const out = execFileSync(
      r,
      [
        '-e',
        `suppressPackageStartupMessages(library(igraph)); g <- read_graph(commandArgs(TRUE)[1], format = 'graphml')
         e <- as_edgelist(g, names = FALSE); ids <- V(g)$id
         write.csv(data.frame(source = ids[e[, 1]], target = ids[e[, 2]], kind = E(g)$kind, weight = E(g)$weight), stdout(), row.names = FALSE)`,
        target,
      ],
      { encoding: 'utf8' },
    );
    const rows = out
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.replaceAll('"', '').split(','));
    expect(sorted(rows.map(([s, t, k, w]) => [s, t, k, Number(w)]))).toEqual(sorted(EDGES));
  });

  it('escapes hostile text into well-formed XML that Python parses back', async () => {
    const graph = new NetworkBuilder();
    graph.addPost({
      id: '1',
      author: { id: '42', userName: ']]></data><data key="n0">x', name: 'a\u0000b\ud800c\nd' },
    });
    const dir = await mkdtemp(join(tmpdir(), 'skein-graphml-'));
    const path = join(dir, 'x.graphml');
    await writeFile(
      path,
      [...graphmlChunks(graph, { creator: '<Skein>', description: '&', date: '2026-11-23' })].join(''),
    );
    const names = JSON.parse(
      execFileSync(
        'python3',
        [
          '-c',
          `import json, sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
print(json.dumps([d.text for d in r.iter('{http://graphml.graphdrawing.org/xmlns}data')]))`,
          path,
        ],
        { encoding: 'utf8' },
      ),
    ) as string[];
    expect(names).toEqual(['@]]></data><data key="n0">x', ']]></data><data key="n0">x', 'a\ufffdb\ufffdc\nd', 'user']);
  });
});

describe('Gephi CSV', () => {
  it("a list's timeline: its authors are members of the list, edges to a list node", async () => {
    const list = '1500000000000000055';
    const { target } = await exportAs('gephi-csv', {
      kind: 'listPosts',
      operation: 'listTimeline',
      params: { listId: list },
    });
    const { nodes, edges } = gephiPaths(target);
    const members = await duckdb(
      `SELECT e.Source AS source, e.Weight AS weight, t."Node type" AS type FROM read_csv('${edges}', all_varchar = true) e
       JOIN read_csv('${nodes}', all_varchar = true) t ON t.Id = e.Target WHERE e.Kind = 'list-member' ORDER BY ALL`,
    );
    const authors = new Set(posts.map((p) => (p.author as { id: string }).id));
    expect(members.map((m) => m.source).sort()).toEqual([...authors].sort());
    expect(members.every((m) => m.type === 'list')).toBe(true);
  });

  it('nodes Id,Label,… and edges Source,Target,Type,Kind,Weight join on plain ids', async () => {
    const { target, done } = await exportAs('gephi-csv');
    const paths = gephiPaths(target);
    expect(done.files).toEqual([paths.nodes, paths.edges, sidecarPath(paths.nodes)]);
    const edges = await readFile(paths.edges, 'utf8');
    expect(edges.split('\n')[0]).toBe('Source,Target,Type,Kind,Weight,First,Last');
    expect((await readFile(paths.nodes, 'utf8')).split('\n')[0]).toBe(
      'Id,Label,Handle,Name,Followers,First seen,Node type',
    );
    const joined = await duckdb(
      `SELECT e.Kind AS kind, e.Weight AS weight, s.Label AS source, t.Label AS target
       FROM read_csv('${paths.edges}', all_varchar = true) e
       JOIN read_csv('${paths.nodes}', all_varchar = true) s ON s.Id = e.Source
       JOIN read_csv('${paths.nodes}', all_varchar = true) t ON t.Id = e.Target ORDER BY ALL`,
    );
    expect(joined).toHaveLength(6);
    expect(joined).toContainEqual({ kind: 'reply', weight: '2', source: 'bob', target: 'ann' });
    const names = await duckdb(`SELECT Name FROM read_csv('${paths.nodes}', all_varchar = true) WHERE Id = '${B.id}'`);
    // exact, but for the lone surrogates, which UTF-8 cannot hold (U+FFFD)
    expect(names[0]?.Name).toBe(Buffer.from(HOSTILE_NAME).toString('utf8'));
  });
});
