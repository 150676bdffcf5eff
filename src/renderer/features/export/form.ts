/**
 * The export dialog's plain logic: reading the cap fields, and the words the
 * dialog shows for an estimate and for a job. Kept apart from React so it is
 * tested on its own.
 */
import { OPERATIONS } from '../../../shared/api/catalog';
import { creditsToUsd, type PriceTable } from '../../../shared/api/pricing';
import { formatUsd } from '../../lib/usage/money';
import type {
  ExportCaps,
  ExportEstimate,
  ExportJob,
  ExportScope,
  ExportStartInput,
  StopReason,
  ViewDescriptor,
} from '../../../shared/ipc/export';
import type { ViewMediaEstimate } from '../../../shared/ipc/media';
import { estimateSentence } from '../../lib/media-words';

export interface CapFields {
  maxPages: string;
  maxItems: string;
  maxCredits: string;
}

export const EMPTY_CAPS: CapFields = { maxPages: '', maxItems: '', maxCredits: '' };

export type CapsResult = { ok: true; caps: ExportCaps } | { ok: false; field: keyof CapFields; message: string };

/** Empty fields mean "no cap"; anything else must be a positive whole number. */
export function readCaps(fields: CapFields): CapsResult {
  const caps: ExportCaps = {};
  for (const key of ['maxPages', 'maxItems', 'maxCredits'] as const) {
    const text = fields[key].trim().replace(/[\s,_]/g, '');
    if (text === '') continue;
    if (!/^\d+$/.test(text) || Number(text) <= 0)
      return { ok: false, field: key, message: 'Enter a whole number above 0, or leave it empty for no cap.' };
    caps[key] = Number(text);
  }
  return { ok: true, caps };
}

const n = (v: number) => Math.round(v).toLocaleString('en-US');

/** Credits with their dollars beside them when a price table is known: `3,000 credits ($0.03)`. */
const credited = (credits: number, prices?: PriceTable): string =>
  `${n(credits)} credits${prices ? ` (${formatUsd(creditsToUsd(credits, prices), 'en-US')})` : ''}`;

export function describeEstimate(e: ExportEstimate, prices?: PriceTable): string {
  if (e.calls === 0) return 'No new calls: everything comes from what Skein already loaded.';
  if (e.calls === null) return 'Unknown number of pages.';
  if (e.range) {
    const [low, high] = e.range.calls;
    const [cLow, cHigh] = e.range.credits;
    return `About ${n(e.calls)} call${e.calls === 1 ? '' : 's'} (between ${n(low)} and ${n(high)}), about ${credited(e.credits ?? 0, prices)} (between ${n(cLow)} and ${prices ? credited(cHigh, prices) : n(cHigh)}).`;
  }
  const about = e.atLeast ? 'at least' : 'about';
  const credits = e.credits === null ? '' : `, ${about} ${credited(e.credits, prices)}`;
  return `${e.atLeast ? 'At least' : 'About'} ${n(e.calls)} call${e.calls === 1 ? '' : 's'}${credits}${e.atLeast ? ' (the true figure is higher: see below)' : ''}.`;
}

const STOPS: Record<StopReason, string> = {
  'cap-pages': 'stopped at the page cap',
  'cap-items': 'stopped at the item cap',
  'cap-credits': 'stopped before the credit cap',
  cancelled: 'cancelled',
  error: 'stopped by an error',
  interrupted: 'Skein quit while it ran',
  'loaded-only': 'only what the view had loaded',
  'repeated-cursor': 'the API repeated a cursor',
  'missing-cursor': 'the API sent no cursor for the next page',
  'empty-pages': 'the API sent empty pages',
};

function stopWords(reason: StopReason | null): string {
  return reason ? STOPS[reason] : '';
}

/** One line saying where the job is. */
export function describeJob(job: ExportJob): string {
  const p = job.progress;
  const counts = `${n(p.items)} item${p.items === 1 ? '' : 's'}, ${n(p.pages)} page${p.pages === 1 ? '' : 's'}, ${n(p.calls)} call${p.calls === 1 ? '' : 's'}, ~${n(p.credits)} credits`;
  switch (job.status) {
    case 'collecting':
      return `Collecting… ${counts}`;
    case 'writing':
      return `Writing ${n(p.items)} items…`;
    case 'complete':
      return `Done: ${counts}.`;
    case 'partial':
      return `Saved a partial export (${stopWords(job.stopReason)}): ${counts}.`;
    case 'cancelled':
      return 'Cancelled: no file was written.';
    case 'failed':
      return `Failed: ${job.error?.message ?? 'the export could not be written.'}`;
    case 'interrupted':
      return `Interrupted when Skein quit: ${counts} kept.`;
  }
}

export function isActive(job: ExportJob): boolean {
  return job.status === 'collecting' || job.status === 'writing';
}

