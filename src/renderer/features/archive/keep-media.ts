/**
 * The words of "Keep media…": an estimate, a job's progress and a check of the kept files as a person reads
 * them. Pure, so each sentence is tested alone.
 */
import type { EvidencePackage, MediaCheck, MediaMismatch, MediaTimestamp } from '../../../shared/ipc/media';
import type { PagesCheck, WaczProblem } from '../../../shared/ipc/pages';
import { sizeLabel } from '../../lib/media-words';
import { stamp } from '../../lib/time';

export { estimateSentence, progressSentence, sizeLabel } from '../../lib/media-words';

const files = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'file' : 'files'}`;

/** what a check of every kept file found, in one sentence (the files that no longer match are listed after it) */
export function checkSentence(c: MediaCheck): string {
  if (c.checked === 0) return 'This project has no kept files to check yet.';
  const bad = c.checked - c.matched;
  const size = sizeLabel(c.bytes);
  if (bad === 0)
    return c.checked === 1
      ? `The one kept file matches what was kept (${size}).`
      : `All ${c.checked.toLocaleString('en')} kept files match what was kept (${size}).`;
  const of = `${bad.toLocaleString('en')} of ${c.checked.toLocaleString('en')} kept ${c.checked === 1 ? 'file' : 'files'}`;
  return `${of} no longer ${bad === 1 ? 'matches' : 'match'} what was kept:`;
}

const KIND_BY_EXTENSION: Record<string, string> = { mp4: 'video', gif: 'GIF' };

/** one kept file that no longer matches: what it is, its posts, when it was kept, and what is wrong */
export function mismatchSentence(m: MediaMismatch): string {
  const kind = KIND_BY_EXTENSION[m.name.split('.').pop() ?? ''] ?? 'photo';
  const ids = [...new Set(m.uses.map((u) => u.postId))];
  const posts = ids.length === 0 ? '' : ` of post${ids.length === 1 ? '' : 's'} ${ids.join(', ')}`;
  const what =
    m.found === null ? 'is missing from the media folder' : 'has changed: its bytes no longer hash to what was kept';
  return `The ${kind}${posts}, kept ${stamp(m.keptAt)}, ${what}.`;
}

const pageFiles = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'file' : 'files'} of captured pages`;

/** what the check found of the project's files of captured pages, in one sentence (those that no longer match after it) */
export function pagesCheckSentence(c: PagesCheck): string {
  if (c.checked === 0) return 'No captured pages to check yet.';
  const bad = c.checked - c.matched;
  const older =
    c.unrecorded === 0
      ? ''
      : ` ${c.unrecorded === c.checked ? (c.checked === 1 ? 'It was' : 'They were') : `${pageFiles(c.unrecorded)} ${c.unrecorded === 1 ? 'was' : 'were'}`} written before Skein recorded a whole file's hash, so ${c.unrecorded === 1 ? 'it was' : 'they were'} checked against the hashes listed inside ${c.unrecorded === 1 ? 'it' : 'them'}.`;
  if (bad === 0)
    return `${c.checked === 1 ? 'The one file of captured pages matches' : `All ${pageFiles(c.checked)} match`} what was written.${older}`;
  return `${bad.toLocaleString('en')} of ${pageFiles(c.checked)} no longer ${bad === 1 ? 'matches' : 'match'} what was written.${older}`;
}

/** what a check found of the capture runs' timestamp tokens; null when there were none to check */
export function pagesTokensSentence(c: PagesCheck): string | null {
  if (c.tokens === 0) return null;
  const bad = c.tokenProblems.length;
  if (bad === 0)
    return c.tokens === 1
      ? 'The one timestamp token of captured pages still proves its web archive.'
      : `All ${c.tokens.toLocaleString('en')} timestamp tokens of captured pages still prove their web archives.`;
  return `${bad.toLocaleString('en')} of ${c.tokens.toLocaleString('en')} timestamp tokens of captured pages no longer ${bad === 1 ? 'proves its web archive' : 'prove their web archives'}:`;
}

