/**
 * The pictures and videos of a post, from wherever the API put them: the
 * spec's `entities.media[].media_results.result.media_info`, or the live
 * service's `extendedEntities.media[]` (field notes). One shape for the grid.
 */

export interface MediaItem {
  id: string;
  kind: 'photo' | 'video' | 'gif';
  /** image to show (a video's poster) */
  src: string;
  /** the image at its original size */
  original: string;
  width: number | null;
  height: number | null;
  alt: string | null;
  /** page of the media on the site */
  href: string | null;
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null);
const get = (v: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((acc, k) => (isRec(acc) ? acc[k] : undefined), v);

function fromSpec(m: Rec): MediaItem | null {
  const info = get(m, 'media_results', 'result', 'media_info');
  const url = str(get(info, 'original_img_url'));
  if (!url) return null;
  const type = str(get(info, '__typename')) ?? '';
  return {
    id: str(m.id_str) ?? str(get(m, 'media_results', 'id')) ?? url,
    kind: /video/i.test(type) ? 'video' : /gif/i.test(type) ? 'gif' : 'photo',
    src: url,
    original: url,
    width: num(get(info, 'original_img_width')),
    height: num(get(info, 'original_img_height')),
    alt: str(get(info, 'alt_text')),
    href: str(m.expanded_url),
  };
}

function fromExtended(m: Rec): MediaItem | null {
  const url = str(m.media_url_https) ?? str(m.media_url);
  if (!url) return null;
  const type = str(m.type);
  const original = /[?&]name=/.test(url) ? url : `${url}${url.includes('?') ? '&' : '?'}name=orig`;
  return {
    id: str(m.id_str) ?? url,
    kind: type === 'video' ? 'video' : type === 'animated_gif' ? 'gif' : 'photo',
    src: url,
    original,
    width: num(get(m, 'original_info', 'width')),
    height: num(get(m, 'original_info', 'height')),
    alt: str(m.ext_alt_text) ?? str(m.alt_text),
    href: str(m.expanded_url),
  };
}

/** Media of a post, each once, in order. */
export function postMedia(post: { entities?: unknown; extendedEntities?: unknown }): MediaItem[] {
  const out: MediaItem[] = [];
  const seen = new Set<string>();
  const add = (item: MediaItem | null) => {
    if (item && !seen.has(item.id)) {
      seen.add(item.id);
      out.push(item);
    }
  };
  const ext = get(post.extendedEntities, 'media');
  if (Array.isArray(ext)) for (const m of ext) if (isRec(m)) add(fromExtended(m));
  const spec = get(post.entities, 'media');
  if (Array.isArray(spec)) for (const m of spec) if (isRec(m)) add(fromSpec(m));
  return out;
}
