/**
 * A post's `card` (api-field-notes.md, "Round 2"): `null`, `""`, `{}`, or `{name, url, binding_values,
 * card_platform, user_refs_results}` where `binding_values` is a key/value array (`[{key, value: {string_value
 * | image_value | boolean_value …}}]`); fetched by id, the same card may sit under `card.legacy`; older
 * answers spell `binding_values` as an object keyed by name. This reads one into what a view shows and an
 * export's columns hold: a poll (choices, counts as numbers, end time), a link preview (title, domain,
 * image), a live broadcast (a link), or another card by name. Never throws; the raw card stays in the item.
 */
import { isObject, toInt, type Obj } from './values';

export interface CardImage {
  url: string;
  width: number | null;
  height: number | null;
  alt: string | null;
}

export interface PollChoice {
  label: string;
  /** votes; null when the service sent none that reads as a count */
  count: number | null;
}

export type PostCardView =
  | {
      kind: 'poll';
      name: string;
      url: string | null;
      choices: PollChoice[];
      /** epoch ms the poll ends (or ended); null when unknown */
      endsAt: number | null;
      /** the service says the counts will not change any more */
      final: boolean | null;
      durationMinutes: number | null;
    }
  | {
      kind: 'link';
      name: string;
      /** where the card opens: the expanded link when the post's entities name it, else the card's own */
      url: string | null;
      title: string | null;
      description: string | null;
      domain: string | null;
      image: CardImage | null;
    }
  | {
      kind: 'broadcast';
      name: string;
      url: string | null;
      title: string | null;
      /** `LIVE`, `ENDED`… as the service says it */
      state: string | null;
      broadcaster: string | null;
      image: CardImage | null;
    }
  | { kind: 'other'; name: string; url: string | null; title: string | null };

/** at most this many choices a poll has (the platform's own limit) */
export const MAX_POLL_CHOICES = 4;

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** an http(s) URL, never another scheme (`card://` is the service's own name, not a link) */
function webUrl(v: unknown): string | null {
  const s = text(v);
  if (s === null) return null;
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : null;
  } catch {
    return null;
  }
}

/** the card's key/value pairs, whichever spelling arrived */
function bindings(card: Obj): Map<string, Obj> {
  const out = new Map<string, Obj>();
  const source = card.binding_values ?? (isObject(card.legacy) ? card.legacy.binding_values : undefined);
  if (Array.isArray(source)) {
    for (const entry of source as unknown[]) {
      if (!isObject(entry) || typeof entry.key !== 'string' || !isObject(entry.value)) continue;
      if (!out.has(entry.key)) out.set(entry.key, entry.value);
    }
  } else if (isObject(source)) {
    for (const [key, value] of Object.entries(source)) if (isObject(value)) out.set(key, value);
  }
  return out;
}

function image(v: Obj | undefined, alt: string | null): CardImage | null {
  const img = v && isObject(v.image_value) ? v.image_value : null;
  const url = img ? webUrl(img.url) : null;
  if (!img || url === null) return null;
  const size = (n: unknown) => {
    const i = toInt(n);
    return i !== undefined && i > 0 ? i : null;
  };
  return { url, width: size(img.width), height: size(img.height), alt };
}

/** the first of `keys` that holds an image, else any `…image_large` / `…image` binding */
function firstImage(b: Map<string, Obj>, keys: readonly string[], alt: string | null): CardImage | null {
  for (const k of keys) {
    const found = image(b.get(k), alt);
    if (found) return found;
  }
  for (const [k, v] of b) {
    if (/_image(_large)?$/.test(k)) {
      const found = image(v, alt);
      if (found) return found;
    }
  }
  return null;
}

const LINK_IMAGES = [
  'thumbnail_image_large',
  'summary_photo_image_large',
  'photo_image_full_size_large',
  'player_image_large',
  'thumbnail_image',
  'summary_photo_image',
  'player_image',
];
const BROADCAST_IMAGES = ['broadcast_thumbnail_large', 'broadcast_thumbnail', 'thumbnail_image_large'];

/** epoch ms of an ISO date; null when unreadable or before the platform existed (a placeholder) */
function isoMs(v: unknown): number | null {
  const s = text(v);
  if (s === null) return null;
  const t = Date.parse(s);
  return Number.isFinite(t) && t > Date.UTC(2006, 0, 1) ? t : null;
}

/** Reads a post's card; `urls` are the post's url entities (a card's t.co link resolves through them). */
export function readCard(raw: unknown, urls?: unknown): PostCardView | null {
  if (!isObject(raw)) return null;
  const legacy = isObject(raw.legacy) ? raw.legacy : null;
  const name = text(raw.name) ?? text(legacy?.name);
  const b = bindings(raw);
  if (name === null && b.size === 0) return null;
  const s = (key: string) => text(b.get(key)?.string_value);
  const ownUrl = text(raw.url) ?? text(legacy?.url);
  const cardName = name ?? '';

  const poll = /^poll(\d)choice/.exec(cardName);
  if (poll || b.has('choice1_label')) {
    const choices: PollChoice[] = [];
    for (let i = 1; i <= MAX_POLL_CHOICES; i++) {
      const label = s(`choice${i}_label`);
      if (label === null) continue;
      const count = toInt(b.get(`choice${i}_count`)?.string_value);
      choices.push({ label, count: count !== undefined && count >= 0 ? count : null });
    }
    const final = b.get('counts_are_final')?.boolean_value;
    const minutes = toInt(s('duration_minutes'));
    return {
      kind: 'poll',
      name: cardName,
      url: ownUrl,
      choices,
      endsAt: isoMs(s('end_datetime_utc')),
      final: typeof final === 'boolean' ? final : null,
      durationMinutes: minutes !== undefined && minutes > 0 ? minutes : null,
    };
  }

  const link = resolved(s('card_url') ?? ownUrl, urls);
  if (/broadcast$/.test(cardName) || b.has('broadcast_url')) {
    return {
      kind: 'broadcast',
      name: cardName,
      url: webUrl(s('broadcast_url')) ?? link,
      title: s('broadcast_title') ?? s('title'),
      state: s('broadcast_state'),
      broadcaster: s('broadcaster_username'),
      image: firstImage(b, BROADCAST_IMAGES, null),
    };
  }
  if (/^summary|^player$|^promo_website$/.test(cardName) || b.has('title')) {
    const domain = s('domain') ?? s('vanity_url') ?? (link ? hostOf(link) : null);
    return {
      kind: 'link',
      name: cardName,
      url: link,
      title: s('title'),
      description: s('description'),
      domain,
      image: firstImage(b, LINK_IMAGES, s('thumbnail_image_alt_text') ?? s('photo_image_full_size_alt_text')),
    };
  }
  return { kind: 'other', name: cardName, url: link, title: s('title') };
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.replace(/^www\./, '') || null;
  } catch {
    return null;
  }
}

/** the expanded URL the post's entities give for a (t.co) link, else the link itself when it is a web URL */
function resolved(url: string | null, urls: unknown): string | null {
  if (url === null) return null;
  if (Array.isArray(urls)) {
    for (const u of urls as unknown[]) {
      if (isObject(u) && u.url === url) {
        const expanded = webUrl(u.expanded_url);
        if (expanded) return expanded;
      }
    }
  }
  return webUrl(url);
}
