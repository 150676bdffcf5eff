/**
 * Media: the spec puts it in `entities.media[]` (with `media_results`); the
 * live service often sends it in `extendedEntities.media[]` instead
 * (`type`, `media_url_https`, `original_info`, `ext_alt_text`,
 * `video_info.variants[]`). This builds the spec's entry from the latter,
 * keeping every original field on it.
 */
import { ownValue } from '../../own';
import { indexPair, isObject, str, toInt, type Obj } from './values';

const TYPENAME: Record<string, string> = { photo: 'ApiImage', video: 'ApiVideo', animated_gif: 'ApiGif' };

export function mediaFromExtended(m: unknown): Obj | null {
  if (!isObject(m)) return null;
  const imageUrl = m.media_url_https ?? m.media_url;
  if (typeof imageUrl !== 'string' || imageUrl === '') return null;
  const idStr = str(m.id_str, typeof m.id === 'number' || typeof m.id === 'string' ? String(m.id) : '');
  const key = str(m.media_key, idStr);
  const info = isObject(m.original_info) ? m.original_info : {};
  const type = str(m.type, 'photo');
  const mediaInfo: Obj = {
    __typename: ownValue(TYPENAME, type) ?? 'ApiImage',
    alt_text: typeof m.ext_alt_text === 'string' ? m.ext_alt_text : null,
    original_img_url: imageUrl,
    original_img_width: toInt(info.width) ?? 0,
    original_img_height: toInt(info.height) ?? 0,
  };
  if (isObject(m.video_info)) mediaInfo.video_info = m.video_info;
  return {
    ...m,
    display_url: str(m.display_url, ''),
    expanded_url: str(m.expanded_url, ''),
    features: isObject(m.features) ? m.features : {},
    id_str: idStr,
    indices: indexPair(m.indices) ?? [0, 0],
    url: str(m.url, ''),
    media_results: {
      id: key,
      result: {
        __typename: 'ApiMedia',
        id: key,
        media_availability_v2: { status: 'Available' },
        media_id: idStr,
        media_info: mediaInfo,
      },
    },
  };
}
