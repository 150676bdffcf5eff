/**
 * What a media file's first bytes say it is. A server's Content-Type is a claim; the bytes are the fact: an HTML
 * page served as image/jpeg is refused rather than kept as a photo.
 */

export type MediaMime = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp' | 'video/mp4';

export const EXTENSION: Record<MediaMime, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
};

/** the bytes a sniff needs */
export const SNIFF_BYTES = 12;

const starts = (b: Uint8Array, at: number, bytes: readonly number[]): boolean => bytes.every((v, i) => b[at + i] === v);
const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

/** the type the first bytes of a file show, or undefined when they are none Skein keeps */
export function sniffMime(head: Uint8Array): MediaMime | undefined {
  if (starts(head, 0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts(head, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts(head, 0, ascii('GIF87a')) || starts(head, 0, ascii('GIF89a'))) return 'image/gif';
  if (starts(head, 0, ascii('RIFF')) && starts(head, 8, ascii('WEBP'))) return 'image/webp';
  if (starts(head, 4, ascii('ftyp'))) return 'video/mp4';
  return undefined;
}

/**
 * Whether a declared Content-Type agrees with the sniffed type. A bare `application/octet-stream` (or none)
 * claims nothing, so the bytes decide; any other claim must name the same kind.
 */
export function declaredMatches(declared: string | undefined, sniffed: MediaMime): boolean {
  const type = (declared ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === '' || type === 'application/octet-stream') return true;
  if (type === 'image/jpg' || type === 'image/pjpeg') return sniffed === 'image/jpeg';
  if (sniffed === 'video/mp4') return type === 'video/mp4' || type === 'video/quicktime';
  return type === sniffed;
}
