/**
 * A view's export as a network: GEXF 1.2draft or 1.3 (`x.gexf`), GraphML (`x.graphml`) or Gephi's two
 * spreadsheet tables (`x.nodes.csv`, `x.edges.csv`), streamed from the export's journal into a `NetworkBuilder` (posts, users, a list's
 * followers and members, a space's participants), then written atomically. The manifest goes beside them.
 */
import { basename, dirname, extname, join } from 'node:path';
import { writeFileAtomic } from '../../files/atomic-file';
import { decodeCsvId, TABLES } from '../csv/rows';
import { scalarText } from '../../../shared/scalar-text';
import {
  provenanceCounter,
  rawText,
  withSidecar,
  type ItemStream,
  type PostLookup,
  type WriteJob,
  type WritePlan,
} from '../format';
import type { ExportManifest } from '../manifest';
import type { GexfMeta } from './gexf';
import { NetworkBuilder } from './graph';

/** The file the user chose, `x.csv` → `x.nodes.csv` and `x.edges.csv` (the manifest follows the nodes file). */
export function gephiPaths(chosen: string): { nodes: string; edges: string } {
  const ext = extname(chosen) || '.csv';
  const stem = join(dirname(chosen), basename(chosen, extname(chosen)));
  return { nodes: `${stem}.nodes${ext}`, edges: `${stem}.edges${ext}` };
}

/** `x.nodes.csv` → `x.edges.csv`. */
export function edgesPathOf(nodesPath: string): string {
  const ext = extname(nodesPath);
  const stem = basename(nodesPath, ext).replace(/\.nodes$/, '');
  return join(dirname(nodesPath), `${stem}.edges${ext}`);
}

const ROLE = { admin: 'admin', speaker: 'speaker', listener: 'listener' } as const;

/** ids asked of the project at once */
const LOOKUP_CHUNK = 500;

/** Replies whose parent post is not in the export: their parents' authors, from the project where it holds them. */
async function parentsFromProject(graph: NetworkBuilder, lookup: PostLookup): Promise<void> {
  const parents = graph.unknownParents();
  for (let i = 0; i < parents.length; i += LOOKUP_CHUNK) {
    for (const held of await lookup(parents.slice(i, i + LOOKUP_CHUNK))) {
      try {
        graph.knowPost(JSON.parse(held.raw));
      } catch {
        // an unreadable kept item names no author: its replies keep no reply edge, as before
      }
    }
  }
}

async function buildNetwork(source: ItemStream, manifest: ExportManifest, plan: WritePlan, lookup?: PostLookup) {
  const graph = new NetworkBuilder();
  const params = plan.params;
  const provenance = provenanceCounter(manifest);
  const participants = TABLES.space[1];
  // a list's followers, or its timeline (whose authors are the list's members)
  const listId =
    plan.kind === 'listFollowers'
      ? scalarText(params.list_id)
      : plan.kind === 'listPosts'
        ? scalarText(params.listId)
        : null;
  let index = 0;
  for await (const item of source.items()) {
    const at = (item.provenance ?? provenance()).retrieved_at;
    const raw: unknown = JSON.parse(rawText(item));
    switch (plan.itemKind) {
      case 'post':
        graph.addPost(raw, at, listId || null);
        break;
      case 'user':
      case 'listFollower':
        graph.addUser(raw, at, listId || null);
        break;
      case 'space': {
        const rows = participants?.rows(raw, null, { params, index }) ?? [];
        const meta = TABLES.space[0]?.rows(raw, null, { params, index })[0];
        graph.addSpaceParticipants(
          String(params.space_id ?? ''),
          typeof meta?.title === 'string' ? meta.title : null,
          rows.flatMap((r) => {
            const role = ROLE[String(r.role) as keyof typeof ROLE];
            const id = typeof r.user_id === 'string' ? decodeCsvId(r.user_id) : '';
            if (!role || !id) return [];
            return [
              {
                id,
                role,
                handle: typeof r.screen_name === 'string' ? r.screen_name : null,
                name: typeof r.display_name === 'string' ? r.display_name : null,
                followers: typeof r.followers === 'number' ? r.followers : null,
              },
            ];
          }),
          at,
        );
        break;
      }
      default:
        // trends, communities, articles: no network (the dialog does not offer it)
        break;
    }
    index++;
  }
  if (lookup) await parentsFromProject(graph, lookup);
  return graph.finish();
}

async function writeChunks(path: string, chunks: Iterable<string>, signal?: AbortSignal): Promise<number> {
  return writeFileAtomic(
    path,
    async (sink) => {
      for (const chunk of chunks) await sink.write(chunk);
    },
    signal,
  );
}

function metaOf(manifest: ExportManifest): GexfMeta {
  return {
    creator: `${manifest.app.name} ${manifest.app.version}`,
    description: `${manifest.view.title ?? manifest.view.kind}: ${manifest.view.operation}, exported ${manifest.exported_at}`,
    date: manifest.exported_at.slice(0, 10),
  };
}

/** Builds the job's network, writes its files (each path and its text, in order), then the sidecar manifest. */
export function writeNetwork(
  job: WriteJob,
  files: (graph: NetworkBuilder, meta: GexfMeta) => Array<[path: string, chunks: Iterable<string>]>,
): Promise<number> {
  return withSidecar(job, async () => {
    const graph = await buildNetwork(job.items, job.manifest, job.plan, job.posts);
    let bytes = 0;
    for (const [path, chunks] of files(graph, metaOf(job.manifest)))
      bytes += await writeChunks(path, chunks, job.signal);
    return bytes;
  });
}