/** The same view (kind, operation, params), whatever it has loaded: a running job of it belongs in its dialog. */
export function sameView(a: ViewDescriptor, b: ViewDescriptor): boolean {
  const key = (v: ViewDescriptor) =>
    JSON.stringify(Object.entries(v.params).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
  // two hydrations differ by the id list they name, not by their (empty) params
  return a.kind === b.kind && a.operation === b.operation && a.idsFrom === b.idsFrom && key(a) === key(b);
}

/**
 * Whether a job exports the view on screen, whatever order its dialog chose: a thread's export may ask
 * for Latest while the screen shows Relevance, and it is still this thread's export.
 */
export function sameSubject(job: ViewDescriptor, screen: ViewDescriptor): boolean {
  if (job.kind !== 'thread' || screen.kind !== 'thread') return sameView(job, screen);
  const { [ORDER_PARAM]: _a, ...a } = job.params;
  const { [ORDER_PARAM]: _b, ...b } = screen.params;
  return sameView({ ...job, params: a }, { ...screen, params: b });
}

/** `m:ss` (or `h:mm:ss`) of a wait. */
export function clockWords(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** While a job waits out a rate limit: what it waits for, and for how long more; null when it does not wait. */
export function waitWords(job: ExportJob, now: number): string | null {
  const until = job.progress.waitingUntil;
  if (job.status !== 'collecting' || typeof until !== 'number') return null;
  return `Rate limited by the service: going on by itself in ${clockWords(until - now)}.`;
}

/** Just the file name of a path (for display). */
export function fileName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** The order a reply view is exported in: Latest unless asked otherwise (ranked listings can leave replies out). */
export interface ExportOrder {
  /** the order the view shows, or null for views without one */
  shown: string | null;
  chosen: string | null;
  /** the view to export: the chosen order, and nothing loaded when that is not the order on screen */
  view: ViewDescriptor;
  /** `loaded` is possible only in the order on screen */
  loadedAvailable: boolean;
  warning: string | null;
}

const ORDER_PARAM = 'queryType';

/**
 * A reply view's export order. Not chosen: for what is loaded, the order on screen (it costs nothing);
 * for fetching everything, Latest (a ranked listing can leave replies out). A ranked order warns.
 */
export function exportOrder(view: ViewDescriptor, chosen: string | null, scope: ExportScope = 'all'): ExportOrder {
  // a hydration (ids from a kept list) has loaded nothing: every id is asked for
  if (view.idsFrom !== undefined) return { shown: null, chosen: null, view, loadedAvailable: false, warning: null };
  if (view.kind !== 'thread') return { shown: null, chosen: null, view, loadedAvailable: true, warning: null };
  const shown = String(view.params[ORDER_PARAM] ?? 'Relevance');
  const order = chosen ?? (scope === 'loaded' ? shown : 'Latest');
  const warning =
    order === 'Latest'
      ? null
      : `A ${order === 'Likes' ? 'like' : 'relevance'}-ranked listing can leave replies out: for a complete collection export in Latest order.`;
  if (order === shown) return { shown, chosen: order, view, loadedAvailable: true, warning };
  const { loadedPages: _p, loadedItems: _i, reachedEnd: _e, ...rest } = view;
  return {
    shown,
    chosen: order,
    view: { ...rest, params: { ...view.params, [ORDER_PARAM]: order } },
    loadedAvailable: false,
    warning,
  };
}

/** "Also keep the media of these posts" is offered for views of posts only (accounts, trends carry none) */
export function offersKeepMedia(view: ViewDescriptor): boolean {
  return OPERATIONS[view.operation].itemKind === 'post';
}

/** the start input with the media option, when the view offers it and the person ticked it */
export function withKeepMedia(input: ExportStartInput, keep: boolean): ExportStartInput {
  const { keepMedia: _k, ...rest } = input;
  return keep && offersKeepMedia(input.view) ? { ...rest, keepMedia: true } : rest;
}

/** What keeping the media of an export would take, said before it starts (from the posts the view has loaded). */
export function viewMediaWords(e: ViewMediaEstimate): string {
  if (e.posts === 0)
    return e.partial
      ? 'No posts are loaded yet: their media are counted once the export has fetched them.'
      : 'No posts are loaded, so there are no media to keep.';
  const posts = `${e.posts.toLocaleString('en')} post${e.posts === 1 ? '' : 's'}`;
  const what = e.partial ? `the ${posts} loaded so far` : `the ${posts} to export`;
  const rest = e.partial ? ' The pages still to fetch add their media, counted once they are fetched.' : '';
  return `Media of ${what}: ${estimateSentence(e, 'these posts')}${rest}`;
}

/** The line under a written export that asked for its media, before its keeping has been started. */
export function mediaPendingWords(job: ExportJob): string | null {
  if (!job.keepMedia || job.mediaJob !== undefined) return null;
  if (job.status === 'cancelled' || job.status === 'failed') return 'No file was written, so no media were kept.';
  if (job.status === 'interrupted') return 'Skein quit before the file was written: resume it to keep its media.';
  if (isActive(job)) return 'Once the file is written, Skein keeps the photos and videos of its posts.';
  if (job.unrecorded) return 'Its photos and videos are kept once the project has kept this export.';
  return job.collection === undefined
    ? 'Keeping the photos and videos of its posts will start in a moment…'
    : 'The photos and videos were not kept: the project in use changed while the export ran. Keep them from the collection in the Archive.';
}

/** why the project could not keep it, to go inside a sentence (its own full stop dropped) */
function unrecordedWhy(unrecorded: NonNullable<ExportJob['unrecorded']>): string {
  return unrecorded.error.message.replace(/\.$/, '');
}

/**
 * A written export the project could not keep as a collection (its server away): what happened and what to do,
 * in plain words; null when there is nothing to say.
 */
export function unrecordedWords(job: ExportJob): { text: string; action: string } | null {
  if (!job.unrecorded) return null;
  const why = unrecordedWhy(job.unrecorded);
  return {
    text: `The file is written, but the project could not keep this export as a collection: ${why}.`,
    action: `${job.unrecorded.error.details?.action ? `${job.unrecorded.error.details.action} ` : ''}Its items wait on this computer: keeping it in the project makes no call and costs nothing.`,
  };
}

/** The status bar's word on a written export the project could not keep (the dialog may be closed by then). */
export function unrecordedNotice(job: ExportJob): string | null {
  if (!job.unrecorded) return null;
  const title = job.view.title ?? OPERATIONS[job.view.operation].title;
  return `The export “${title}” is written, but the project could not keep it as a collection: ${unrecordedWhy(job.unrecorded)}. Its Export… dialog keeps it later, at no cost.`;
}
