/**
 * A hydration's quote and plan beside the project: the ids of its list the current project holds are "already in
 * the project (free)", not bought again (unless the view asks to fetch them again, `refetchHeld`).
 */
import { DEFAULT_PRICES } from '../../shared/api/pricing';
import type { ExportEstimate, ExportScope, ViewDescriptor } from '../../shared/ipc/export';
import type { IdList } from '../ids';
import { estimateExport } from './estimate';
import { countedList, countHeld, keptSplit, splitList, type ProjectItems } from './project-items';
import type { ExportServiceDeps } from './service-deps';
import { planView, type ViewPlan } from './views';

type Deps = Pick<ExportServiceDeps, 'importedIds' | 'project' | 'prices'>;

/** the kind a hydration's items are kept as in the project */
function heldKind(view: ViewDescriptor): 'post' | 'user' {
  return view.operation === 'usersByIds' ? 'user' : 'post';
}

async function imported(deps: Deps, view: ViewDescriptor): Promise<IdList | undefined> {
  if (view.idsFrom === undefined || !deps.importedIds) return undefined;
  return deps.importedIds(view.idsFrom);
}

/** the project a hydration takes the ids it already holds from; none when asked to fetch them all again */
function projectFor(deps: Deps, view: ViewDescriptor): ProjectItems | undefined {
  return view.idsFrom !== undefined && view.refetchHeld !== true ? deps.project : undefined;
}

export async function estimateView(deps: Deps, view: ViewDescriptor, scope: ExportScope): Promise<ExportEstimate> {
  const prices = deps.prices?.() ?? DEFAULT_PRICES;
  // a thread: the pages of its conversation the project holds, in any order (no call)
  if (view.kind === 'thread' && scope === 'all' && deps.project?.conversation) {
    const rootId = String(view.params.tweetId ?? '');
    const listings = rootId ? await deps.project.conversation(rootId) : [];
    return estimateExport(view, scope, prices, undefined, undefined, listings);
  }
  const list = await imported(deps, view);
  const project = projectFor(deps, view);
  if (!list || !project) return estimateExport(view, scope, prices, list);
  const held = await countHeld(list, heldKind(view), project);
  const { batchSize } = list;
  return estimateExport(view, scope, prices, countedList(list.count - held, batchSize), countedList(held, batchSize));
}

/**
 * The calls a view makes (a hydration's ids read from its import). A hydration started with the project at hand
 * (`job.split`) splits its list in the job's folder once: the ids the project holds first (free), then those to
 * fetch; a resume plans from that split, so its batches are the ones journaled.
 */
export async function planFor(
  deps: Deps,
  view: ViewDescriptor,
  job?: { dir: string; split: boolean },
): Promise<ViewPlan> {
  const list = await imported(deps, view);
  if (!list || !job) return planView(view, list);
  const project = projectFor(deps, view);
  const split =
    job.split && project
      ? await splitList(list, heldKind(view), project, job.dir)
      : await keptSplit(job.dir, list.batchSize);
  return split ? planView(view, split.fetch, split.held) : planView(view, list);
}
