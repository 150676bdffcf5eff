/**
 * The words of "Keep linked pages…": the count, a capture's progress and how it ended, as a person reads them.
 * Pure, so each sentence is tested alone.
 */
import type { PageListRow, PagesEstimate, PagesJob, PagesTimestamp } from '../../../shared/ipc/pages';
import { damagedPostsSentence } from '../../lib/media-words';
import { sentence, sizeLabel, timestampedBy } from './keep-media';

const pages = (n: number) => `${n.toLocaleString('en')} linked ${n === 1 ? 'page' : 'pages'}`;
const posts = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'post' : 'posts'}`;

export function pagesEstimateSentence(e: PagesEstimate): string {
  const kept = `${e.alreadyCaptured > 0 ? ` ${pages(e.alreadyCaptured)} already kept will not be fetched again.` : ''}${damagedPostsSentence(e.damagedPosts, 'links')}`;
  if (e.urls === 0 && e.alreadyCaptured === 0)
    return `The posts of this collection link to no web pages.${damagedPostsSentence(e.damagedPosts, 'links')}`;
  const save = saveEstimate(e.save);
  if (e.urls === 0) return `Nothing to fetch: every page this collection links to is kept.${kept}${save}`;
  return `${pages(e.urls)} to fetch, from ${posts(e.posts)}. No API credits: pages come from their own sites.${kept}${save}`;
}

/** how long sending to the save service takes at its pace, roughly, in the unit a person plans with */
function roughly(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  return `${Math.round((seconds / 3600) * 10) / 10} h`;
}

function saveEstimate(s: PagesEstimate['save']): string {
  if (!s) return '';
  if (s.urls === 0) return ' Every one is saved at the web archive already.';
  return ` ${pages(s.urls)} to send to the web archive’s save service, one every ${s.paceSeconds.toLocaleString('en')} s (about ${roughly(s.urls * s.paceSeconds)}).`;
}

const REASONS: Record<string, string> = {
  gone: 'gone',
  refused: 'refused',
  'too-large': 'too large',
  'timed-out': 'timed out',
  'wrong-type': 'sent in a form Skein does not unpack',
  failed: 'failed',
  'rate-limited': 'rate limited',
};

/** the failures of a capture by reason, in words: "2 gone, 1 refused" */
function failuresPhrase(reasons: Record<string, number>): string {
  return Object.entries(reasons)
    .map(([reason, n]) => `${n.toLocaleString('en')} ${REASONS[reason] ?? reason}`)
    .join(', ');
}

export function pagesProgressSentence(j: PagesJob): string {
  const failed = j.failed > 0 ? ` Not kept: ${failuresPhrase(j.reasons)}.` : '';
  switch (j.state) {
    case 'running':
      return `Keeping linked pages: ${j.done.toLocaleString('en')} of ${pages(j.total)}.${failed}`;
    case 'done':
      return `Kept ${pages(j.captured)} (${sizeLabel(j.bytes)}; ${j.alreadyCaptured.toLocaleString('en')} were already kept).${failed}`;
    case 'cancelled':
      return `Stopped after ${pages(j.done)}. Keep linked pages again to go on where it stopped.${failed}`;
    case 'failed':
      return `The linked pages could not be kept: ${j.message ?? 'something went wrong'}.`;
  }
}

/** where the capture's web archive is, for a person to open it in ReplayWeb.page */
export function waczSentence(j: PagesJob): string | null {
  if (!j.wacz) return null;
  return `Saved as a web archive (WACZ) that ReplayWeb.page opens: ${j.wacz}`;
}

/** the trusted time of the WACZ a run wrote: who timestamped it and when, or plainly why nobody did */
export function pagesTimestampSentence(t: PagesTimestamp): string {
  if (t.authority !== null && t.genTime !== null)
    return `${timestampedBy(t.authority, t.genTime)}: a token over this web archive’s hash is saved beside it.`;
  return sentence(t.reason ?? 'no trusted time was obtained');
}

/** the save service's part of a run, when it is on: how far, then saved, already saved, and why not */
export function saveSentence(j: PagesJob): string | null {
  const s = j.save;
  if (!s) return null;
  const n = (k: number) => k.toLocaleString('en');
  const failed = s.failed > 0 ? ` Not saved: ${failuresPhrase(s.reasons)}.` : '';
  if (j.state === 'running') return `Sending to the web archive: ${n(s.done)} of ${pages(s.total)}.${failed}`;
  return `Saved at the web archive: ${pages(s.saved)} (${n(s.alreadySaved)} were already saved).${failed}`;
}

/** one linked URL's line: kept here or why not, and its web archive capture or why there is none */
export function pageRowWords(r: PageListRow): { kept: string; saved: string | null } {
  const kept =
    r.state === 'captured'
      ? 'Kept in this project’s web archive.'
      : `Not kept: ${REASONS[r.reason ?? ''] ?? 'failed'}${r.message ? ` (${r.message})` : ''}.`;
  const saved = !r.save
    ? null
    : r.save.state === 'saved'
      ? 'Saved at the web archive:'
      : `Not saved at the web archive: ${REASONS[r.save.reason ?? ''] ?? 'failed'}${
          r.save.message ? ` (${r.save.message})` : ''
        }.`;
  return { kept, saved };
}
