/** Numbers as people read them, with "unknown" kept distinct from 0. */
import { numberFormat } from '../../shared/intl-cache';
import { formatUsd } from './usage/money';

/** A counter as the API may send it: a number, a numeric string, or anything else (= unknown). */
export function readCount(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : null;
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value.trim());
  return null;
}

/** "987", "1.2K", "12K", "3.4M"; null reads "unknown". */
export function compactCount(n: number | null, locale?: string): string {
  if (n === null) return 'unknown';
  return numberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(n);
}

/** "1,234,567"; null reads "unknown". */
export function fullCount(n: number | null, locale?: string): string {
  if (n === null) return 'unknown';
  return numberFormat(locale).format(n);
}

/** "1 reply", "2 replies", "unknown replies". */
export function countLabel(n: number | null, singular: string, plural: string, locale?: string): string {
  if (n === null) return `unknown ${plural}`;
  return `${fullCount(n, locale)} ${n === 1 ? singular : plural}`;
}

/** "1,234 credits ($0.45)", "15 credits (< $0.01)": dollars as money, to the cent. */
export function creditsLabel(credits: number, usd: number | null, locale?: string): string {
  const c = `${numberFormat(locale, { maximumFractionDigits: 1 }).format(credits)} credits`;
  if (usd === null) return c;
  return `${c} (${formatUsd(usd, locale)})`;
}

/** the most code points a post's label quotes */
const LABEL_POINTS = 60;

/**
 * A post as people name it: `@ann: “the first words of the post…”` (never its id).
 * Counted in code points, so an emoji or a CJK character is never cut in half.
 */
export function postLabel(
  post: { author?: { userName?: string | null } | null; text?: string | null } | null | undefined,
  fallback: string,
  words = 8,
): string {
  if (!post) return fallback;
  // word by word, never the whole text: a label needs a few words, and a post may be a megabyte of one
  const parts: string[] = [];
  let more = false;
  for (const m of (post.text ?? '').matchAll(/\S+/g)) {
    const w = m[0].replace(/https?:\/\/\S+/g, '');
    if (!w) continue;
    if (parts.length === words) {
      more = true;
      break;
    }
    // one unit past what the label can show, so that a cut is still seen as one
    parts.push(w.length > 2 * LABEL_POINTS ? w.slice(0, 2 * LABEL_POINTS + 1) : w);
  }
  const points = [...parts.join(' ')];
  const head = points.slice(0, LABEL_POINTS).join('');
  const cut = more || points.length > LABEL_POINTS;
  const quote = head ? `“${head}${cut ? '…' : ''}”` : '';
  const who = post.author?.userName ? `@${post.author.userName}` : '';
  return [who, quote].filter(Boolean).join(': ') || fallback;
}
