/**
 * Network exports: the GEXF validates against the vendored GEXF 1.3 schema (xmllint), keeps interaction
 * kinds out of `type`, escapes hostile text, and Gephi's two tables join on plain ids (DuckDB).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { duckdb } from '../../testing/duckdb';
import { describe, expect, it } from 'vitest';
import type { ExportFormat, ViewDescriptor } from '../../../shared/ipc/export';
import { FakeClock } from '../../testing/fake-clock';
import { ExportService } from '../../export/export-service';
import type { ExportManifest } from '../manifest';
import { memorySource, post } from '../../export/testing/memory-source';
import { sidecarPath } from '../format';
import { gephiPaths } from './export-network';
import { gexfChunks, xmlEscape } from './gexf';
import { NetworkBuilder } from './graph';
import { recordedMentionNotReply } from '../../../shared/api/fixtures/recorded-round2';

const XSD = fileURLToPath(new URL('./fixtures/gexf-1.3/gexf.xsd', import.meta.url));
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

const THREAD: ViewDescriptor = {
  kind: 'thread',
  operation: 'postRepliesV2',
  params: { tweetId: '2000000000000000001' },
};

async function exportAs(format: ExportFormat, view = THREAD) {
  const dir = await mkdtemp(join(tmpdir(), 'skein-network-'));
  const service = new ExportService({
    source: memorySource([{ items: posts }]),
    stateDir: join(dir, 'state'),
    clock: new FakeClock(),
    context,
  });
  const target = join(dir, format === 'gexf' ? 'n.gexf' : 'n.csv');
  const job = await service.start({ view, format, scope: 'all', targetPath: target });
  const done = await service.settled(job.id);
  expect(done.status).toBe('complete');
  const manifest = JSON.parse(await readFile(done.files.at(-1) as string, 'utf8')) as ExportManifest;
  return { target, done, manifest };
}

function xmllint(path: string): string {
  return execFileSync('xmllint', ['--noout', '--schema', XSD, path], { encoding: 'utf8', stdio: 'pipe' });
}

/** The GEXF read back by Python's XML parser: nodes with their attribute values, edges with their attributes. */
function readGexf(path: string) {
  const script = `
import json, sys, xml.etree.ElementTree as ET
ns = {'g': 'http://gexf.net/1.3'}
root = ET.parse(sys.argv[1]).getroot()
nodes = [{'id': n.get('id'), 'label': n.get('label'), 'values': {a.get('for'): a.get('value') for a in n.findall('g:attvalues/g:attvalue', ns)}, 'times': [s.get('timestamp') for s in n.findall('g:spells/g:spell', ns)]} for n in root.iter('{http://gexf.net/1.3}node')]
edges = [dict(e.attrib, attkind=e.find('g:attvalues/g:attvalue', ns).get('value'), times=[s.get('timestamp') for s in e.findall('g:spells/g:spell', ns)]) for e in root.iter('{http://gexf.net/1.3}edge')]
graph = root.find('g:graph', ns).attrib
print(json.dumps({'nodes': nodes, 'edges': edges, 'graph': graph}))`;
  return JSON.parse(execFileSync('python3', ['-c', script, path], { encoding: 'utf8' })) as {
    nodes: Array<{ id: string; label: string; values: Record<string, string>; times: string[] }>;
    edges: Array<Record<string, string> & { times: string[] }>;
    graph: Record<string, string>;
  };
}

describe('GEXF', () => {
  it('validates against the GEXF 1.3 schema, with kinds in `kind` and a declared attribute, never in `type`', async () => {
    const { target, manifest } = await exportAs('gexf');
    expect(() => xmllint(target)).not.toThrow();
    expect(manifest.network?.directed).toBe(true);
    const g = readGexf(target);
    expect(g.graph).toMatchObject({ mode: 'dynamic', timerepresentation: 'timestamp', timezone: 'UTC' });
    const edges = g.edges.map((e) => [e.source, e.target, e.kind, e.weight, e.type, e.attkind]);
    expect(edges).toEqual([
      [B.id, A.id, 'reply', '2', 'directed', 'reply'],
      [B.id, A.id, 'mention', '1', 'directed', 'mention'],
      [B.id, C.id, 'mention', '1', 'directed', 'mention'],
      [C.id, A.id, 'quote', '1', 'directed', 'quote'],
      [A.id, C.id, 'retweet', '1', 'directed', 'retweet'],
      [A.id, B.id, 'mention-in-retweet', '1', 'directed', 'mention-in-retweet'],
    ]);
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

  it('escapes anything into well-formed, schema-valid XML', async () => {
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
    const path = join(dir, 'x.gexf');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(
      path,
      [...gexfChunks(graph, { creator: '<Skein>', description: '&', date: '2026-11-23' })].join(''),
    );
    expect(() => xmllint(path)).not.toThrow();
    expect(readGexf(path).nodes.map((n) => n.id)).toEqual(['42', '43']);
    expect(xmlEscape('a\u0000<\ud800')).toBe('a\ufffd&lt;\ufffd');
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
