/**
 * An article's shape is not documented (the operation is not available yet).
 * Should it answer one day, find a title, text and cover under the usual
 * names; whatever else it holds is shown as fields.
 */
import { flattenEntry, type KeyValueRow } from '../../lib/entry-shape';

export interface ArticleView {
  title: string | null;
  text: string | null;
  coverUrl: string | null;
  /** everything, as readable rows */
  fields: KeyValueRow[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function find(obj: unknown, keys: readonly string[], depth = 0): string | null {
  if (!isRecord(obj) || depth > 4) return null;
  for (const k of keys) {
    const v = obj[k];
    if (typeof v === 'string' && v.trim()) return v.trim();
  }
  for (const v of Object.values(obj)) {
    const hit = find(v, keys, depth + 1);
    if (hit) return hit;
  }
  return null;
}

export function readArticle(data: unknown): ArticleView {
  const cover = find(data, ['cover_url', 'coverUrl', 'cover_image', 'original_img_url', 'image_url']);
  return {
    title: find(data, ['title', 'headline']),
    text: find(data, ['plain_text', 'text', 'content', 'body', 'preview_text']),
    coverUrl: cover && /^https?:\/\//i.test(cover) ? cover : null,
    fields: flattenEntry(data, { maxRows: 60 }),
  };
}

/** The post carries a long-form article (the live `article` object, not null or `{}`): only then is it offered. */
export function carriesArticle(post: object | null | undefined): boolean {
  const a = (post as { article?: unknown } | null | undefined)?.article;
  return isRecord(a) && Object.keys(a).length > 0;
}