/** one file of captured pages that changed or went missing: the pages it holds, and what is wrong */
export function waczProblemSentence(p: WaczProblem): string {
  const first = p.urls[0];
  const holds =
    p.pages === 0 || !first
      ? 'The file of captured pages'
      : p.pages === 1
        ? `The captured page of ${first}`
        : `The file of ${p.pages.toLocaleString('en')} captured pages (${first} and others)`;
  return `${holds}: ${p.problem}.`;
}

/** a trusted time to the second, in UTC: what a token says, read as a person would quote it */
const secondStamp = (at: number) => `${new Date(at).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/** an authority named by its host (what a person recognises), its address when that cannot be read */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** who gave a run trusted time and when, as the finished run says it: "Timestamped by host at time" */
export const timestampedBy = (authority: string, genTime: number): string =>
  `Timestamped by ${hostOf(authority)} at ${secondStamp(genTime)}`;

export const sentence = (s: string) => `${s.charAt(0).toUpperCase()}${s.slice(1)}${/[.!?]$/.test(s) ? '' : '.'}`;

/** a finished keeping's trusted time: who timestamped the run's files and when, or plainly why nobody did */
export function timestampSentence(t: MediaTimestamp): string {
  if (t.authority !== null && t.genTime !== null)
    return `${timestampedBy(t.authority, t.genTime)}: a token over the hashes of the ${files(t.files)} kept this time is saved beside them.`;
  return sentence(t.reason ?? 'no trusted time was obtained');
}

/** what a check found of the timestamp tokens (each one that no longer proves its manifest is listed after it) */
export function tokensSentence(c: MediaCheck): string {
  if (c.tokens === 0) return 'No timestamp tokens to check yet.';
  const bad = c.tokenProblems.length;
  if (bad === 0)
    return c.tokens === 1
      ? 'The one timestamp token checked still proves its files.'
      : `All ${c.tokens.toLocaleString('en')} timestamp tokens checked still prove their files.`;
  return `${bad.toLocaleString('en')} of ${c.tokens.toLocaleString('en')} timestamp tokens checked no longer ${bad === 1 ? 'proves its' : 'prove their'} files:`;
}

/** one token that no longer proves its manifest: whose, when, and what is wrong */
export function tokenProblemSentence(p: MediaCheck['tokenProblems'][number]): string {
  return `The token from ${hostOf(p.authority)} of ${secondStamp(p.genTime)}: ${p.problem}.`;
}

/** an evidence package written: what it holds, where, and the trusted time over its manifest (or why none) */
export function evidenceSentence(e: EvidencePackage): string {
  const pages =
    e.pages === 0
      ? ''
      : `, ${e.pagesCaptured.toLocaleString('en')} of the ${e.pages.toLocaleString('en')} linked page${e.pages === 1 ? '' : 's'} as captured`;
  const held = `${e.posts.toLocaleString('en')} post${e.posts === 1 ? '' : 's'}, ${files(e.files)} (${sizeLabel(e.bytes)})${pages} and ${e.tokens.toLocaleString('en')} timestamp token${e.tokens === 1 ? '' : 's'}`;
  const left =
    e.changed > 0
      ? ` ${files(e.changed)} no longer ${e.changed === 1 ? 'matches its' : 'match their'} hash and ${e.changed === 1 ? 'was' : 'were'} left out, named in its manifest.`
      : '';
  const one = e.damaged === 1;
  const damaged =
    e.damaged > 0
      ? ` ${e.damaged.toLocaleString('en')} post${one ? '' : 's'} of the collection ${one ? 'was' : 'were'} left out, named in its manifest: ${one ? 'its' : 'their'} kept copy in the project is damaged. Hydrating ${one ? 'its id' : 'their ids'} mends ${one ? 'it' : 'them'}.`
      : '';
  const time =
    e.manifestToken !== null
      ? ` Its manifest is timestamped by ${e.manifestToken.authority} at ${secondStamp(e.manifestToken.genTime)}.`
      : ` Its manifest has no trusted time: ${e.manifestTokenReason ?? 'none was asked for'}.`;
  return `Evidence package written to ${e.path}: ${held}.${damaged}${left}${time}`;
}
