/**
 * How keeping media reads to a person: sizes, an estimate, a keeping's progress. Pure; shared by every place a
 * keeping is started or followed (the Archive's collections, an export's, a watch's).
 */
import type { MediaEstimate, MediaJob } from '../../shared/ipc/media';
import { numberFormat } from '../../shared/intl-cache';

export function sizeLabel(bytes: number, locale?: string): string {
  const [unit, value] =
    bytes >= 1e9 ? ['gigabyte', bytes / 1e9] : bytes >= 1e6 ? ['megabyte', bytes / 1e6] : ['kilobyte', bytes / 1e3];
  return numberFormat(locale, { style: 'unit', unit, maximumFractionDigits: 1 }).format(value);
}

const files = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'file' : 'files'}`;

function duration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** what an estimate says of the posts it could not read ('' when none): `what` they carry (media, links) */
export function damagedPostsSentence(n: number | undefined, what: string): string {
  if (!n) return '';
  const one = n === 1;
  return ` ${n.toLocaleString('en')} ${one ? 'post is' : 'posts are'} kept damaged in the project, so ${one ? 'its' : 'their'} ${what} cannot be read and ${one ? 'is' : 'are'} not counted; hydrating ${one ? 'its id' : 'their ids'} mends ${one ? 'it' : 'them'}.`;
}

/** `what`: whose media (this collection, this export) */
export function estimateSentence(e: MediaEstimate, what = 'this collection'): string {
  const kept = `${e.alreadyKept > 0 ? ` ${files(e.alreadyKept)} already kept will not be fetched again.` : ''}${damagedPostsSentence(e.damagedPosts, 'media')}`;
  if (e.files === 0) return `Nothing to fetch: every photo and video of ${what} is kept.${kept}`;
  const total = e.knownBytes + e.guessedBytes;
  const guess =
    e.guessedFiles > 0
      ? ` (${sizeLabel(e.knownBytes)} known from the videos; ${sizeLabel(e.guessedBytes)} a guess for ${files(e.guessedFiles)} whose size the posts do not give)`
      : '';
  return `${files(e.files)} to fetch, about ${sizeLabel(total)}${guess}, about ${duration(e.seconds)}. No API credits: media come from their servers.${kept}`;
}

const REASONS: Record<string, string> = {
  gone: 'gone',
  refused: 'refused',
  'too-large': 'too large',
  'timed-out': 'timed out',
  'wrong-type': 'not a photo or video',
  failed: 'failed',
};

export function progressSentence(j: MediaJob): string {
  const failures = Object.entries(j.reasons)
    .map(([reason, n]) => `${n} ${REASONS[reason] ?? reason}`)
    .join(', ');
  const failed = j.failed > 0 ? ` Not kept: ${failures}.` : '';
  const fresh = `${sizeLabel(j.storedBytes)} new`;
  switch (j.state) {
    case 'running':
      return `Keeping media: ${j.done.toLocaleString('en')} of ${files(j.total)}, ${fresh}.${failed}`;
    case 'done':
      return `Kept ${files(j.kept)} (${fresh}; ${j.alreadyKept.toLocaleString('en')} were already kept).${failed}`;
    case 'cancelled':
      return `Stopped after ${files(j.done)} (${fresh}). Keep media again to go on where it stopped.${failed}`;
    case 'failed':
      return `The media could not be kept: ${j.message ?? 'something went wrong'}.`;
  }
}
