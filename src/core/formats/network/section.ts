/**
 * What a network's manifest says (GEXF, GraphML and Gephi's tables alike): the file's dialect, directed edges of
 * which kinds, what a node is, what weight and time mean, that ids are plain text, and how each reader opens it.
 */
import type { ItemKind } from '../../../shared/api/catalog';
import type { ExportManifest } from '../manifest';

/**
 * The views a network is offered for: those whose items draw edges (posts; a list's followers; a space's roles). A
 * list of accounts alone (people search, accounts by id, a community's members) has none: its network would be
 * isolated nodes, so it is not offered (its CSV or Parquet holds the same accounts).
 */
export const NETWORK_KINDS: ItemKind[] = ['post', 'listFollower', 'space'];

export type NetworkFile = 'gexf-1.2draft' | 'gexf-1.3' | 'graphml' | 'gephi-csv';

const DIALECT: Record<NetworkFile, string> = {
  'gexf-1.2draft': 'GEXF 1.2draft (www.gexf.net/1.2draft): networkx and Gephi read it',
  'gexf-1.3': 'GEXF 1.3 (gexf.net/1.3): Gephi 0.9 and later; networkx reads only 1.1draft and 1.2draft',
  graphml: 'GraphML (graphml.graphdrawing.org/xmlns): igraph (Python, R), networkx, Cytoscape and Gephi read it',
  'gephi-csv': "Gephi's spreadsheet import: a node table and an edge table",
};

const TIME: Record<NetworkFile, string> = {
  'gexf-1.2draft':
    'a dynamic graph: a spell per time a node or edge appears (a post\'s creation time; without one, the page\'s fetch time), start = end, ISO 8601 in UTC, under timeformat "date" (networkx keeps the values as text; Gephi reads them with their time of day)',
  'gexf-1.3':
    "a dynamic graph (timerepresentation timestamp, timezone UTC): a spell timestamp per time a node or edge appears (a post's creation time; without one, the page's fetch time)",
  graphml:
    "each edge's first and last time (ISO 8601, UTC; a post's creation time, or the page's fetch time), each node's first_seen",
  'gephi-csv': "the edge's first and last time (ISO 8601, UTC), each node's first seen",
};

const HOW_TO_READ: Record<NetworkFile, Record<string, string>> = {
  'gexf-1.2draft': {
    networkx: "G = nx.read_gexf(path)  # a MultiDiGraph when a pair has several kinds; G.edges(data='kind')",
    gephi: 'File > Open',
  },
  'gexf-1.3': { gephi: 'File > Open' },
  graphml: {
    igraph: "g = igraph.Graph.Read_GraphML(path)  # g.vs['id'] holds the ids, g.es['kind'] the interaction",
    'R igraph': "g <- igraph::read_graph(path, format = 'graphml')",
    networkx: 'G = nx.read_graphml(path)  # a MultiDiGraph when a pair has several kinds',
    cytoscape: 'File > Import > Network from File',
  },
  'gephi-csv': {
    gephi: 'File > Import spreadsheet: the nodes table, then the edges table (append to the workspace)',
    igraph:
      'igraph.Graph.DataFrame(pd.read_csv(edges, dtype=str), directed=True, vertices=pd.read_csv(nodes, dtype=str), use_vids=False)',
  },
};

export function networkSection(file: NetworkFile): NonNullable<ExportManifest['network']> {
  return {
    file: DIALECT[file],
    directed: true,
    nodes: 'users (id, handle, name, followers, first seen), and the space or list the view is about',
    edge_kinds: {
      reply:
        "the author answered the target user (the parent post's author: from the export, or from the project when the parent is outside it)",
      quote: "the author quoted the target's post",
      retweet: "the author retweeted the target's post",
      mention: 'the author mentioned the target in their post',
      'mention-in-retweet': 'the target is mentioned in the post the author retweeted',
      'mention-in-quote': 'the target is mentioned in the post the author quoted',
      'admin/speaker/listener': "the user's role in the space",
      'list-follower': 'the user follows the list',
      'list-member': "the user is a member of the list (an author of the list's timeline)",
    },
    edge_kind_where:
      file === 'gexf-1.3'
        ? 'the edge attribute kind (GEXF 1.3) and the declared edge attribute "kind"'
        : file === 'gephi-csv'
          ? 'the Kind column'
          : 'the declared edge attribute "kind"',
    weight: 'how many times the interaction happened in the export (one edge per source, target and kind)',
    time: TIME[file],
    ids: 'plain text ids (the node id is the user, space or list id), so they join with the other exports',
    how_to_read: HOW_TO_READ[file],
  };
}
