/**
 * An agreement row read in words, the same on screen and in a package's `agreement.md`: the usual convention
 * for Krippendorff's α (named as a convention, not a law), how wide the bootstrap interval is, and roughly how
 * many double-coded items would narrow it. Pure: figures in, sentences out.
 */

/** The thresholds of the usual convention (Krippendorff, Content Analysis, 2004/2019). */
const ALPHA_RELIABLE = 0.8;
const ALPHA_TENTATIVE = 0.667;
/** the half-width an interval is narrowed to in the advice */
const TARGET_HALF_WIDTH = 0.05;

export type AlphaVerdict = 'reliable' | 'tentative' | 'not-reliable';

export interface ReadableRow {
  levels: ReadonlyArray<'nominal' | 'ordinal' | 'interval'>;
  alpha: {
    nominal?: number | null | undefined;
    ordinal?: number | null | undefined;
    interval?: number | null | undefined;
  };
  interval: { low: number; high: number } | null;
  units: number;
  /** values this Skein cannot read, left out of the figures */
  unread?: number | undefined;
}

export interface AgreementReading {
  /** null when α is undefined or nothing was double-coded */
  verdict: AlphaVerdict | null;
  /** the verdict in a few words, for a table cell */
  short: string;
  /** the whole reading, sentence by sentence */
  sentences: string[];
}

const VERDICT_WORDS: Record<AlphaVerdict, string> = {
  reliable: 'reliable by the usual convention',
  tentative: 'tentative conclusions only',
  'not-reliable': 'not reliable',
};

export function alphaVerdict(alpha: number): AlphaVerdict {
  if (alpha >= ALPHA_RELIABLE) return 'reliable';
  if (alpha >= ALPHA_TENTATIVE) return 'tentative';
  return 'not-reliable';
}

/** How wide a 95 % interval of α is, in words, by its half-width. */
export function widthWords(halfWidth: number): 'narrow' | 'moderate' | 'wide' {
  if (halfWidth <= TARGET_HALF_WIDTH) return 'narrow';
  if (halfWidth <= 0.1) return 'moderate';
  return 'wide';
}

/**
 * About how many double-coded items would bring the interval's half-width down to `target`: a bootstrap
 * interval's width shrinks roughly with 1/√n, so n·(h/target)², rounded up to ten.
 */
export function itemsFor(units: number, halfWidth: number, target = TARGET_HALF_WIDTH): number {
  const n = units * (halfWidth / target) ** 2;
  return Math.ceil(n / 10) * 10;
}

const f3 = (v: number) => v.toFixed(3);

/** the sentence a row's values this Skein cannot read add, last: the figures are without them */
function unreadSentence(unread: number | undefined): string[] {
  if (!unread) return [];
  const values = unread === 1 ? '1 value' : `${unread} values`;
  return [
    `${values} of this field this Skein cannot read (a newer Skein’s, or damaged) ${unread === 1 ? 'is' : 'are'} left out of these figures.`,
  ];
}

export function readAgreement(row: ReadableRow): AgreementReading {
  const reading = readFigures(row);
  return { ...reading, sentences: [...reading.sentences, ...unreadSentence(row.unread)] };
}

function readFigures(row: ReadableRow): AgreementReading {
  if (row.units === 0)
    return {
      verdict: null,
      short: 'nothing double-coded yet',
      sentences: ['No item was coded by two coders or more yet.'],
    };
  const level = row.levels[0] ?? 'nominal';
  const alpha = row.alpha[level];
  const sentences: string[] = [];
  let verdict: AlphaVerdict | null = null;
  if (alpha === null || alpha === undefined) {
    sentences.push(
      `Krippendorff’s α is undefined here: the coders’ values do not vary, so agreement cannot be told from chance.`,
    );
  } else {
    verdict = alphaVerdict(alpha);
    sentences.push(
      `α ${f3(alpha)}: ${VERDICT_WORDS[verdict]} (the usual convention reads α ≥ 0.800 as reliable, 0.667 to 0.800 as good for tentative conclusions only, and below 0.667 as not reliable).`,
    );
  }
  const ci = row.interval;
  if (ci) {
    const half = (ci.high - ci.low) / 2;
    const width = widthWords(half);
    const spans =
      alphaVerdict(ci.low) !== alphaVerdict(ci.high)
        ? ` It reaches from “${VERDICT_WORDS[alphaVerdict(ci.low)]}” to “${VERDICT_WORDS[alphaVerdict(ci.high)]}”.`
        : '';
    sentences.push(`The 95 % interval, ${f3(ci.low)} to ${f3(ci.high)} (±${half.toFixed(2)}), is ${width}.${spans}`);
    if (half > TARGET_HALF_WIDTH) {
      const items = row.units === 1 ? 'item' : 'items';
      sentences.push(
        `With ${row.units} ${items} double-coded the interval is ${width}; about ${itemsFor(row.units, half)} items would narrow it to ±${TARGET_HALF_WIDTH.toFixed(2)} (an approximation: the width shrinks roughly with one over the square root of the number of items).`,
      );
    }
  }
  return { verdict, short: verdict ? VERDICT_WORDS[verdict] : 'undefined (no variation)', sentences };
}
