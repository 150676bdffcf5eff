/**
 * The choices for the largest video Skein keeps: the best variant, or the best at or under one of the bitrates
 * the platform's players step through (so each choice picks a different file, not the same one under another
 * name).
 */
export interface VideoLimit {
  /** bits a second; null: the best there is */
  value: number | null;
  label: string;
}

const VIDEO_LIMITS: readonly VideoLimit[] = [
  { value: null, label: 'The best there is' },
  { value: 2_200_000, label: 'Up to 2.2 Mbit/s (about 720p)' },
  { value: 900_000, label: 'Up to 900 kbit/s (about 480p)' },
  { value: 300_000, label: 'Up to 300 kbit/s (smallest)' },
];

/** the choice a stored maximum falls under: the listed one, or a line that says the number */
export function videoLimitChoices(current: number | null): readonly VideoLimit[] {
  if (VIDEO_LIMITS.some((l) => l.value === current)) return VIDEO_LIMITS;
  return [...VIDEO_LIMITS, { value: current, label: `Up to ${Math.round((current ?? 0) / 1000)} kbit/s` }];
}
